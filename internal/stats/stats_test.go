package stats

import (
	"math"
	"math/rand/v2"
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

// TestNextByHand: the prediction interval of one more run against Student's
// t in closed form: ν = 1 is Cauchy's, t = tan(π(p − ½)); ν = 2 has
// t = (2p − 1)/√(2p(1 − p)).
func TestNextByHand(t *testing.T) {
	t1 := math.Tan(math.Pi * 0.45)
	t2 := 0.9 / math.Sqrt(2*0.95*0.05)
	for _, c := range []struct {
		name     string
		xs       []float64
		sd, half float64
	}{
		// 1, 3: mean 2, sd √2, half t₁·√2·√(3/2).
		{"two", []float64{3, 1}, math.Sqrt2, t1 * math.Sqrt2 * math.Sqrt(1.5)},
		// 4, 1, 2: mean 7/3, squares 25/9 + 16/9 + 1/9 = 42/9 over 2: sd √(7/3).
		{"three", []float64{4, 1, 2}, math.Sqrt(7.0 / 3), t2 * math.Sqrt(7.0/3) * math.Sqrt(4.0/3)},
		{"flat", []float64{0.7, 0.7, 0.7}, 0, 0},
	} {
		s := Summarize(c.xs)
		if !near(s.SD, c.sd) {
			t.Errorf("%s: sd = %.17g, want %.17g", c.name, s.SD, c.sd)
		}
		if s.Next == nil {
			t.Fatalf("%s: no prediction interval", c.name)
		}
		if !near(s.Next.Lo, s.Mean-c.half) || !near(s.Next.Hi, s.Mean+c.half) {
			t.Errorf("%s: next = [%.17g, %.17g], want mean ∓ %.17g around %.17g", c.name, s.Next.Lo, s.Next.Hi, c.half, s.Mean)
		}
	}
	if s := Summarize([]float64{2.5}); s.Next != nil || s.SD != 0 {
		t.Errorf("one run: sd %g, next %v; want 0 and none", s.SD, s.Next)
	}
}

// TestNextCovers: for normal runs, one more run falls in Next 90% of the
// time whatever K, while [min, max] of K runs holds it (K−1)/(K+1) of the
// time: a half for three runs. 20,000 trials a K, seeded; the binomial
// standard error of a 90% rate is 0.2%.
func TestNextCovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 20000
	for _, k := range []int{2, 3, 5, 10} {
		inNext, inRange := 0, 0
		xs := make([]float64, k)
		for range trials {
			for i := range xs {
				xs[i] = 5 + 0.3*rng.NormFloat64()
			}
			s := Summarize(xs)
			y := 5 + 0.3*rng.NormFloat64()
			if s.Next.Contains(y) {
				inNext++
			}
			if s.Min <= y && y <= s.Max {
				inRange++
			}
		}
		next, rangeRate := float64(inNext)/trials, float64(inRange)/trials
		if math.Abs(next-0.9) > 0.01 {
			t.Errorf("K = %d: one more run inside Next %.3f of the time, want 0.90", k, next)
		}
		if want := float64(k-1) / float64(k+1); math.Abs(rangeRate-want) > 0.015 {
			t.Errorf("K = %d: inside [min, max] %.3f of the time, want %.3f", k, rangeRate, want)
		}
	}
}

// TestNonNegativeNext: a time or a rate never falls below 0, so the next run's
// interval of such a figure starts at 0 at the lowest. Two extrapolated Dahu
// runs of 4027.8 and 4952.8 s gave -567.5 … 9548.1 s. By hand: mean 4490.3,
// sd 925/√2 = 654.07, half 6.313752·654.07·√1.5 = 5057.8.
func TestNonNegativeNext(t *testing.T) {
	half := 6.313752 * 925 / math.Sqrt2 * math.Sqrt(1.5) // t₀.₉₅(1)·sd·√(1+1/2)
	for _, c := range []struct {
		name     string
		xs       []float64
		lo, hi   float64
		loNormal float64 // the uncut lower end where cut, else 0
	}{
		{"cut at 0", []float64{4027.8, 4952.8}, 0, 4490.3 + half, 4490.3 - half},
		{"whole", []float64{10, 11, 12}, 11 - 2.919986*math.Sqrt(4.0/3), 11 + 2.919986*math.Sqrt(4.0/3), 0},
	} {
		s := SummarizeNonNegative(c.xs)
		if s.Next == nil || math.Abs(s.Next.Lo-c.lo) > 1e-5*math.Max(1, c.hi) || math.Abs(s.Next.Hi-c.hi) > 1e-5*c.hi {
			t.Errorf("%s: next %+v, want %g … %g", c.name, s.Next, c.lo, c.hi)
		}
		// The cut says where the normal interval went: Summarize's own end.
		if s.Next != nil && (math.Abs(s.Next.LoNormal-c.loNormal) > 1e-5*c.hi || s.Next.Cut() != (c.loNormal < 0)) {
			t.Errorf("%s: lo_normal %g (cut %v), want %g", c.name, s.Next.LoNormal, s.Next.Cut(), c.loNormal)
		}
		if w := Summarize(c.xs); c.loNormal < 0 && s.Next.LoNormal != w.Next.Lo {
			t.Errorf("%s: lo_normal %g, Summarize's lo %g", c.name, s.Next.LoNormal, w.Next.Lo)
		}
		// Everything else is Summarize's.
		want := Summarize(c.xs)
		s.Next, want.Next = nil, nil
		if s != want {
			t.Errorf("%s: %+v, want %+v", c.name, s, want)
		}
	}
	if s := SummarizeNonNegative([]float64{3}); s.Next != nil {
		t.Errorf("one run: next %+v, want none", s.Next)
	}
}
