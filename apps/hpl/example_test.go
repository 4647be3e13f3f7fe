package hpl_test

import (
	"fmt"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
)

// Run is called by every rank of a world; here a 2×2 grid in model mode with
// the SMPI peer's dgemm/dtrsm models on a flat 10 GB/s cluster.
func ExampleRun() {
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 4, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	cfg, _ := ranks.Preset("cm02")
	cfg.IprobeCost = 1e-6
	w, _ := ranks.NewWorld(cfg, topo, []int{0, 1, 2, 3}, 1)
	flop := models.Spec{Terms: []string{"w"}, Coef: []float64{1.029e-11}, Intercept: 1.981e-12}
	ms, _ := models.NewSet(map[string]models.Spec{"dgemm": flop, "dtrsm": flop})

	p := hpl.DefaultParams()
	p.N, p.NB, p.P, p.Q = 5000, 128, 2, 2
	p.PFact, p.RFact, p.UTransposed = hpl.Right, hpl.Right, true
	var res *hpl.Result
	_ = w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: kernels.Model, Models: ms}, r, r.Rand())
		out, _ := hpl.Run(r, p, k, hpl.Options{Pivot: hpl.PivotSplitmix})
		if r.ID() == 0 {
			res = out
		}
	})
	fmt.Printf("%s N=%d: %.6f s, %.1f Gflops\n", res.Variant, res.N, res.Time, res.Gflops)
	// Output: WR11R2R4 N=5000: 0.136811 s, 609.4 Gflops
}
