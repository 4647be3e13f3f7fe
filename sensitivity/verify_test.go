package sensitivity

import (
	"math"
	"testing"
)

// lineGraph is a two-vertex graph with T(ℓ) = terms·ℓ + c, recorded at ℓ = l.
func lineGraph(t *testing.T, terms int32, c, l float64) *Graph {
	t.Helper()
	b := NewBuilder(2)
	u := b.Vertex(0, Calc, c)
	v := b.Vertex(1, Recv, 0)
	b.Edge(u, v, 0, LatTerm{Class: 0, Count: terms})
	b.SetBaseline([]float64{l})
	return mustBuild(t, b)
}

// verifyTol is the agreement of the verified curve with closed forms: sums of a
// few doubles, s.
const verifyTol = 1e-12

// TestVerifyFollowsAnAdaptiveApplication: an application that picks the faster of
// two orders, A with T = 10ℓ + 1 and B with T = 4ℓ + 1.3 (B wins above ℓ = 0.05),
// recorded at ℓ = 0 in order A. Graph A alone predicts 3.0 at ℓ = 0.2 where the
// application takes 2.1. Verify with 4 re-emulations over [0, 0.2] at 0.05, 0.1,
// 0.15 and 0.2: at 0.05 the orders tie (A predicts 1.5, exact), at 0.1 A predicts
// 2.0 against 1.7, so B's graph is recorded, and B predicts 0.15 and 0.2 exactly.
// The verified curve is then min(A, B) at every point of the range: A's graph
// on [0, 0.05], the chord 1.5→1.7 on [0.05, 0.1] (B's line there), B beyond.
func TestVerifyFollowsAnAdaptiveApplication(t *testing.T) {
	a := func(l float64) float64 { return 10*l + 1 }
	bl := func(l float64) float64 { return 4*l + 1.3 }
	emulate := func(l float64) (float64, *Graph, error) {
		if a(l) <= bl(l) {
			return a(l), lineGraph(t, 10, 1, l), nil
		}
		return bl(l), lineGraph(t, 4, 1.3, l), nil
	}
	g0 := lineGraph(t, 10, 1, 0)
	v, err := Verify(g0, VerifyParams{L0: 0, T0: 1, Lmin: 0, Lmax: 0.2, Points: 9, K: 4}, emulate)
	if err != nil {
		t.Fatal(err)
	}
	if v.Emulations != 5 || v.Graphs != 2 {
		t.Errorf("%d emulations, %d graphs; want 5 and 2", v.Emulations, v.Graphs)
	}
	want := []VerifiedPoint{{0.05, 1.5, 1.5, false}, {0.1, 2.0, 1.7, true}, {0.15, 1.9, 1.9, false}, {0.2, 2.1, 2.1, false}}
	for i, w := range want {
		if i >= len(v.Points) {
			t.Fatalf("%d points, want %d", len(v.Points), len(want))
		}
		p := v.Points[i]
		if math.Abs(p.L-w.L) > verifyTol || math.Abs(p.Predicted-w.Predicted) > verifyTol ||
			math.Abs(p.Emulated-w.Emulated) > verifyTol || p.Recorded != w.Recorded {
			t.Errorf("point %d: %+v, want %+v", i, p, w)
		}
	}
	for _, c := range v.Curve {
		if w := math.Min(a(c.L), bl(c.L)); math.Abs(c.T-w) > verifyTol {
			t.Errorf("verified T(%g) = %.15g, want min(A, B) = %.15g", c.L, c.T, w)
		}
	}
	if got := g0.Runtime([]float64{0.2}); math.Abs(got-3) > verifyTol {
		t.Errorf("graph A at 0.2 gives %g, want 3 (the departure the test is about)", got)
	}
}

// TestVerifyKeepsOneGraphWhereTheOrderHolds: an application that never adapts
// (always T = 10ℓ + 1) needs no second graph, and the verified curve is the
// graph's own T(ℓ), breakpoints and all, with a residual interpolated between
// anchors: here the emulator adds 1e-3·ℓ that the graph lacks (below the 1%
// departure), so the curve is 10.001ℓ + 1 at every point, not just the anchors.
func TestVerifyKeepsOneGraphWhereTheOrderHolds(t *testing.T) {
	emulate := func(l float64) (float64, *Graph, error) {
		return 10.001*l + 1, lineGraph(t, 10, 1, l), nil
	}
	v, err := Verify(lineGraph(t, 10, 1, 0.1), VerifyParams{L0: 0.1, T0: 2.0001, Lmin: 0.1, Lmax: 0.5, Points: 7, K: 2}, emulate)
	if err != nil {
		t.Fatal(err)
	}
	if v.Graphs != 1 || v.Emulations != 3 {
		t.Errorf("%d graphs, %d emulations; want 1 and 3", v.Graphs, v.Emulations)
	}
	for _, c := range v.Curve {
		if w := 10.001*c.L + 1; math.Abs(c.T-w) > verifyTol {
			t.Errorf("verified T(%g) = %.15g, want %.15g", c.L, c.T, w)
		}
	}
}

func TestVerifyRefusesBadParameters(t *testing.T) {
	g := lineGraph(t, 1, 1, 0)
	never := func(float64) (float64, *Graph, error) { t.Fatal("emulated"); return 0, nil, nil }
	for _, p := range []VerifyParams{
		{K: 0, Lmax: 1},
		{K: MaxVerify + 1, Lmax: 1},
		{K: math.MaxInt, Lmax: 1}, // panicked in makeslice
		{K: 1, Lmin: 2, Lmax: 1},
		{K: 1, Lmax: math.Inf(1)},
		{K: 1, Lmax: 1, Points: 1},
	} {
		if _, err := Verify(g, p, never); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}
