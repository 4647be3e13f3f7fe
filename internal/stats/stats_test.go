package stats

import (
	"math"
	"testing"
)

// eps is the rounding a hand-computed quantile may differ by, relative.
const eps = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= eps*math.Max(1, math.Abs(b)) }

// TestSummarizeByHand: each case's figures are worked out in its comment from
// definition 7, h = (K−1)·p.
func TestSummarizeByHand(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
		want Summary
	}{
		// One run: every figure is the run.
		{"one", []float64{2.5}, Summary{Mean: 2.5, Min: 2.5, Max: 2.5, P05: 2.5, P95: 2.5, Median: 2.5}},
		// K = 3, sorted 1, 2, 4: h(0.05) = 0.1 → 1 + 0.1·1 = 1.1; h(0.95) = 1.9 →
		// 2 + 0.9·2 = 3.8; h(0.5) = 1 → 2; mean 7/3.
		{"three", []float64{4, 1, 2}, Summary{Mean: 7.0 / 3, Min: 1, Max: 4, P05: 1.1, P95: 3.8, Median: 2}},
		// K = 4, sorted 10, 20, 30, 40: h(0.05) = 0.15 → 11.5; h(0.95) = 2.85 →
		// 38.5; h(0.5) = 1.5 → 25; mean 25.
		{"four", []float64{30, 10, 40, 20}, Summary{Mean: 25, Min: 10, Max: 40, P05: 11.5, P95: 38.5, Median: 25}},
		// K = 21, 0..20: h(p) = 20p lands on runs: p05 = 1, p95 = 19, median 10.
		{"twenty-one", seq(21), Summary{Mean: 10, Min: 0, Max: 20, P05: 1, P95: 19, Median: 10}},
		// Identical runs: no band.
		{"flat", []float64{0.7, 0.7, 0.7}, Summary{Mean: 0.7, Min: 0.7, Max: 0.7, P05: 0.7, P95: 0.7, Median: 0.7}},
	} {
		got := Summarize(c.xs)
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"mean", got.Mean, c.want.Mean}, {"min", got.Min, c.want.Min}, {"max", got.Max, c.want.Max},
			{"p05", got.P05, c.want.P05}, {"p95", got.P95, c.want.P95}, {"median", got.Median, c.want.Median}} {
			if !near(f.got, f.want) {
				t.Errorf("%s: %s = %.17g, want %.17g", c.name, f.name, f.got, f.want)
			}
		}
	}
}

func seq(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(n - 1 - i) // reversed: Summarize sorts
	}
	return xs
}

func TestSummarizeKeepsItsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	Summarize(xs)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("Summarize reordered its input: %v", xs)
	}
}

func TestBands(t *testing.T) {
	a := Summary{P05: 1, P95: 2, Median: 1.5}
	for _, c := range []struct {
		b    Summary
		want bool
	}{
		{Summary{P05: 2, P95: 3}, true},     // touching ends: not told apart
		{Summary{P05: 2.01, P95: 3}, false}, // apart
		{Summary{P05: 0, P95: 0.99}, false}, // apart, below
		{Summary{P05: 1.2, P95: 1.3}, true}, // inside
		{Summary{P05: 0.5, P95: 2.5}, true}, // around
	} {
		if got := a.Overlaps(c.b); got != c.want || c.b.Overlaps(a) != c.want {
			t.Errorf("[1, 2] overlaps [%g, %g]: %v, want %v (both ways)", c.b.P05, c.b.P95, got, c.want)
		}
	}
	// (2 − 1)/(2·1.5) = 1/3.
	if s := a.Spread(); !near(s, 1.0/3) {
		t.Errorf("spread %g, want 1/3", s)
	}
	if !(Summary{Min: 1, Max: 1}).Identical() || (Summary{Min: 1, Max: 1.0000001}).Identical() {
		t.Error("Identical wrong")
	}
}
