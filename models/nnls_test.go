package models

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteNNLS solves the non-negative least-squares problem by trying every
// set of free coefficients with plain least squares and keeping the best
// feasible one: the optimum of a convex problem over β ≥ 0 is the
// unconstrained optimum on some face, so this is exact for small p.
func bruteNNLS(x []float64, n, p int, y []float64) ([]float64, float64) {
	bestSSE, best := math.Inf(1), make([]float64, p)
	for mask := 0; mask < 1<<p; mask++ {
		var cols []int
		for j := range p {
			if mask&(1<<j) != 0 {
				cols = append(cols, j)
			}
		}
		beta := make([]float64, p)
		if len(cols) > 0 {
			sub := make([]float64, n*len(cols))
			for i := range n {
				for c, j := range cols {
					sub[i*len(cols)+c] = x[i*p+j]
				}
			}
			s, err := lsq(sub, n, len(cols), y, nil)
			if err != nil {
				continue
			}
			feasible := true
			for c, j := range cols {
				if s[c] < 0 {
					feasible = false
				}
				beta[j] = s[c]
			}
			if !feasible {
				continue
			}
		}
		if e := sse(x, n, p, y, beta); e < bestSSE {
			bestSSE, best = e, beta
		}
	}
	return best, bestSSE
}

func sse(x []float64, n, p int, y, beta []float64) float64 {
	s := 0.0
	for i := range n {
		r := y[i]
		for j := range p {
			r -= x[i*p+j] * beta[j]
		}
		s += r * r
	}
	return s
}

func TestNNLSHandSolved(t *testing.T) {
	// y = 2·x1 − 1·x2 on x1 = (1,0,1), x2 = (0,1,1): unconstrained β = (2, −1).
	// With β2 ≥ 0 the optimum drops x2: β1 = argmin Σ (y − β1·x1)² =
	// (x1·y)/(x1·x1) = (2 + 1)/2 = 1.5, β2 = 0.
	x := []float64{1, 0, 0, 1, 1, 1}
	y := []float64{2, -1, 1}
	got, err := nnls(x, 3, 2, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0]-1.5) > 1e-12 || got[1] != 0 {
		t.Errorf("β = %v, want [1.5 0]", got)
	}
}

func TestNNLSMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n, p := 6+rng.IntN(20), 1+rng.IntN(5)
		x := make([]float64, n*p)
		y := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64() * math.Pow(10, float64(rng.IntN(4))) // columns of unlike scale
		}
		for i := range y {
			y[i] = rng.NormFloat64() * 10
		}
		got, err := nnls(x, n, p, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, b := range got {
			if b < 0 {
				t.Fatalf("trial %d: β%d = %g < 0", trial, j, b)
			}
		}
		_, want := bruteNNLS(x, n, p, y)
		if g := sse(x, n, p, y, got); g > want*(1+1e-9)+1e-12 {
			t.Errorf("trial %d (n=%d p=%d): SSE %.12g, enumeration finds %.12g", trial, n, p, g, want)
		}
	}
}
