// Package models owns emu's kernel time models: what a compute kernel call
// costs as a function of its dimensions, how that cost varies from call to
// call, and how such models are fitted from measured samples.
//
// # Families
//
// Following the SMPI/HPL study (shared/seeds/003, section VI) a model is a
// mean part and a noise part:
//
//	M0   constant: T = a
//	M1   one product term: T = a·S + b (S = m*n*k for dgemm, ...)
//	M2   the kernel's full polynomial (dgemm: m*n*k, m*n, m*k, n*k, m, n, k, 1)
//	Mp   piecewise M1 (the study's M′): different coefficients within ranges
//	     of one variable (breaks_on), breakpoints found from the data,
//	     possibly discontinuous
//	Mh   per-host variants of any of the above with a platform-wide fallback
//	N0   no noise; N1 Gaussian with constant σ; N2 Gaussian with σ a
//	     polynomial of the dimensions (heteroscedastic); Nmix a mixture of
//	     Gaussians for multi-modal timings (the study's N′)
//
// A Spec is the TOML table form of one model ([kernels.NAME] in models.toml or
// in a scenario); Spec.Build compiles it into a Model; a Set maps kernel and
// host names to models. Fit estimates a Spec from samples (least squares with
// gonum/mat QR, segmented regression, EM) and reports its Quality; family
// "auto" chooses among the families by cross-validated error and BIC.
// FitFactors fits SMPI-style piecewise latency/bandwidth factor tables from
// ping-pong measurements.
//
// # Units
//
// Durations, means, σ and offsets are in seconds; dimensions are element
// counts (m, n, k) and w is a derived work term chosen by the caller (see the
// kernels package). Message sizes in FitFactors are bytes, bandwidth bytes per
// second.
//
// # Determinism
//
// Nothing here does I/O, reads the clock or starts goroutines. Randomness
// comes only from the *rand.Rand (math/rand/v2) a caller passes in, or from
// FitOptions.Seed; maps are ranged over in sorted order, so the same inputs
// and seed give the same models, draws and bytes. Sample never allocates and
// never returns a negative duration.
//
// # Errors
//
// Bad data (a malformed or inconsistent TOML table, unknown keys or terms,
// too few samples, non-finite values) is reported as an error that names the
// file, the line when it can be found, and the key; nothing panics on bad
// data. Calling a method on a nil Model is a programmer error.
//
// # Imports
//
// models imports none of emu's packages (ARCHITECTURE.md); it uses
// gonum (mat, stat), BurntSushi/toml and math/rand/v2 only.
package models
