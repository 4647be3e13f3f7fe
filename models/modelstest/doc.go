// Package modelstest helps tests draw kernel samples from known models, so
// fitting code (models.Fit, calibration) can be checked by recovery: draw
// from a model whose parameters are known, fit, compare.
//
// Everything is seeded by the *rand.Rand passed in; nothing reads the clock.
//
// It may import models and nothing else of ours; only tests import it.
package modelstest
