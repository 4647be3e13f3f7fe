package sensitivity

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// threePaths has three independent chains on three ranks, so that
// T(L) = max(12, 10 + L, 2 + 3L) (units arbitrary, say µs):
// flat 12 until 12 = 10 + L at L = 2 (slope 0 → 1), then 10 + L until
// 10 + L = 2 + 3L at L = 4 (slope 1 → 3).
func threePaths() *Graph {
	b := NewBuilder(3)
	c := b.Vertex(0, Calc, 12)
	s1 := b.Vertex(1, Send, 4)
	r1 := b.Vertex(2, Recv, 4)
	b.Edge(s1, r1, 2, LatTerm{0, 1})
	s2 := b.Vertex(1, Send, 0)
	r2 := b.Vertex(2, Recv, 1)
	b.EdgeBytes(s2, r2, 1, 64, LatTerm{0, 3})
	_ = c
	return b.Graph()
}

func TestAnalyzeByHand(t *testing.T) {
	g := threePaths()
	r, err := Analyze(g, Params{L0: 1, Lmin: 0, Lmax: 10, Points: 11, Tolerances: []float64{1, 50, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Runtime != 12 || r.LambdaL != 0 || r.LambdaLLeft != 0 || r.RhoL != 0 {
		t.Errorf("at L0: %+v", r)
	}
	want := []Breakpoint{{L: 2, T: 12, LambdaLeft: 0, LambdaRight: 1}, {L: 4, T: 14, LambdaLeft: 1, LambdaRight: 3}}
	if len(r.Breakpoints) != len(want) || len(r.CriticalLatencies) != len(want) {
		t.Fatalf("breakpoints %+v, want %+v", r.Breakpoints, want)
	}
	for i, b := range r.Breakpoints {
		w := want[i]
		if !close(b.L, w.L) || !close(b.T, w.T) || b.LambdaLeft != w.LambdaLeft || b.LambdaRight != w.LambdaRight || r.CriticalLatencies[i] != b.L {
			t.Errorf("breakpoint %+v, want %+v", b, w)
		}
	}
	// 1%: 10 + L = 12.12 → L = 2.12; 50%: 2 + 3L = 18 → L = 16/3; 0%: end of the flat part, 2.
	for k, w := range map[string]float64{"1": 2.12, "50": 16.0 / 3, "0": 2} {
		if got := r.Tolerance[k]; got == nil || !close(*got, w) {
			t.Errorf("tolerance %s%% = %v, want %v", k, got, w)
		}
	}
	// The same tolerances from Newton passes, when the range ends early.
	r2, err := Analyze(g, Params{L0: 1, Lmin: 0, Lmax: 1.5, Tolerances: []float64{1, 50, 0}})
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range map[string]float64{"1": 2.12, "50": 16.0 / 3, "0": 2} {
		if got := r2.Tolerance[k]; got == nil || !close(*got, w) {
			t.Errorf("tolerance by passes %s%% = %v, want %v", k, got, w)
		}
	}
	for _, c := range r.Curve {
		wantT := math.Max(12, math.Max(10+c.L, 2+3*c.L))
		if !close(c.T, wantT) {
			t.Errorf("curve T(%v) = %v, want %v", c.L, c.T, wantT)
		}
	}
	// At L = 4 exactly the slopes differ: left 1, right 3; λ_G follows the right path.
	r, _ = Analyze(g, Params{L0: 4})
	if r.LambdaLLeft != 1 || r.LambdaL != 3 || r.LambdaG != 64 || r.RhoL != 3*4/14.0 {
		t.Errorf("at L = 4: left %d right %d λ_G %v ρ %v", r.LambdaLLeft, r.LambdaL, r.LambdaG, r.RhoL)
	}
}

func TestToleranceUnbounded(t *testing.T) {
	b := NewBuilder(1)
	b.Vertex(0, Calc, 5)
	r, err := Analyze(b.Graph(), Params{L0: 1e-6, Tolerances: []float64{1}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tolerance["1"] != nil {
		t.Errorf("tolerance = %v, want nil (no latency anywhere)", *r.Tolerance["1"])
	}
	if _, err := json.Marshal(r); err != nil {
		t.Error(err)
	}
}

// TestReportJSONListsNotNull: --json wrote "critical_latencies_s": null and
// "breakpoints": null where a range has none (a graph without latency, or a
// range before the first breakpoint), where the report's other lists are []
// and a reader iterating them fails on null.
func TestReportJSONListsNotNull(t *testing.T) {
	b := NewBuilder(1)
	b.Vertex(0, Calc, 5)
	for _, tc := range []struct {
		name string
		g    *Graph
		p    Params
	}{
		{"no latency", b.Graph(), Params{L0: 1e-6, Tolerances: []float64{1}}},
		{"range before the breakpoints", threePaths(), Params{L0: 1, Lmin: 0, Lmax: 1.5}},
	} {
		r, err := Analyze(tc.g, tc.p)
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(js, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"critical_latencies_s", "breakpoints", "curve", "classes"} {
			if got := string(m[k]); got == "" || got == "null" {
				t.Errorf("%s: %q is %q, want a list", tc.name, k, got)
			}
		}
	}
}

// relEps is the relative rounding allowed between computed and hand-derived
// values: intersections are computed from rounded sums.
const relEps = 1e-13

func close(a, b float64) bool { return math.Abs(a-b) <= relEps*math.Max(math.Abs(a), math.Abs(b)) }

// line is one path's runtime a·L + b.
type line struct{ a, b float64 }

// allPaths enumerates every path of a small graph as a line (independent of
// the evaluator: plain recursion over out-edges).
func allPaths(g *Graph, class int, lat []float64) []line {
	n := g.NumVertices()
	out := make([][]int, n)
	for e := range g.NumEdges() {
		u := int(g.EdgeFrom(e))
		out[u] = append(out[u], e)
	}
	to := make([]int, g.NumEdges())
	for v := range n {
		first, end := g.InEdges(VertexID(v))
		for e := first; e < end; e++ {
			to[e] = v
		}
	}
	var lines []line
	var walk func(v int, a, b float64)
	walk = func(v int, a, b float64) {
		b += g.Cost(VertexID(v))
		lines = append(lines, line{a, b})
		for _, e := range out[v] {
			l := slices.Clone(lat)
			l[class] = 0
			walk(to[e], a+float64(g.latCount(e, uint8(class))), b+g.edgeCost(e, l))
		}
	}
	for v := range n {
		walk(v, 0, 0)
	}
	return lines
}

// envelopeTieRel is how close to the maximum (relative) a line must come to
// count among the maximal ones in the reference envelope; looser than the
// analysis's own tieRel, as x is itself a rounded intersection.
const envelopeTieRel = 1e-9

// sameBreakpoint is the distance (s) below which two computed intersections
// are one breakpoint: randomDAG's costs are whole nanoseconds and slopes are
// small integers, so distinct breakpoints lie a fraction of a ns apart or
// more, while rounding moves one by far less than this.
const sameBreakpoint = 1e-15

// envelope evaluates max over lines at x, with the fewest and most slopes
// among the maximal lines.
func envelope(lines []line, x float64) (t float64, left, right float64) {
	t = math.Inf(-1)
	for _, l := range lines {
		t = math.Max(t, l.a*x+l.b)
	}
	left, right = math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		if v := l.a*x + l.b; t-v <= envelopeTieRel*math.Abs(t) {
			left, right = math.Min(left, l.a), math.Max(right, l.a)
		}
	}
	return
}

// TestHullAgainstPathEnumeration checks critical latencies, slopes and
// tolerances on random small DAGs against the upper envelope of all paths.
func TestHullAgainstPathEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const lo, hi = 0.0, 20e-6
	const tolT = 1e-9 // relative, on T
	for trial := 0; trial < 200; trial++ {
		g := mustBuild(t, randomDAG(rng, 3, 4+rng.IntN(9), 2, 2, true))
		class := rng.IntN(2)
		lat := []float64{3e-6, 1e-6}
		lines := allPaths(g, class, lat)
		r, err := Analyze(g, Params{Latencies: lat, Class: class, L0: 3e-6, Lmin: lo, Lmax: hi, Tolerances: []float64{1, 5}})
		if err != nil {
			t.Fatal(err)
		}
		// The true breakpoints are where the envelope's slope changes:
		// intersections of pairs of lines where left ≠ right.
		var want []float64
		for i := range lines {
			for j := range lines {
				if lines[i].a >= lines[j].a {
					continue
				}
				x := (lines[i].b - lines[j].b) / (lines[j].a - lines[i].a)
				if x <= lo || x >= hi {
					continue
				}
				if _, l, r := envelope(lines, x); l != r && !slices.ContainsFunc(want, func(y float64) bool { return math.Abs(y-x) < sameBreakpoint }) {
					want = append(want, x)
				}
			}
		}
		slices.Sort(want)
		if len(want) != len(r.Breakpoints) {
			t.Fatalf("trial %d: breakpoints %v, want %v", trial, r.CriticalLatencies, want)
		}
		for i, b := range r.Breakpoints {
			et, el, er := envelope(lines, want[i])
			if math.Abs(b.L-want[i]) > sameBreakpoint || math.Abs(b.T-et) > tolT*et || float64(b.LambdaLeft) != el || float64(b.LambdaRight) != er {
				t.Errorf("trial %d: breakpoint %+v, want L %v T %v slopes %v %v", trial, b, want[i], et, el, er)
			}
		}
		for _, c := range r.Curve {
			if et, _, _ := envelope(lines, c.L); math.Abs(c.T-et) > tolT*et {
				t.Errorf("trial %d: T(%v) = %v, want %v", trial, c.L, c.T, et)
			}
		}
		t0, _, _ := envelope(lines, 3e-6)
		for k, pct := range map[string]float64{"1": 1, "5": 5} {
			got := r.Tolerance[k]
			if got == nil {
				if slices.ContainsFunc(lines, func(l line) bool { return l.a > 0 }) {
					t.Errorf("trial %d: tolerance %s%% unbounded", trial, k)
				}
				continue
			}
			c := (1 + pct/100) * t0
			// T(x) ≤ c at the answer and T exceeds c just beyond it.
			if et, _, _ := envelope(lines, *got); et > c*(1+tolT) {
				t.Errorf("trial %d: T(tolerance %s%% = %v) = %v > %v", trial, k, *got, et, c)
			}
			if et, _, _ := envelope(lines, *got*(1+1e-6)+1e-15); et <= c {
				t.Errorf("trial %d: tolerance %s%% = %v is not the largest", trial, k, *got)
			}
		}
	}
}

// TestParametricAgreesWithSearch: the one-pass parametric envelope and the
// line-intersection search are two exact methods; they must find the same
// pieces on graphs too big to enumerate paths.
func TestParametricAgreesWithSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 60; trial++ {
		g := mustBuild(t, randomDAG(rng, 1+rng.IntN(8), 50+rng.IntN(2000), 3, 2, trial%2 == 0))
		class := rng.IntN(2)
		ev := newEvaluator(g, []float64{3e-6, 1e-6}, uint8(class))
		lo, hi := rng.Float64()*5e-6, 5e-6+rng.Float64()*50e-6
		par, ok := ev.parametric(lo, hi)
		if !ok {
			t.Fatal("parametric pass gave up")
		}
		s := &search{ev: ev}
		ser, err := s.hull(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if len(par) != len(ser) {
			t.Fatalf("trial %d: parametric %d pieces, search %d\n%+v\n%+v", trial, len(par), len(ser), par, ser)
		}
		for i := range par {
			a, b := par[i], ser[i]
			if !relNear(a.L, b.L, 1e-9) || !relNear(a.T, b.T, 1e-9) || a.LambdaRight != b.LambdaRight || i > 0 && a.LambdaLeft != b.LambdaLeft {
				t.Errorf("trial %d piece %d: parametric %+v, search %+v", trial, i, a, b)
			}
		}
	}
}

func TestAnalyzeEmptyAndBadParams(t *testing.T) {
	b := NewBuilder(1)
	r, err := Analyze(b.Graph(), Params{L0: 3e-6, Lmin: 0, Lmax: 1e-5, Tolerances: []float64{1}})
	if err != nil || r.Runtime != 0 || len(r.Curve) != 11 || r.Tolerance["1"] != nil {
		t.Errorf("empty graph: %+v, %v", r, err)
	}
	g := threePaths()
	for _, p := range []Params{
		{L0: -1}, {L0: 1, Lmin: 2, Lmax: 1}, {L0: math.NaN()}, {L0: 1, Tolerances: []float64{-1}},
		{L0: 1, Class: 300}, {L0: 1, Lmin: 0, Lmax: 2, Points: 1}, {Latencies: []float64{math.Inf(1)}},
	} {
		if _, err := Analyze(g, p); err == nil {
			t.Errorf("Analyze(%+v) accepted bad parameters", p)
		}
	}
}

// rangeRel is the rounding of the line search relative to the range's
// width (s per s).
const rangeRel = 1e-13

// FuzzParametric drives the parametric pass and the line search with
// random graphs and ranges; they must agree.
func FuzzParametric(f *testing.F) {
	f.Add(uint64(1), uint16(50), uint8(3), 1e-6, 20e-6)
	f.Add(uint64(7), uint16(500), uint8(1), 0.0, 1e-3)
	f.Fuzz(func(t *testing.T, seed uint64, nv uint16, ranks uint8, lo, span float64) {
		if !(lo >= 0 && lo < 1) || !(span >= 0 && span < 1) {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		g := mustBuild(t, randomDAG(rng, 1+int(ranks%16), 1+int(nv%3000), 3, 2, seed%2 == 0))
		ev := newEvaluator(g, []float64{0, 1e-6}, 0)
		par, ok := ev.parametric(lo, lo+span)
		if !ok {
			t.Fatal("parametric pass gave up")
		}
		ser, err := (&search{ev: ev}).hull(lo, lo+span)
		if err != nil {
			t.Fatal(err)
		}
		if len(par) != len(ser) {
			t.Fatalf("parametric %d pieces, search %d", len(par), len(ser))
		}
		// The search intersects lines through the range's far end, which
		// costs it digits when breakpoints are much smaller than the range
		// (seed 69 in testdata/fuzz: 5e-9 relative, 1e-15 of the range;
		// the parametric pass matched path enumeration to 2e-16 there).
		for i := range par {
			lTol := 1e-9*par[i].L + rangeRel*(lo+span)
			dl := math.Abs(par[i].L - ser[i].L)
			dt := math.Abs(par[i].T - ser[i].T)
			if dl > lTol || dt > 1e-9*par[i].T+float64(par[i].LambdaRight)*lTol || par[i].LambdaRight != ser[i].LambdaRight {
				t.Errorf("piece %d: parametric %+v, search %+v", i, par[i], ser[i])
			}
		}
	})
}

// TestAnalyzeFallsBackToSearch: with no room for the parametric pass's
// pieces, Analyze must give the same report through the line search.
func TestAnalyzeFallsBackToSearch(t *testing.T) {
	g := mustBuild(t, randomDAG(rand.New(rand.NewPCG(15, 16)), 4, 400, 3, 1, true))
	p := Params{L0: 3e-6, Lmin: 0, Lmax: 40e-6, Tolerances: []float64{1, 5, 50}}
	want, err := Analyze(g, p)
	if err != nil {
		t.Fatal(err)
	}
	saved := maxLivePieces
	maxLivePieces = 0
	defer func() { maxLivePieces = saved }()
	got, err := Analyze(g, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Breakpoints) == 0 || len(got.Breakpoints) != len(want.Breakpoints) {
		t.Fatalf("breakpoints: search %d, parametric %d", len(got.Breakpoints), len(want.Breakpoints))
	}
	for i, b := range got.Breakpoints {
		w := want.Breakpoints[i]
		if !relNear(b.L, w.L, 1e-9) || !relNear(b.T, w.T, 1e-9) || b.LambdaLeft != w.LambdaLeft || b.LambdaRight != w.LambdaRight {
			t.Errorf("breakpoint %d: search %+v, parametric %+v", i, b, w)
		}
	}
	for k, w := range want.Tolerance {
		if g := got.Tolerance[k]; (g == nil) != (w == nil) || g != nil && !relNear(*g, *w, 1e-9) {
			t.Errorf("tolerance %s%%: search %v, parametric %v", k, g, w)
		}
	}
	if got.Evaluations <= want.Evaluations {
		t.Errorf("search used %d passes, parametric %d: the fallback did not run", got.Evaluations, want.Evaluations)
	}
}

// TestRangeAtZero: a range given as 0..0 is ℓ = 0 alone, not the zero value's
// "no range" (L0..L0). On threePaths T(L) = max(12, 10 + L, 2 + 3L): at 0 the
// curve's one point is 12 with slope 0; at L0 = 5 it is 17 with slope 3.
func TestRangeAtZero(t *testing.T) {
	for _, c := range []struct {
		name       string
		lo, hi     float64
		set        bool
		wantL      float64
		wantT      float64
		wantLambda int64
	}{
		{"0:0 given", 0, 0, true, 0, 12, 0},
		{"no range", 0, 0, false, 5, 17, 3},
		{"5:5 given", 5, 5, true, 5, 17, 3},
		{"3:3 given", 3, 3, true, 3, 13, 1},
	} {
		r, err := Analyze(threePaths(), Params{L0: 5, Lmin: c.lo, Lmax: c.hi, RangeSet: c.set, Points: 11})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Lmin != c.wantL || r.Lmax != c.wantL || len(r.Curve) != 1 {
			t.Fatalf("%s: range %v..%v, curve %+v; want %v alone", c.name, r.Lmin, r.Lmax, r.Curve, c.wantL)
		}
		if p := r.Curve[0]; p.L != c.wantL || !close(p.T, c.wantT) || p.LambdaL != c.wantLambda {
			t.Errorf("%s: curve point %+v, want T(%v) = %v, λ %d", c.name, p, c.wantL, c.wantT, c.wantLambda)
		}
		if r.L != 5 || !close(r.Runtime, 17) {
			t.Errorf("%s: baseline T(%v) = %v, want T(5) = 17", c.name, r.L, r.Runtime)
		}
	}
}
