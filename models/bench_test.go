package models_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/models/modelstest"
)

// sink keeps the compiler from discarding benchmarked draws.
var sink float64

// BenchmarkSample measures one draw, the cost every modelled kernel call
// pays in a run (ns/sample; it must not allocate).
func BenchmarkSample(b *testing.B) {
	dgemm := []string{"m*n*k", "m*n", "m*k", "n*k", "m", "n", "k"}
	coef := []float64{1e-11, 2e-9, 1e-9, 1.5e-9, 3e-8, 5e-8, 2e-8}
	cases := []struct {
		name string
		spec models.Spec
	}{
		{"M1-N0", models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{1e-11}, Intercept: 1e-6}},
		{"M2-N0", models.Spec{Terms: dgemm, Coef: coef, Intercept: 1e-6}},
		{"M2-N1", models.Spec{Terms: dgemm, Coef: coef, Intercept: 1e-6, Noise: models.NoiseGaussian, Sigma: 1e-6}},
		{"M2-N2", models.Spec{Terms: dgemm, Coef: coef, Intercept: 1e-6, Noise: models.NoiseHetero,
			SigmaTerms: []string{"m*n*k"}, SigmaCoef: []float64{3e-13}, SigmaIntercept: 1e-7}},
		{"M1-Nmix", models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{1e-11}, Noise: models.NoiseMixture,
			Mixture: []models.Component{{Weight: 0.8, MeanScale: 1, SigmaScale: 0.02}, {Weight: 0.2, MeanScale: 1.6, SigmaScale: 0.04}}}},
		{"Mp-N1", models.Spec{BreaksOn: "m", Noise: models.NoiseGaussian, Sigma: 1e-7, Pieces: []models.Piece{
			{From: 0, To: 100, Terms: []string{"m*n*k"}, Coef: []float64{2e-11}},
			{From: 100, To: 1000, Terms: []string{"m*n*k"}, Coef: []float64{1.2e-11}},
			{From: 1000, Terms: []string{"m*n*k"}, Coef: []float64{1e-11}}}}},
	}
	v := models.Vars{M: 2000, N: 128, K: 128, W: 2000 * 128 * 128}
	// Baseline: one Gaussian draw from the same generator, the floor of any
	// noisy model; the other cases are read as multiples of it.
	b.Run("baseline-NormFloat64", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 2))
		for b.Loop() {
			sink += rng.NormFloat64()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/sample")
	})
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := modelstest.MustBuild(b, c.spec)
			rng := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			for b.Loop() {
				sink += m.Sample(v, rng)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/sample")
		})
	}
}

// BenchmarkFitM2N2 fits an M2-N2 dgemm model (issue 4 asks for 100,000
// samples), reporting samples fitted per second.
func BenchmarkFitM2N2(b *testing.B) {
	truth := modelstest.MustBuild(b, recoveryCases[1].spec)
	fam, _ := models.ParseFamily("M2-N2")
	for _, n := range []int{10000, 100000} {
		data := modelstest.Draw(truth, "node0", n, modelstest.GemmDims(1, 2048), rand.New(rand.NewPCG(1, 1)))
		b.Run(fmt.Sprintf("samples=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := models.Fit("dgemm", data, fam, models.FitOptions{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}
