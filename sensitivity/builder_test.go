package sensitivity

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// pingPong builds the LogGP ping-pong of one message each way between two
// ranks: calc(c) then send on rank 0, recv then send on rank 1, recv on rank 0.
// With o the send/recv cost and a message edge cost L+r, by hand:
// T = c + o (send) + L + r + o (recv) + o (send back) + L + r + o (recv).
func pingPong(c, o, r float64) *Builder {
	return pingPongWith(c, o, r, 100, LatTerm{Class: 0, Count: 1})
}

// pingPongWith is pingPong with each message carrying bytes and the latency terms given.
func pingPongWith(c, o, r, bytes float64, terms ...LatTerm) *Builder {
	b := NewBuilder(2)
	c0 := b.Vertex(0, Calc, c)
	s0 := b.Vertex(0, Send, o)
	r1 := b.Vertex(1, Recv, o)
	s1 := b.Vertex(1, Send, o)
	r0 := b.Vertex(0, Recv, o)
	b.Edge(c0, s0, 0)
	b.Edge(s0, r0, 0)
	b.Edge(r1, s1, 0)
	b.EdgeBytes(s0, r1, r, bytes, terms...)
	b.EdgeBytes(s1, r0, r, bytes, terms...)
	return b
}

func TestPingPongByHand(t *testing.T) {
	const c, o, r, L = 2e-6, 1e-6, 0.5e-6, 3e-6
	g, err := pingPong(c, o, r).Build()
	if err != nil {
		t.Fatal(err)
	}
	want := c + 4*o + 2*(L+r)
	tt, left, right, bytes := g.Slopes([]float64{L}, 0)
	if !near(tt, want) || left != 2 || right != 2 || bytes != 200 {
		t.Errorf("T, left, right, bytes = %v %d %d %v, want %v 2 2 200", tt, left, right, bytes, want)
	}
	if got := g.Runtime([]float64{L}); !near(got, want) {
		t.Errorf("Runtime = %v, want %v", got, want)
	}
}

// timeEps is the absolute tolerance of hand-computed times, s.
const timeEps = 1e-15

func near(a, b float64) bool { return a-b <= timeEps && b-a <= timeEps }

func TestBuildReordersTopologically(t *testing.T) {
	b := NewBuilder(1)
	x := b.Vertex(0, Calc, 1)
	y := b.Vertex(0, Calc, 2)
	z := b.Vertex(0, Calc, 4)
	b.Edge(z, x, 0.5) // z → x → y: T = 4 + 0.5 + 1 + 2
	b.Edge(x, y, 0)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g.ID(z) != 0 || g.ID(x) != 1 || g.ID(y) != 2 {
		t.Errorf("order %d %d %d, want z, x, y first", g.ID(x), g.ID(y), g.ID(z))
	}
	if got := g.Runtime(nil); got != 7.5 {
		t.Errorf("T = %v, want 7.5", got)
	}
	ft := g.FinishTimes(nil)
	if ft[g.ID(x)] != 5.5 {
		t.Errorf("finish(x) = %v, want 5.5", ft[g.ID(x)])
	}
}

func TestBuildCycle(t *testing.T) {
	b := NewBuilder(2)
	a := b.Vertex(0, Calc, 1)
	s := b.Vertex(0, Send, 1)
	r := b.Vertex(1, Recv, 1)
	b.Edge(a, s, 0)
	b.Edge(s, r, 0)
	b.Edge(r, s, 0)
	_, err := b.Build()
	var ce *CycleError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a CycleError", err)
	}
	if ce.Stuck != 2 || len(ce.Cycle) != 2 || !strings.Contains(err.Error(), "rank 1 recv") {
		t.Errorf("error %q (stuck %d, cycle %v)", err, ce.Stuck, ce.Cycle)
	}
}

func TestBuilderErrors(t *testing.T) {
	cases := []struct {
		name, want string
		do         func(b *Builder)
	}{
		{"bad rank", "rank 5", func(b *Builder) { b.Vertex(5, Calc, 0) }},
		{"negative cost", "cost -1", func(b *Builder) { b.Vertex(0, Calc, -1) }},
		{"unknown vertex", "unknown vertex", func(b *Builder) { b.Edge(0, 9, 0) }},
		{"bad class", "latency term", func(b *Builder) {
			v := b.Vertex(0, Calc, 0)
			w := b.Vertex(1, Calc, 0)
			b.Edge(v, w, 0, LatTerm{Class: 255, Count: 1})
		}},
		{"negative count", "latency term", func(b *Builder) {
			v := b.Vertex(0, Calc, 0)
			w := b.Vertex(1, Calc, 0)
			b.Edge(v, w, 0, LatTerm{Count: -1})
		}},
	}
	for _, c := range cases {
		b := NewBuilder(2)
		c.do(b)
		if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestMultiClassEdge(t *testing.T) {
	b := NewBuilder(2)
	s := b.Vertex(0, Send, 0)
	r := b.Vertex(1, Recv, 0)
	// Two wires and one switch class, repeated class 1 merged: 3·ℓ1 + 2·ℓ2 + 1.
	b.Edge(s, r, 1, LatTerm{1, 2}, LatTerm{2, 2}, LatTerm{1, 1})
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if g.Classes() != 3 {
		t.Errorf("classes %d, want 3", g.Classes())
	}
	if got := g.EdgeLat(0, nil); len(got) != 2 || got[0] != (LatTerm{1, 3}) || got[1] != (LatTerm{2, 2}) {
		t.Errorf("terms %v", got)
	}
	if got := g.Runtime([]float64{100, 10, 1000}); got != 1+30+2000 {
		t.Errorf("T = %v, want 2031", got)
	}
	_, l, r2, _ := g.Slopes([]float64{100, 10, 1000}, 2)
	if l != 2 || r2 != 2 {
		t.Errorf("class-2 slopes %d %d, want 2 2", l, r2)
	}
}

// TestBuildGroupedEdges checks that a builder whose edges arrive grouped by
// destination (handed over as they are) gives the same graph as the
// counting sort does when the same edges arrive in another order that
// keeps each destination's own order.
func TestBuildGroupedEdges(t *testing.T) {
	type edge struct {
		from, to    VertexID
		rest, bytes float64
		lat         []LatTerm
	}
	const nv = 50
	var edges []edge // grouped by destination, in increasing order
	for v := VertexID(1); v < nv; v++ {
		for k := 0; k < int(v)%4; k++ {
			u := (v*7 + VertexID(k)*13) % v
			edges = append(edges, edge{u, v, float64(k) * 1e-7, float64(v), []LatTerm{{Class: uint8(k % 2), Count: int32(k)}, {Class: 1, Count: 1}}})
		}
	}
	build := func(order []edge) *Graph {
		b := NewBuilder(3)
		for v := 0; v < nv; v++ {
			b.Vertex(v%3, Kind(v%3), float64(v)*1e-6)
		}
		for _, e := range order {
			b.EdgeBytes(e.from, e.to, e.rest, e.bytes, e.lat...)
		}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// Destinations from the last to the first, each one's edges in order.
	var regrouped []edge
	for end := len(edges); end > 0; {
		start := end
		for start > 0 && edges[start-1].to == edges[end-1].to {
			start--
		}
		regrouped = append(regrouped, edges[start:end]...)
		end = start
	}
	a, b := build(edges), build(regrouped)
	if a.NumEdges() != len(edges) || b.NumEdges() != len(edges) {
		t.Fatalf("%d and %d edges, want %d", a.NumEdges(), b.NumEdges(), len(edges))
	}
	for v := VertexID(0); v < nv; v++ {
		af, ae := a.InEdges(v)
		bf, be := b.InEdges(v)
		if af != bf || ae != be {
			t.Fatalf("vertex %d: in-edges [%d,%d) and [%d,%d)", v, af, ae, bf, be)
		}
		for e := af; e < ae; e++ {
			la, lb := a.EdgeLat(e, nil), b.EdgeLat(e, nil)
			if a.EdgeFrom(e) != b.EdgeFrom(e) || a.EdgeRest(e) != b.EdgeRest(e) || a.EdgeBytes(e) != b.EdgeBytes(e) || !slices.Equal(la, lb) {
				t.Errorf("edge %d: %d %v %v %v and %d %v %v %v", e, a.EdgeFrom(e), a.EdgeRest(e), a.EdgeBytes(e), la, b.EdgeFrom(e), b.EdgeRest(e), b.EdgeBytes(e), lb)
			}
		}
	}
	if ta, tb := a.Runtime([]float64{1e-6, 2e-6}), b.Runtime([]float64{1e-6, 2e-6}); ta != tb {
		t.Errorf("T = %v and %v", ta, tb)
	}
	var fa, fb bytes.Buffer
	if _, err := a.WriteTo(&fa); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WriteTo(&fb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fa.Bytes(), fb.Bytes()) {
		t.Errorf("the two graphs' files differ (%d and %d bytes)", fa.Len(), fb.Len())
	}
}

// Edges share their (rest, bytes, latency) payloads: a graph keeps one entry
// per distinct payload while the index finds them, and every edge keeps its
// own values, bit for bit, also beyond the index's bound and for -0.
func TestEdgePayloadsShared(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		name     string
		distinct int // payloads, each on edges far apart
		repeat   int // edges per payload
		maxTable int // entries the graph may keep, the zero payload included
	}{
		{"program order only", 0, 0, 1},
		{"three payloads", 3, 1000, 4},
		{"beyond the index", maxInterned + 100, 2, 1 + maxInterned + 2*100},
	} {
		b := NewBuilder(2)
		prev := b.Vertex(0, Calc, 0)
		type want struct{ rest, bytes float64 }
		var wants []want
		for range tc.repeat {
			for k := range tc.distinct {
				v := b.Vertex(1, Recv, 0)
				b.Edge(prev, v, 0) // program order: the zero payload
				rest := float64(k+1) * 1e-9
				if k == 0 {
					rest = negZero
				}
				b.EdgeBytes(prev, v, rest, float64(k), LatTerm{Class: 0, Count: 1})
				wants = append(wants, want{0, 0}, want{rest, float64(k)})
				prev = v
			}
		}
		g := mustBuild(t, b)
		if n := len(g.pay.rest); n > tc.maxTable {
			t.Errorf("%s: %d payloads kept, want ≤ %d", tc.name, n, tc.maxTable)
		}
		for e, w := range wants {
			if math.Float64bits(g.EdgeRest(e)) != math.Float64bits(w.rest) || g.EdgeBytes(e) != w.bytes {
				t.Fatalf("%s: edge %d: rest %v bytes %v, want %v %v", tc.name, e, g.EdgeRest(e), g.EdgeBytes(e), w.rest, w.bytes)
			}
		}
	}
}

// Vertices share their (kind, cost) as edges share their payloads; each
// keeps its own, bit for bit, -0 and beyond the index's bound included.
func TestVertexPayloadsShared(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		name     string
		distinct int // costs, each on vertices far apart
		repeat   int
		maxTable int // entries the graph may keep, numKinds zero costs included
	}{
		{"zero costs", 1, 3000, int(numKinds) + 1},
		{"beyond the index", maxInterned + 100, 2, int(numKinds) + maxInterned + 2*100},
	} {
		b := NewBuilder(3)
		type want struct {
			kind Kind
			cost float64
		}
		var wants []want
		for range tc.repeat {
			for k := range tc.distinct {
				w := want{Kind(k % 3), float64(k) * 1e-9}
				if k == 1 {
					w.cost = negZero
				}
				b.Vertex(k%3, w.kind, w.cost)
				wants = append(wants, w)
			}
		}
		g := mustBuild(t, b)
		if n := len(g.vtab.cost); n > tc.maxTable {
			t.Errorf("%s: %d vertex payloads kept, want ≤ %d", tc.name, n, tc.maxTable)
		}
		for v, w := range wants {
			if got := g.Cost(VertexID(v)); math.Float64bits(got) != math.Float64bits(w.cost) || g.Kind(VertexID(v)) != w.kind {
				t.Fatalf("%s: vertex %d: %v %v, want %v %v", tc.name, v, g.Kind(VertexID(v)), got, w.kind, w.cost)
			}
		}
	}
}
