package fluidtest

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// Check verifies that rates (one per flow of p, bytes/s) are the weighted
// max-min fair allocation of p, up to the relative tolerance tol:
//
//   - feasibility: no rate negative or NaN; on every Shared link
//     Σ coefficient·rate ≤ capacity; on every FatPipe link each
//     coefficient·rate ≤ capacity; every rate ≤ its bound;
//   - the bottleneck certificate: every flow is at its bound, or at a
//     FatPipe cap, or crosses a saturated Shared link on which its
//     rate·weight is the largest; a flow nothing constrains is +Inf.
//
// The certificate characterises the max-min allocation: no flow can be
// raised without lowering one whose rate·weight is not larger.
func Check(p Problem, rates []float64, tol float64) error {
	if len(rates) != len(p.Flows) {
		return fmt.Errorf("%d rates for %d flows", len(rates), len(p.Flows))
	}
	a := coefs(p)
	load := make([]float64, len(p.Links))     // Σ a·x on Shared links
	levelMax := make([]float64, len(p.Links)) // max x·w over the link's flows
	for f, x := range rates {
		if math.IsNaN(x) || x < 0 {
			return fmt.Errorf("flow %d: rate %v", f, x)
		}
		if x > bound(p.Flows[f])*(1+tol) {
			return fmt.Errorf("flow %d: rate %v above its bound %v", f, x, p.Flows[f].Bound)
		}
		for l, link := range p.Links {
			if a[f][l] == 0 {
				continue
			}
			if link.Sharing == fluid.FatPipe {
				if a[f][l]*x > link.Bandwidth*(1+tol) {
					return fmt.Errorf("flow %d: %v·%v over fat pipe %d of %v", f, a[f][l], x, l, link.Bandwidth)
				}
				continue
			}
			load[l] += a[f][l] * x
			levelMax[l] = math.Max(levelMax[l], x*weight(p.Flows[f]))
		}
	}
	for l, link := range p.Links {
		if link.Sharing == fluid.Shared && load[l] > link.Bandwidth*(1+tol) {
			return fmt.Errorf("link %d: load %v over capacity %v", l, load[l], link.Bandwidth)
		}
	}
	for f, x := range rates {
		if !bottlenecked(p, a, load, levelMax, f, x, tol) {
			return fmt.Errorf("flow %d: rate %v has no bottleneck (could grow)", f, x)
		}
	}
	return nil
}

// bottlenecked reports whether flow f at rate x is held by its bound, a
// fat-pipe cap, or a saturated Shared link on which it has the top level.
func bottlenecked(p Problem, a [][]float64, load, levelMax []float64, f int, x, tol float64) bool {
	if math.IsInf(x, 1) {
		return true // feasibility already checked there is no finite cap
	}
	if x >= bound(p.Flows[f])*(1-tol) {
		return true
	}
	for l, link := range p.Links {
		if a[f][l] == 0 {
			continue
		}
		if link.Sharing == fluid.FatPipe {
			if a[f][l]*x >= link.Bandwidth*(1-tol) {
				return true
			}
			continue
		}
		saturated := load[l] >= link.Bandwidth*(1-tol)
		if saturated && x*weight(p.Flows[f]) >= levelMax[l]*(1-tol) {
			return true
		}
	}
	return false
}
