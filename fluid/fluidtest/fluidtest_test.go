package fluidtest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkTol is the relative slack (dimensionless) Check allows in these
// tests: rates come from a few float64 operations each.
const checkTol = 1e-9

func TestReferenceSolvesCases(t *testing.T) {
	for _, c := range Cases {
		got := Reference(c.Problem)
		for i := range got {
			w := c.Want[i]
			if !(got[i] == w || math.Abs(got[i]-w) <= checkTol*math.Max(1, w)) {
				t.Errorf("%s: flow %d: reference %v, want %v", c.Name, i, got[i], w)
			}
		}
		if err := Check(c.Problem, c.Want, checkTol); err != nil {
			t.Errorf("%s: hand-solved rates fail Check: %v", c.Name, err)
		}
	}
}

// TestCheckRejects makes sure Check can fail: moving any finite positive
// rate of a hand-solved case by 1% up or down must break feasibility or
// the bottleneck certificate.
func TestCheckRejects(t *testing.T) {
	for _, c := range Cases {
		for i, w := range c.Want {
			if w == 0 || math.IsInf(w, 1) {
				continue
			}
			for _, factor := range []float64{0.99, 1.01} {
				rates := append([]float64(nil), c.Want...)
				rates[i] = w * factor
				if Check(c.Problem, rates, checkTol) == nil {
					t.Errorf("%s: flow %d at %v×: Check accepted it", c.Name, i, factor)
				}
			}
		}
	}
}

// TestReferenceMeetsInvariants: the reference solver's answers on random
// problems pass Check (the two are written independently).
func TestReferenceMeetsInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		p := Random(rng, RandomConfig{MaxLinks: 6, MaxFlows: 10, MaxRoute: 4})
		if err := Check(p, Reference(p), checkTol); err != nil {
			t.Fatalf("problem %d: %v\n%+v", i, err, p)
		}
	}
}

// TestDifferentialCatchesWrongSolver: the kit must reject a solver that is
// wrong, here one that ignores bounds.
func TestDifferentialCatchesWrongSolver(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	caught := false
	for range 200 {
		p := Random(rng, RandomConfig{MaxLinks: 5, MaxFlows: 8, MaxRoute: 3})
		unbounded := p
		unbounded.Flows = append(unbounded.Flows[:0:0], p.Flows...)
		for i := range unbounded.Flows {
			unbounded.Flows[i].Bound = 0
		}
		if Compare(p, Reference(unbounded), checkTol) != nil {
			caught = true
			break
		}
	}
	if !caught {
		t.Error("200 problems did not expose a solver ignoring bounds")
	}
}
