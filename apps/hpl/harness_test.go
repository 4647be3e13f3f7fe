package hpl

import (
	"runtime/debug"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
)

// peerModels are the SMPI peer's kernel models (peers/smpi/README.md §2): dgemm
// and dtrsm at 1.029e-11 s per flop-term plus 1.981e-12 s, everything else free.
func peerModels(t testing.TB) *models.Set {
	t.Helper()
	spec := models.Spec{Terms: []string{"w"}, Coef: []float64{1.029e-11}, Intercept: 1.981e-12}
	ms, err := models.NewSet(map[string]models.Spec{"dgemm": spec, "dtrsm": spec})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// world builds an emulated cluster of n hosts (the peer's flat platform: 10 GB/s,
// 1 µs per link) with SMPI's cm02 MPI model and the given probe cost.
func world(t testing.TB, n int, iprobe float64, hooks ...ranks.Hook) *ranks.World {
	t.Helper()
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: peerLink})
	if err != nil {
		t.Fatal(err)
	}
	return worldOn(t, topo, n, iprobe, hooks...)
}

// peerLink is the peer platforms' cable: 10 GB/s, 1 µs, split duplex.
var peerLink = fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}

// worldOn builds a world of n ranks on the first n hosts of topo.
func worldOn(t testing.TB, topo fluid.Topology, n int, iprobe float64, hooks ...ranks.Hook) *ranks.World {
	t.Helper()
	return worldNet(t, "cm02", topo, n, iprobe, hooks...)
}

// worldNet is worldOn with a ranks preset ("cm02" or "smpi").
func worldNet(t testing.TB, net string, topo fluid.Topology, n int, iprobe float64, hooks ...ranks.Hook) *ranks.World {
	t.Helper()
	cfg, err := ranks.Preset(net)
	if err != nil {
		t.Fatal(err)
	}
	cfg.IprobeCost = iprobe
	cfg.WakeOrder = ranks.WakeFIFO // SimGrid's order at ties, which the shared Iprobe counter feels
	place := make([]int, n)
	for i := range place {
		place[i] = i
	}
	w, err := ranks.NewWorld(cfg, topo, place, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		w.AddHook(h)
	}
	return w
}

// runHPL runs one test on P·Q ranks and returns rank 0's result.
func runHPL(t testing.TB, p Params, mode kernels.Mode, opt Options, iprobe float64, hooks ...ranks.Hook) *Result {
	t.Helper()
	return runHPLOn(t, world(t, p.P*p.Q, iprobe, hooks...), p, mode, opt)
}

// runHPLOn runs one test on world w.
func runHPLOn(t testing.TB, w *ranks.World, p Params, mode kernels.Mode, opt Options) *Result {
	t.Helper()
	ms := peerModels(t)
	results := make([]*Result, p.P*p.Q)
	errs := make([]error, p.P*p.Q)
	err := w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: mode, Models: ms}, r, r.Rand())
		defer func() {
			if e := recover(); e != nil {
				t.Logf("rank %d: %v\n%s", r.ID(), e, debug.Stack())
				panic(e)
			}
		}()
		results[r.ID()], errs[r.ID()] = Run(r, p, k, opt)
	})
	if err != nil {
		t.Fatalf("%s: %v", p.Variant(), err)
	}
	for _, e := range errs {
		if e != nil {
			t.Fatal(e)
		}
	}
	for i, r := range results {
		if r == nil || r.Time != results[0].Time || r.Residual != results[0].Residual {
			t.Fatalf("rank %d result differs from rank 0: %+v vs %+v", i, r, results[0])
		}
	}
	return results[0]
}

func TestSmokeReal(t *testing.T) {
	p := DefaultParams()
	p.N, p.NB, p.P, p.Q = 40, 4, 2, 2
	res := runHPL(t, p, kernels.Real, Options{}, 0)
	t.Logf("%+v", res)
	if !res.Passed {
		t.Fatalf("residual %g", res.Residual)
	}
}
