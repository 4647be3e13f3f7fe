package sensitivity

import (
	"fmt"
	"math"
)

// search runs the exact searches over T(ℓ) = max over paths p of
// (a_p·ℓ + b_p), a convex piecewise-linear function of the swept latency.
type search struct {
	ev    *evaluator
	evals int
}

func (s *search) eval(x float64) point {
	s.evals++
	return s.ev.run(x)
}

// onLine reports whether t does not exceed the value v of a supporting line
// beyond the tie tolerance.
func onLine(t, v float64) bool {
	return t-v <= tieRel*math.Max(math.Abs(t), math.Abs(v))
}

// hull returns the linear pieces of T on [lo, hi]: the first starts at lo,
// each next one at a critical latency (with its left and right slopes).
//
// Eisner–Severance: with the right-derivative line at a and the
// left-derivative line at b, intersect them at x. If T(x) lies on the lines,
// convexity forces T to follow them, so x is the only breakpoint in (a, b)
// (or none, if the slopes agree). Otherwise T(x) is above both lines and the
// two halves are searched with the lines at x. Every pass either finds a
// breakpoint or a new line, so there are at most 2·(breakpoints+1) passes.
func (s *search) hull(lo, hi float64) ([]Breakpoint, error) {
	a := s.eval(lo)
	pieces := []Breakpoint{{L: lo, T: a.T, LambdaLeft: a.Left, LambdaRight: a.Right}}
	if hi == lo {
		return pieces, nil
	}
	b := s.eval(hi)
	type span struct{ a, b point } // a's right line, b's left line
	stack := []span{{a, b}}
	for len(stack) > 0 {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, b := sp.a, sp.b
		if a.Right >= b.Left {
			continue // one line spans [a, b] (> is rounding; convexity forbids it)
		}
		if s.evals > maxEvaluations {
			return nil, fmt.Errorf("sensitivity: critical-latency search gave up after %d passes near L = %v s", s.evals, a.L)
		}
		// a.T + a.Right·(x−a.L) = b.T + b.Left·(x−b.L), solved from a's side.
		x := a.L + (b.T-a.T-float64(b.Left)*(b.L-a.L))/float64(a.Right-b.Left)
		x = math.Min(math.Max(x, a.L), b.L)
		m := s.eval(x)
		if onLine(m.T, a.T+float64(a.Right)*(x-a.L)) || x == a.L || x == b.L {
			pieces = append(pieces, Breakpoint{L: x, T: m.T, LambdaLeft: a.Right, LambdaRight: b.Left})
			continue
		}
		// Push the right half first so that the left half is done first.
		stack = append(stack, span{m, b}, span{a, m})
	}
	// The stack order yields breakpoints left to right except around
	// rounding; keep them sorted.
	sortBreakpoints(pieces[1:])
	return pieces, nil
}

func sortBreakpoints(bs []Breakpoint) {
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && bs[j].L < bs[j-1].L; j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}

// tolerance returns the largest L ≥ base.L with T(L) ≤ (1+pct/100)·T(base.L),
// or nil when T never grows that much. Newton's method on the convex T from
// the right moves from piece to piece and stops exactly on the answer.
func (s *search) tolerance(base point, pct float64) (*float64, error) {
	c := (1 + pct/100) * base.T
	var x float64
	if base.Right > 0 {
		x = base.L + (c-base.T)/float64(base.Right) // T lies above its tangent: an upper bound
	} else {
		// Flat at base.L: T lies above its asymptote a·ℓ + b, so where that
		// line reaches c is an upper bound to start from; a = 0 means no
		// path carries latency and T never degrades.
		a, b := s.ev.asymptote()
		s.evals++
		if a == 0 {
			return nil, nil
		}
		x = math.Max(base.L, (c-b)/float64(a))
	}
	for {
		p := s.eval(x)
		if onLine(p.T, c) {
			return &x, nil
		}
		if p.Left <= 0 || s.evals > maxEvaluations {
			return nil, fmt.Errorf("sensitivity: tolerance search for %v%% stalled at L = %v s (T = %v s, slope %d)", pct, x, p.T, p.Left)
		}
		nx := x - (p.T-c)/float64(p.Left)
		if nx >= x {
			return &x, nil // rounding: x is already the answer to the last bit
		}
		x = nx
	}
}
