package sensitivity

import (
	"fmt"
	"math"
)

// The graph's T as one link class's bandwidth time scales (RestScaled): a
// convex piecewise-linear function of the scale s = b0/b (each path's cost is
// linear in s with slope the rest it carries over the class), found exactly by
// the same line-intersection search as the critical latencies (search.hull),
// with slopes in seconds per unit of s instead of latency terms.

// BandwidthPiece is a linear piece of the graph's T(s): from Scale on (up to
// the next piece) T = T + Slope·(s − Scale). Slope/b0 is dT/dG, bytes.
type BandwidthPiece struct {
	Scale float64 `json:"scale"`     // b0/b
	T     float64 `json:"runtime_s"` // at Scale
	Slope float64 `json:"slope_s"`   // dT/ds on the piece, s
}

// bandwidthView is g with the class's edges' rest scaled by s and their
// unscaled rest put where the evaluator sums bytes, so that a run's Bytes is
// dT/ds along the critical path that carries the most (the right derivative;
// the evaluator prefers the larger byte sum among tied paths).
func (g *Graph) bandwidthView(class int, s float64) *Graph {
	h := *g
	h.pay.rest, h.pay.bytes = make([]float64, len(g.pay.rest)), make([]float64, len(g.pay.rest))
	for k, r := range g.pay.rest {
		if class >= 0 && class <= MaxClass && g.latCountWord(g.pay.lat[k], uint8(class)) > 0 {
			h.pay.rest[k], h.pay.bytes[k] = r*s, r
		} else {
			h.pay.rest[k] = r
		}
	}
	return &h
}

// bandwidthPoint is T at scale s and its right derivative in s.
func (g *Graph) bandwidthPoint(lat []float64, class int, s float64) (t, slope float64) {
	// Sweep a class no edge carries (MaxClass) so ties are broken by the sum
	// alone, at its latency 0.
	ev := newEvaluator(g.bandwidthView(class, s), lat, MaxClass)
	p := ev.run(0)
	return p.T, p.Bytes
}

// BandwidthPieces returns the pieces of the graph's T(s) for link class
// class on [1, smax] at latencies lat: the first at s = 1, each next one at
// a critical scale (a critical bandwidth b0/s).
func BandwidthPieces(g *Graph, lat []float64, class int, smax float64) ([]BandwidthPiece, error) {
	if !(smax >= 1) || math.IsInf(smax, 1) {
		return nil, fmt.Errorf("sensitivity: bandwidth scale range 1..%v, want a finite end ≥ 1", smax)
	}
	type pt struct{ s, t, left, right float64 }
	evals := 0
	at := func(s float64) pt {
		evals++
		t, r := g.bandwidthPoint(lat, class, s)
		// The left derivative: the right one just below s (a convex T's
		// derivative is continuous from the left).
		l := r
		if s > 1 {
			_, l = g.bandwidthPoint(lat, class, s*(1-bandwidthLeftStep))
		}
		return pt{s, t, l, r}
	}
	a := at(1)
	out := []BandwidthPiece{{Scale: 1, T: a.t, Slope: a.right}}
	if smax == 1 {
		return out, nil
	}
	b := at(smax)
	type span struct{ a, b pt }
	stack := []span{{a, b}}
	for len(stack) > 0 {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, b := sp.a, sp.b
		if a.right >= b.left*(1-tieRel) {
			continue // one line spans [a, b]
		}
		if evals > maxEvaluations {
			return nil, fmt.Errorf("sensitivity: critical-bandwidth search gave up after %d passes near scale %v", evals, a.s)
		}
		x := a.s + (b.t-a.t-b.left*(b.s-a.s))/(a.right-b.left)
		x = math.Min(math.Max(x, a.s), b.s)
		m := at(x)
		if onLine(m.t, a.t+a.right*(x-a.s)) || x == a.s || x == b.s {
			out = append(out, BandwidthPiece{Scale: x, T: m.t, Slope: b.left})
			continue
		}
		stack = append(stack, span{m, b}, span{a, m})
	}
	for i := 2; i < len(out); i++ { // the stack yields them nearly in order
		for j := i; j > 1 && out[j].Scale < out[j-1].Scale; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// bandwidthLeftStep is how far below a scale its left derivative is read,
// relative: far above rounding (paths tie within tieRel), far below the gap
// between two critical bandwidths of a real run.
const bandwidthLeftStep = 1e-9

// ScaleAtTolerance reads the largest s with T(s) ≤ (1+pct/100)·T(1) off the
// pieces of T on [1, smax]; nil when T stays within that up to smax.
func ScaleAtTolerance(pieces []BandwidthPiece, pct, smax float64) *float64 {
	if len(pieces) == 0 {
		return nil
	}
	c := (1 + pct/100) * pieces[0].T
	for k, p := range pieces {
		end := smax
		if k+1 < len(pieces) {
			end = pieces[k+1].Scale
		}
		if p.T+p.Slope*(end-p.Scale) <= c {
			continue
		}
		x := math.Max(p.Scale+(c-p.T)/p.Slope, p.Scale)
		return &x
	}
	return nil
}
