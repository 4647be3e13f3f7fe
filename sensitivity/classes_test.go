package sensitivity

import (
	"math"
	"testing"
)

// TestAnalyzeClassesByHand: one message edge of rest 10 µs with 2 terms of
// class 0 and 1 of class 1, racing a 12 µs computation. Both classes at 1 µs:
// T = 10 + 2·1 + 1 = 13 µs, λ_0 = 2, λ_1 = 1. Class 0 alone (class 1 held at
// 1 µs): T = max(11 + 2ℓ_0, 12) µs, a critical latency at ℓ_0 = 0.5 µs, and
// the 10% tolerance (T ≤ 14.3 µs) at ℓ_0 = 1.65 µs. Class 1 alone: T =
// 12 + ℓ_1 µs over [0, 2] µs, no critical latency, tolerance at 2.3 µs. The
// range 0..2 µs given around L0 = 1 µs is shifted to each class's own 1 µs.
func TestAnalyzeClassesByHand(t *testing.T) {
	const us = 1e-6
	g := classesByHandGraph(t)
	cs, err := AnalyzeClasses(g, Params{Latencies: []float64{us, us}, L0: us, Lmin: 0, Lmax: 2 * us, Points: 5, Tolerances: []float64{10}},
		[]string{"terminal", "intra"}, []bool{true, true})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-15 }
	want := []struct {
		name     string
		lambda   int64
		critical []float64
		tol      float64
	}{
		{"terminal", 2, []float64{0.5 * us}, 1.65 * us},
		{"intra", 1, nil, 2.3 * us},
	}
	if len(cs) != 2 {
		t.Fatalf("%d classes, want 2: %+v", len(cs), cs)
	}
	for i, w := range want {
		got := cs[i]
		if got.Name != w.name || got.LambdaRight != w.lambda || got.LambdaLeft != w.lambda || got.L != us {
			t.Errorf("class %d: %+v, want %s with λ %d at 1 µs", i, got, w.name, w.lambda)
		}
		if len(got.CriticalLatencies) != len(w.critical) || len(w.critical) > 0 && !near(got.CriticalLatencies[0], w.critical[0]) {
			t.Errorf("class %s: critical latencies %v, want %v", w.name, got.CriticalLatencies, w.critical)
		}
		if tl := got.Tolerance["10"]; tl == nil || !near(*tl, w.tol) {
			t.Errorf("class %s: 10%% tolerance %v, want %g s", w.name, tl, w.tol)
		}
		// The curve over the class's range, 0..2 µs in 5 points, by hand.
		if len(got.Curve) != 5 {
			t.Fatalf("class %s: %d curve points, want 5", w.name, len(got.Curve))
		}
		for _, q := range got.Curve {
			tt := 12*us + q.L // intra
			if i == 0 {
				tt = max(11*us+2*q.L, 12*us)
			}
			if !near(q.T, tt) {
				t.Errorf("class %s at %g s: T %g, want %g", w.name, q.L, q.T, tt)
			}
		}
	}
	// Without sweep, λ and names only.
	cs, err = AnalyzeClasses(g, Params{Latencies: []float64{us, us}, L0: us, Tolerances: []float64{10}}, nil, []bool{false, true})
	if err != nil {
		t.Fatal(err)
	}
	if cs[0].Tolerance != nil || cs[0].Name != "" || cs[1].Tolerance == nil {
		t.Errorf("sweep [false true]: %+v", cs)
	}
}

// classesByHandGraph is TestAnalyzeClassesByHand's graph: rank 0's message
// edge of rest 10 µs with 2 terms of class 0 and 1 of class 1, racing its
// 12 µs computation.
func classesByHandGraph(t *testing.T) *Graph {
	const us = 1e-6
	b := NewBuilder(2)
	a := b.Vertex(0, Calc, 0)
	r := b.Vertex(1, Recv, 0)
	c := b.Vertex(0, Calc, 12*us)
	b.Edge(a, r, 10*us, LatTerm{0, 2}, LatTerm{1, 1})
	b.Edge(a, c, 0)
	g := mustBuild(t, b)
	return g
}

// TestAnalyzeClassesRangeAtZero: on TestAnalyzeClassesByHand's graph, a range
// 0..0 given around L0 = 1 µs is each class at 0 (the shift takes it to
// 1 − 1 = 0): class 0 alone T = max(11 + 0, 12) = 12 µs, class 1 alone
// 12 + 0 = 12 µs; without RangeSet each class stays at its own 1 µs: 13 µs.
func TestAnalyzeClassesRangeAtZero(t *testing.T) {
	const us = 1e-6
	g := classesByHandGraph(t)
	for _, k := range []struct {
		set   bool
		wantL float64
		wantT float64
	}{{true, 0, 12 * us}, {false, us, 13 * us}} {
		cs, err := AnalyzeClasses(g, Params{Latencies: []float64{us, us}, L0: us, RangeSet: k.set, Points: 5}, nil, []bool{true, true})
		if err != nil {
			t.Fatal(err)
		}
		for i, cl := range cs {
			if len(cl.Curve) != 1 || cl.Curve[0].L != k.wantL || math.Abs(cl.Curve[0].T-k.wantT) > 1e-15 {
				t.Errorf("RangeSet %v, class %d: curve %+v, want T(%g s) = %g s alone", k.set, i, cl.Curve, k.wantL, k.wantT)
			}
		}
	}
}
