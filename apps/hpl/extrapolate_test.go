package hpl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// extrapolationTolerance bounds the error of a sampled run against the full
// emulation of the same configuration.
const extrapolationTolerance = 0.05 // relative

func TestMaxIterationsExtrapolates(t *testing.T) {
	for _, depth := range []int{0, 1} {
		p := peerParams(2, 2, 6000, OneRingM, depth)
		full := runHPL(t, p, kernels.Model, Options{}, 1e-6)
		for _, k := range []int{8, 16, 24} {
			est := runHPL(t, p, kernels.Model, Options{MaxIterations: k}, 1e-6)
			if !est.Extrapolated || est.Panels != k {
				t.Fatalf("K=%d: extrapolated %v over %d panels", k, est.Extrapolated, est.Panels)
			}
			dev := est.Time/full.Time - 1
			t.Logf("depth %d K=%d: %.6f s vs full %.6f s (%+.2f%%)", depth, k, est.Time, full.Time, 100*dev)
			if math.Abs(dev) > extrapolationTolerance {
				t.Errorf("depth %d K=%d: %+.2f%% off the full run", depth, k, 100*dev)
			}
		}
	}
}

// TestMaxIterationsWithDeepLookahead: with look-ahead, a segment begins with
// DEPTH prologue panels that are factored but not yet applied to the trailing
// matrix. Sampling K ≤ DEPTH panels (or segments of 4 panels at DEPTH 3 and 4)
// once measured only those and extrapolated a run 2 to 30 times too fast; a
// segment now runs at least DEPTH loop iterations past the prologue and measures
// only those iterations, as many as DEPTH.
func TestMaxIterationsWithDeepLookahead(t *testing.T) {
	for _, depth := range []int{1, 2, 3, 4} {
		p := peerParams(2, 2, 6000, OneRingM, depth)
		full := runHPL(t, p, kernels.Model, Options{}, 1e-6)
		// K = 32 at DEPTH 3 and 4 makes 8 segments of 6 and 8 panels, as
		// many as the run's 47 or more: it runs whole
		// (TestMaxIterationsCoveringTheRun)
		for _, k := range []int{1, 2, 3, 8, 16} {
			est := runHPL(t, p, kernels.Model, Options{MaxIterations: k}, 1e-6)
			if !est.Extrapolated || est.Panels < max(k, 2*depth) {
				t.Fatalf("depth %d K=%d: extrapolated %v over %d panels", depth, k, est.Extrapolated, est.Panels)
			}
			dev := est.Time/full.Time - 1
			t.Logf("depth %d K=%d: %d panels, %.6f s vs full %.6f s (%+.2f%%)", depth, k, est.Panels, est.Time, full.Time, 100*dev)
			if math.Abs(dev) > 2*extrapolationTolerance {
				t.Errorf("depth %d K=%d: %+.2f%% off the full run", depth, k, 100*dev)
			}
		}
	}
}

// TestMaxIterationsCoveringTheRun: K panels whose segments hold all the
// run's panels or more run it whole, to the bit of the run without K. At N =
// 650, NB = 64 (11 panels), DEPTH 3, K = 9 made two segments of 6 panels: 12
// panels emulated, overlapping, and a Time extrapolated 7% short.
func TestMaxIterationsCoveringTheRun(t *testing.T) {
	for _, tc := range []struct {
		depth, k     int
		extrapolated bool
	}{
		{3, 5, true},   // one segment of 6 panels
		{3, 9, false},  // two of 6: 12
		{3, 10, false}, // two of 6
		{0, 10, true},  // two of 5: 10 of 11
		{0, 11, false},
		{1, 12, false},
		{2, 8, false}, // two of 4, 8 of 8
	} {
		p := peerParams(2, 2, 650, OneRingM, tc.depth)
		p.NB = 64
		if tc.depth == 2 {
			p.N = 512 // 8 panels
		}
		full := runHPL(t, p, kernels.Model, Options{}, 1e-6)
		est := runHPL(t, p, kernels.Model, Options{MaxIterations: tc.k}, 1e-6)
		if est.Extrapolated != tc.extrapolated {
			t.Errorf("depth %d K=%d: extrapolated %v over %d panels, want %v", tc.depth, tc.k, est.Extrapolated, est.Panels, tc.extrapolated)
			continue
		}
		if !tc.extrapolated && (est.Time != full.Time || est.Panels != full.Panels) {
			t.Errorf("depth %d K=%d: Time %v over %d panels, the whole run's %v over %d", tc.depth, tc.k, est.Time, est.Panels, full.Time, full.Panels)
		}
		if tc.extrapolated && est.Panels >= full.Panels {
			t.Errorf("depth %d K=%d: %d panels sampled of %d", tc.depth, tc.k, est.Panels, full.Panels)
		}
	}
}

func TestInterpolateIsLinearInSquaredOrder(t *testing.T) {
	// d = 2·m² + 1 is reproduced exactly, between the points and beyond them,
	// up to rounding: interpTol is absolute, in d's units, on values ≤ 3·10⁴.
	const interpTol = 1e-9
	pts := []segmentPoint{{m: 100, d: 2*100*100 + 1}, {m: 50, d: 2*50*50 + 1}, {m: 10, d: 2*10*10 + 1}}
	for _, c := range []struct{ m, want float64 }{{100, 20001}, {70, 2*70*70 + 1}, {30, 2*30*30 + 1}, {120, 2*120*120 + 1}, {5, 51}} {
		if got := interpolate(pts, c.m); math.Abs(got-c.want) > interpTol {
			t.Errorf("m=%g: %g want %g", c.m, got, c.want)
		}
	}
}

// TestExtrapolationErrorBar: the whole run's Time lies within the extrapolation's
// stated error bar, Time ± ExpectedError, which is positive; whole runs state none.
func TestExtrapolationErrorBar(t *testing.T) {
	for _, c := range []struct {
		p, q, n int
		bcast   BCast
		depth   int
	}{
		{2, 2, 6000, OneRingM, 0}, {2, 2, 6000, OneRingM, 1}, {1, 4, 8000, TwoRingM, 0}, {2, 2, 8000, Long, 1},
	} {
		p := peerParams(c.p, c.q, c.n, c.bcast, c.depth)
		full := runHPL(t, p, kernels.Model, Options{}, 1e-6)
		if full.ExpectedError != 0 {
			t.Errorf("%s whole: expected error %g, want 0", p.Variant(), full.ExpectedError)
		}
		for _, k := range []int{5, 8, 16, 32} {
			est := runHPL(t, p, kernels.Model, Options{MaxIterations: k}, 1e-6)
			dev := est.Time - full.Time
			t.Logf("%dx%d N=%d %v depth %d K=%d: %+.2f%%, bar ±%.2f%%", c.p, c.q, c.n, c.bcast, c.depth, k, 100*dev/full.Time, 100*est.ExpectedError/est.Time)
			if est.ExpectedError <= 0 || math.Abs(dev) > est.ExpectedError {
				t.Errorf("%dx%d N=%d depth %d K=%d: whole %.6f s outside %.6f ± %.6f s", c.p, c.q, c.n, c.depth, k, full.Time, est.Time, est.ExpectedError)
			}
		}
	}
}

func TestRelativeSE2(t *testing.T) {
	// A 1×2 grid: batches of lcm(1, 2) = 2 panels. Marks at 1, 2, 4, 5, 7, 8, 10
	// (durations 1, 2, 1, 2, 1, 2 from mark 1 on): every batch's mean is 1.5, so
	// the batch means do not vary, and the error is 0 however the durations
	// alternate.
	s := &solver{g: &grid{p: 1, q: 2}}
	for _, tm := range []float64{1, 2, 4, 5, 7, 8, 10} {
		s.marks = append(s.marks, panelMark{t: tm})
	}
	if got := s.relativeSE2(1); got != 0 {
		t.Errorf("alternating durations: %g, want 0", got)
	}
	// Durations 1, 1, 3, 3 from mark 1 (marks 0, 1, 2, 5, 8): batch means 1 and 3,
	// mean 2, sample variance ((1-2)² + (3-2)²)/1 = 2, standard error² = 2/2 = 1,
	// relative: 1/2² = 0.25.
	s.marks = s.marks[:0]
	for _, tm := range []float64{0, 1, 2, 5, 8} {
		s.marks = append(s.marks, panelMark{t: tm})
	}
	if got := s.relativeSE2(1); math.Abs(got-0.25) > 1e-15 {
		t.Errorf("two batches: %g, want 0.25", got)
	}
	// Fewer than two whole batches: no estimate.
	if got := s.relativeSE2(3); got != 0 {
		t.Errorf("one batch: %g, want 0", got)
	}
}

// integrateIn hoists each piece's constants out of its loop over the panels;
// its sums must stay, to the bit, those of line panel by panel (the
// estimate's printed digits and JSON depend on them). Random points,
// repeated m's (flat pieces) and both shapes.
func TestIntegrateMatchesLineToTheBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 500 {
		s := &solver{n: 1 + rng.IntN(20000), nb: 1 + rng.IntN(300)}
		points := make([]segmentPoint, 1+rng.IntN(8))
		m := float64(s.n) * (1 + rng.Float64())
		for i := range points {
			if i == 0 || rng.IntN(5) > 0 {
				m *= rng.Float64()
			}
			points[i] = segmentPoint{m: m, d: rng.Float64() * 10}
		}
		for _, sh := range []shape{squared, linear} {
			want, piece := 0.0, 1
			for j := 0; j < s.n; j += s.nb {
				m := float64(s.n - j)
				if len(points) == 1 {
					p := points[0]
					want += p.d * (sh.of(m) * float64(min(s.nb, s.n-j))) / (sh.of(p.m) * float64(s.nb))
					continue
				}
				for piece < len(points)-1 && m < points[piece].m {
					piece++
				}
				want += line(points[piece-1], points[piece], m, sh)
			}
			if got := s.integrateIn(points, sh); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("trial %d, shape %v: %v, panel by panel %v (points %v)", trial, sh, got, want, points)
			}
		}
	}
}

// linePiece.at is line, to the bit, where the line falls below zero, is
// flat, or meets NaN, infinities and signed zeros.
func TestLinePieceIsLine(t *testing.T) {
	for _, c := range []struct{ a, b segmentPoint }{
		{segmentPoint{m: 2, d: 1}, segmentPoint{m: 1, d: 3}},     // falls below zero beyond a
		{segmentPoint{m: 2, d: 0}, segmentPoint{m: 1, d: 0}},     // zero everywhere
		{segmentPoint{m: 2, d: -0.0}, segmentPoint{m: 1, d: -1}}, // negative
		{segmentPoint{m: 2, d: math.NaN()}, segmentPoint{m: 1, d: 1}},
		{segmentPoint{m: 1, d: 5}, segmentPoint{m: 1, d: 7}}, // flat
		{segmentPoint{m: 3, d: math.Inf(1)}, segmentPoint{m: 1, d: 1}},
	} {
		for _, sh := range []shape{squared, linear} {
			l := lineThrough(c.a, c.b, sh)
			for _, m := range []float64{0, 0.5, 1, 1.5, 2, 4, 100, math.Copysign(0, -1)} {
				got, want := l.at(m), line(c.a, c.b, m, sh)
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Errorf("%v %v m=%v shape %v: at %v, line %v", c.a, c.b, m, sh, got, want)
				}
			}
		}
	}
}
