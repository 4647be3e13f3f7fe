package fluid_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/fluid/fluidtest"
)

// diffTol is the relative difference (dimensionless) allowed between the
// System's rates or completion times and the reference's: both do a few
// float64 operations per value, in different orders.
const diffTol = 1e-9

func close(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= diffTol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// solveWithSystem starts p's flows at time 0, one by one (or all in one
// StartAll when batch is set), and returns their rates.
func solveWithSystem(p fluidtest.Problem, opts fluid.Options, batch bool) []float64 {
	s := fluid.NewSystemOptions(p.Links, opts)
	ids := make([]fluid.FlowID, len(p.Flows))
	if batch {
		ids = s.StartAll(0, p.Flows, ids[:0])
	} else {
		for i, f := range p.Flows {
			ids[i] = s.Start(0, f)
		}
	}
	rates := make([]float64, len(ids))
	for i, id := range ids {
		rates[i] = s.Rate(id)
	}
	return rates
}

func TestSystemSolvesCases(t *testing.T) {
	for _, c := range fluidtest.Cases {
		for _, solver := range []fluid.Solver{fluid.Incremental, fluid.FullResolve} {
			got := solveWithSystem(c.Problem, fluid.Options{Solver: solver}, false)
			for i := range got {
				if !close(got[i], c.Want[i]) {
					t.Errorf("%s (%v): flow %d rate %v, want %v", c.Name, solver, i, got[i], c.Want[i])
				}
			}
		}
	}
}

// TestSystemMatchesReference: on random static problems the incremental
// System, the full-resolve System, StartAll and local re-solves agree with
// the naive reference, and the System's rates pass the max-min invariants.
func TestSystemMatchesReference(t *testing.T) {
	modes := []struct {
		name  string
		opts  fluid.Options
		batch bool
	}{
		{"incremental", fluid.Options{}, false},
		{"full", fluid.Options{Solver: fluid.FullResolve}, false},
		{"batch", fluid.Options{}, true},
		{"local", fluid.Options{Approx: fluid.Approximations{LocalSolve: true}}, false},
		{"local batch", fluid.Options{Approx: fluid.Approximations{LocalSolve: true}}, true},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 600 {
		p := fluidtest.Random(rng, fluidtest.RandomConfig{MaxLinks: 8, MaxFlows: 12, MaxRoute: 4})
		want := fluidtest.Reference(p)
		for _, mode := range modes {
			got := solveWithSystem(p, mode.opts, mode.batch)
			if err := fluidtest.Check(p, got, diffTol); err != nil {
				t.Fatalf("problem %d (%s): %v\n%+v", i, mode.name, err, p)
			}
			for f := range got {
				if !close(got[f], want[f]) {
					t.Fatalf("problem %d (%s): flow %d rate %v, reference %v\n%+v", i, mode.name, f, got[f], want[f], p)
				}
			}
		}
	}
}

// TestDifferentialKit runs the fluidtest kit's own differential driver on
// the System, with larger problems than TestSystemMatchesReference.
func TestDifferentialKit(t *testing.T) {
	for _, solver := range []fluid.Solver{fluid.Incremental, fluid.FullResolve} {
		solve := func(p fluidtest.Problem) []float64 {
			return solveWithSystem(p, fluid.Options{Solver: solver}, false)
		}
		fluidtest.Differential(t, solve, 42, 200, fluidtest.RandomConfig{MaxLinks: 20, MaxFlows: 40, MaxRoute: 6}, diffTol)
	}
}
