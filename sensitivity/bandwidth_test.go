package sensitivity

import (
	"math"
	"testing"
)

// TestBandwidthToleranceOfATransfer: an application that computes a seconds and
// moves c bytes over the class, T(b) = a + c/b. Its x% tolerance solves
// a + c/b = (1+x/100)·(a + c/b0): b* = c / ((1+x/100)·(a + c/b0) − a). With
// a = 1 s, c = 1e9 B, b0 = 1e10 B/s (T0 = 1.1 s): 1% → 9.009e9, 5% → 6.452e9,
// 50% → 1.538e9 B/s. The search must return an emulated bandwidth
// b ≥ b* (T within the target) with a bandwidth below it, within 1%, above the
// target, and reuse its runs: T is linear in 1/b, so the interpolation lands
// on b* at once and each tolerance takes a few emulations.
func TestBandwidthToleranceOfATransfer(t *testing.T) {
	const a, c, b0 = 1.0, 1e9, 1e10
	T := func(b float64) float64 { return a + c/b }
	calls := 0
	emulate := func(b float64) (float64, error) { calls++; return T(b), nil }
	pcts := []float64{5, 1, 50}
	got, n, err := SearchBandwidthTolerances(BandwidthSearch{B0: b0, T0: T(b0)}, pcts, emulate)
	if err != nil {
		t.Fatal(err)
	}
	if n != calls {
		t.Errorf("reported %d emulations, made %d", n, calls)
	}
	sum := 0
	for i, x := range pcts {
		r := got[i]
		sum += r.Emulations
		target := (1 + x/100) * T(b0)
		want := c / (target - a)
		if r.Percent != x || r.Bandwidth == nil || r.Exceeded == nil {
			t.Fatalf("%g%%: %+v", x, r)
		}
		b, e := *r.Bandwidth, *r.Exceeded
		t.Logf("%g%%: %.6g B/s (exact %.6g), exceeded at %.6g, %d emulations", x, b, want, e, r.Emulations)
		if !(T(b) <= target && T(e) > target && e < b && b/e <= 1+DefaultBandwidthResolution) {
			t.Errorf("%g%%: bracket [%g, %g] does not hold the target %g s", x, e, b, target)
		}
		if !(b >= want*(1-1e-12) && b <= want*(1+DefaultBandwidthResolution)) {
			t.Errorf("%g%%: %g B/s, want within 1%% above %g", x, b, want)
		}
		if r.Emulations > 6 {
			t.Errorf("%g%%: %d emulations, want ≤ 6 on a function linear in 1/b", x, r.Emulations)
		}
	}
	if sum != n {
		t.Errorf("per-tolerance emulations add up to %d, total %d", sum, n)
	}
}

// TestBandwidthToleranceOfAStep: T jumps from 1 to 2 s below b = 0.3·b0 (an
// application that changes its algorithm), so interpolation is useless and the
// search must still close a 1% bracket around 0.3·b0, by halving and then
// bisecting: 2 halvings, then about log2(ln 2 / ln 1.01) ≈ 7 halvings of
// the bracket at up to two probes each (measured: 11 in all).
func TestBandwidthToleranceOfAStep(t *testing.T) {
	const b0 = 1e10
	T := func(b float64) float64 {
		if b < 0.3*b0 {
			return 2
		}
		return 1
	}
	got, n, err := SearchBandwidthTolerances(BandwidthSearch{B0: b0, T0: 1}, []float64{10}, func(b float64) (float64, error) { return T(b), nil })
	if err != nil {
		t.Fatal(err)
	}
	b, e := *got[0].Bandwidth, *got[0].Exceeded
	t.Logf("%.6g B/s, exceeded at %.6g, %d emulations", b, e, n)
	if !(b >= 0.3*b0 && e < 0.3*b0 && b/e <= 1.01) || n > 14 {
		t.Errorf("[%g, %g] in %d emulations, want a 1%% bracket of %g in ≤ 14", e, b, n, 0.3*b0)
	}
}

// TestBandwidthToleranceNotReached: a run that never moves data over the class
// meets every tolerance down to the floor (b0/1024, ten halvings) and says so.
func TestBandwidthToleranceNotReached(t *testing.T) {
	got, n, err := SearchBandwidthTolerances(BandwidthSearch{B0: 1e10, T0: 1}, []float64{1, 2}, func(float64) (float64, error) { return 1, nil })
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Bandwidth != nil || got[1].Bandwidth != nil || n != 10 || got[0].Emulations != 10 || got[1].Emulations != 0 {
		t.Errorf("%+v, %d emulations; want no answer after 10 halvings, reused", got, n)
	}
	if _, _, err := SearchBandwidthTolerances(BandwidthSearch{B0: 0, T0: 1}, nil, nil); err == nil {
		t.Error("a zero bandwidth was accepted")
	}
	if _, _, err := SearchBandwidthTolerances(BandwidthSearch{B0: 1, T0: 1}, []float64{math.NaN()}, nil); err == nil {
		t.Error("a NaN tolerance was accepted")
	}
}

// threeRanks: rank 0 computes 1 s, then sends 1 s of bandwidth time over class 1
// (one class-1 term) to rank 1, which also waits for a class-2 message of 3 s
// rest from rank 2.
func threeRanks(t *testing.T) *Graph {
	t.Helper()
	b := NewBuilder(3)
	c0 := b.Vertex(0, Calc, 1)
	s0 := b.Vertex(0, Send, 0)
	b.Edge(c0, s0, 0)
	s2 := b.Vertex(2, Send, 0)
	r := b.Vertex(1, Recv, 0)
	b.EdgeBytes(s0, r, 1, 1e9, LatTerm{Class: 1, Count: 1})
	b.EdgeBytes(s2, r, 3, 3e9, LatTerm{Class: 2, Count: 1})
	g := mustBuild(t, b)
	return g
}

// TestRestScaledMovesTheClassMessages, on threeRanks: at ℓ = 0, T = max(1 + 1, 3) = 3 s;
// class 1 three times slower: max(1 + 3, 3) = 4 s; its 50% tolerance
// (T ≤ 4.5 s) is s = 3.5, and class 2's 50% is s = 1.5. A class no edge
// carries never degrades T (nil).
func TestRestScaledMovesTheClassMessages(t *testing.T) {
	g := threeRanks(t)
	lat := []float64{0, 0, 0}
	if got := g.RestScaled(1, 3).Runtime(lat); got != 4 {
		t.Errorf("class 1 ×3: T = %g s, want 4", got)
	}
	for _, c := range []struct {
		class int
		want  float64
	}{{1, 3.5}, {2, 1.5}} {
		s := bisectScale(g, lat, c.class, 50, 1024)
		if s == nil || math.Abs(*s-c.want) > 1e-9 {
			t.Errorf("class %d: 50%% tolerance at s = %v, want %g", c.class, s, c.want)
		}
	}
	if s := bisectScale(g, lat, 3, 50, 1024); s != nil {
		t.Errorf("class 3 (no edge): tolerance %g, want none", *s)
	}
}

// TestBandwidthPiecesByHand, on threeRanks:
// class 1's T(s) = max(1 + s, 3): flat at 3 up to the critical scale s = 2, then
// slope 1 (the 1 s of rest the class carries); class 2's T = max(2, 3s) has
// slope 3 from s = 1 and no breakpoint. The tolerances read off the pieces are
// those bisectScale bisects to: 3.5 and 1.5 for 50%.
func TestBandwidthPiecesByHand(t *testing.T) {
	g := threeRanks(t)
	lat := []float64{0, 0, 0}
	for _, c := range []struct {
		class int
		want  []BandwidthPiece
		tol50 float64
	}{
		{1, []BandwidthPiece{{1, 3, 0}, {2, 3, 1}}, 3.5},
		{2, []BandwidthPiece{{1, 3, 3}}, 1.5},
	} {
		got, err := BandwidthPieces(g, lat, c.class, 8)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("class %d: pieces %+v, want %+v", c.class, got, c.want)
		}
		for i, w := range c.want {
			if math.Abs(got[i].Scale-w.Scale) > 1e-9 || math.Abs(got[i].T-w.T) > 1e-9 || math.Abs(got[i].Slope-w.Slope) > 1e-9 {
				t.Errorf("class %d piece %d: %+v, want %+v", c.class, i, got[i], w)
			}
		}
		s := ScaleAtTolerance(got, 50, 8)
		p := bisectScale(g, lat, c.class, 50, 8)
		if s == nil || p == nil || math.Abs(*s-c.tol50) > 1e-9 || math.Abs(*p-c.tol50) > 1e-9 {
			t.Errorf("class %d: 50%% at %v (pieces) and %v (bisection), want %g", c.class, s, p, c.tol50)
		}
	}
}

// bisectScale is the plain reference for ScaleAtTolerance: the largest s ≤
// maxScale with T(RestScaled(class, s)) ≤ (1+pct/100)·T(g), by 40 halvings of
// [1, maxScale]; nil when T stays within that up to maxScale.
func bisectScale(g *Graph, lat []float64, class int, pct, maxScale float64) *float64 {
	target := (1 + pct/100) * g.Runtime(lat)
	at := func(s float64) float64 { return g.RestScaled(class, s).Runtime(lat) }
	if at(maxScale) <= target {
		return nil
	}
	lo, hi := 1.0, maxScale
	for range 40 {
		mid := math.Sqrt(lo * hi)
		if at(mid) <= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return &lo
}

// TestBandwidthToleranceFromAGuess: with a + c/b as in
// TestBandwidthToleranceOfATransfer and a guess 0.5% below the exact b* (a
// graph that is nearly right), the first probe brackets the answer with B0 and
// interpolation in 1/b closes a 1% bracket: at most 3 emulations per tolerance
// (measured 2), against 3–5 when halving first.
func TestBandwidthToleranceFromAGuess(t *testing.T) {
	const a, c, b0 = 1.0, 1e9, 1e10
	T := func(b float64) float64 { return a + c/b }
	exact := func(pct float64) float64 { return c / ((1+pct/100)*T(b0) - a) }
	s := BandwidthSearch{B0: b0, T0: T(b0), Guess: func(pct float64) float64 { return 0.995 * exact(pct) }}
	got, _, err := SearchBandwidthTolerances(s, []float64{1, 5, 50}, func(b float64) (float64, error) { return T(b), nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		b, e := *r.Bandwidth, *r.Exceeded
		t.Logf("%g%%: [%.6g, %.6g], exact %.6g, %d emulations", r.Percent, e, b, exact(r.Percent), r.Emulations)
		if !(b >= exact(r.Percent)*(1-1e-12) && e < exact(r.Percent) && b/e <= 1.01) || r.Emulations > 3 {
			t.Errorf("%g%%: [%g, %g] in %d emulations, want a 1%% bracket of %g in ≤ 3", r.Percent, e, b, r.Emulations, exact(r.Percent))
		}
	}
}
