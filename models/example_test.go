package models_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/models/modelstest"
)

func ExampleParseSet() {
	doc := `
[kernels.dgemm]
terms = ["m*n*k"]
coef = [1.029e-11]
intercept = 1.981e-6

[kernels.dgemm.host.slow7]
terms = ["m*n*k"]
coef = [1.2e-11]
intercept = 1.981e-6
`
	set, err := models.ParseSet([]byte(doc), "models.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	v := models.Vars{M: 1000, N: 128, K: 128, W: 1000 * 128 * 128}
	fmt.Printf("node1: %.4g s\n", set.For("dgemm", "node1").Mean(v))
	fmt.Printf("slow7: %.4g s\n", set.For("dgemm", "slow7").Mean(v))
	fmt.Println("dtrsm has a model:", set.For("dtrsm", "node1") != nil)
	// Output:
	// node1: 0.0001706 s
	// slow7: 0.0001986 s
	// dtrsm has a model: false
}

func ExampleParseSet_error() {
	_, err := models.ParseSet([]byte("[kernels.dgemm]\nterms = [\"m*n*q\"]\ncoef = [1e-11]\n"), "models.toml")
	fmt.Println(err)
	// Output:
	// models.toml:2: kernels.dgemm.terms: [0]: unknown term "m*n*q": factors must be m, n, k or w joined by '*', or "1"
}

func ExampleSet_MarshalTOML() {
	set, _ := models.NewSet(map[string]models.Spec{
		"daxpy": {Terms: []string{"n"}, Coef: []float64{2.5e-10}, Intercept: 1e-7, Noise: models.NoiseGaussian, Sigma: 5e-9},
		"idamax": {Terms: []string{"n"}, Coef: []float64{3e-10}, Noise: models.NoiseMixture, Mixture: []models.Component{
			{Weight: 0.9, MeanScale: 1, SigmaScale: 0.01}, {Weight: 0.1, MeanScale: 4, SigmaScale: 0.1}}},
	})
	out, _ := set.MarshalTOML()
	fmt.Print(string(out))
	// Output:
	// [kernels.daxpy]
	// terms = ["n"]
	// coef = [2.5e-10]
	// intercept = 1e-07
	// noise = "gaussian"
	// sigma = 5e-09
	//
	// [kernels.idamax]
	// terms = ["n"]
	// coef = [3e-10]
	// intercept = 0.0
	// noise = "mixture"
	//
	// [[kernels.idamax.mixture]]
	// weight = 0.9
	// mean_scale = 1.0
	// sigma_scale = 0.01
	//
	// [[kernels.idamax.mixture]]
	// weight = 0.1
	// mean_scale = 4.0
	// sigma_scale = 0.1
}

func ExampleFit() {
	// Draw 500 dgemm calls from a known M1-N1 model, then fit it back.
	truth, err := models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{1e-11}, Intercept: 2e-6,
		Noise: models.NoiseGaussian, Sigma: 1e-7}.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	samples := modelstest.Draw(truth, "node0", 500, modelstest.GemmDims(8, 1024), rand.New(rand.NewPCG(1, 2)))

	fam, _ := models.ParseFamily("M1-N1")
	var spec models.Spec
	var q models.Quality
	spec, q, err = models.Fit("dgemm", samples, fam, models.FitOptions{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %.3g·%s + %.3g s, σ %.2g s, R² %.4f\n", q.Family, spec.Coef[0], spec.Terms[0], spec.Intercept, spec.Sigma, q.R2)
	// Output:
	// M1-N1: 1e-11·m*n*k + 2e-06 s, σ 1e-07 s, R² 1.0000
}

func ExampleFitFactors() {
	// One-way times of a link with nominal L = 1 µs and B = 10 GB/s whose
	// MPI switches protocol above 8 KiB on the wire: latency factor 2 → 5,
	// bandwidth factor 0.5 → 0.9 (wire size = payload + 16 bytes). The points
	// have wire sizes 6160 and 8208 on either side of the switch, and SMPI's
	// chunk "b:v" applies above b, so the fitted bound is 6160.
	opts := models.FactorOptions{Latency: 1e-6, Bandwidth: 1e10, Envelope: 16}
	truth := models.Factors{Bounds: []int{0, 8192}, Latency: []float64{2, 5}, Bandwidth: []float64{0.5, 0.9}}
	var pts []models.PingPong
	for b := 1; b <= 1<<22; b *= 2 {
		for _, s := range []int{b - b/4, b, b + b/3} {
			pts = append(pts, models.PingPong{Bytes: s, Seconds: truth.Time(s, opts)})
		}
	}
	f, err := models.FitFactors(pts, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("lat_factor =", f.LatencyTable())
	fmt.Println("bw_factor  =", f.BandwidthTable())
	// Output:
	// lat_factor = 0:2;6160:5
	// bw_factor  = 0:0.5;6160:0.9
}
