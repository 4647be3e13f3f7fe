package modelstest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/models"
)

// DimsFunc draws the dimensions of one kernel call.
type DimsFunc func(rng *rand.Rand) models.Vars

// Draw returns n samples of m on host at dimensions drawn by dims.
func Draw(m models.Model, host string, n int, dims DimsFunc, rng *rand.Rand) []models.Sample {
	out := make([]models.Sample, n)
	for i := range out {
		v := dims(rng)
		out[i] = models.Sample{Host: host, Vars: v, Seconds: m.Sample(v, rng)}
	}
	return out
}

// LogUniformInt draws an integer whose logarithm is uniform on [log lo, log hi]:
// calibration campaigns cover sizes over decades, as HPL calls them.
func LogUniformInt(rng *rand.Rand, lo, hi int) float64 {
	l, h := math.Log(float64(lo)), math.Log(float64(hi)+1)
	return math.Min(math.Floor(math.Exp(l+(h-l)*rng.Float64())), float64(hi))
}

// GemmDims draws dgemm-like calls: m, n, k independently log-uniform on
// [lo, hi] (so tall, skinny and flat shapes all occur), W = M·N·K.
func GemmDims(lo, hi int) DimsFunc {
	return func(rng *rand.Rand) models.Vars {
		m, n, k := LogUniformInt(rng, lo, hi), LogUniformInt(rng, lo, hi), LogUniformInt(rng, lo, hi)
		return models.Vars{M: m, N: n, K: k, W: m * n * k}
	}
}

// MatrixDims draws dgemv/dger-like calls: m, n log-uniform, W = M·N.
func MatrixDims(lo, hi int) DimsFunc {
	return func(rng *rand.Rand) models.Vars {
		m, n := LogUniformInt(rng, lo, hi), LogUniformInt(rng, lo, hi)
		return models.Vars{M: m, N: n, W: m * n}
	}
}

// VectorDims draws level-1 calls: N log-uniform, W = N.
func VectorDims(lo, hi int) DimsFunc {
	return func(rng *rand.Rand) models.Vars {
		n := LogUniformInt(rng, lo, hi)
		return models.Vars{N: n, W: n}
	}
}

// MustBuild builds spec or fails the test.
func MustBuild(tb testing.TB, spec models.Spec) models.Model {
	tb.Helper()
	m, err := spec.Build()
	if err != nil {
		tb.Fatalf("building %+v: %v", spec, err)
	}
	return m
}

// RelErr is |got − want| / |want| (|got| when want is 0).
func RelErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}
