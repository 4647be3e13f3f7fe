package sensitivity

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSlotPlanSizes: frontiers solved by hand. A chain hands each vertex's
// slot to the next (1 slot); a fan-out keeps its root while each leaf
// takes and gives back one more (2); a fan-in holds every source until the
// join reads its last in-edge (n sources); on the layered graph each rank
// holds its last vertex, and a message's source one more while its edge
// is pending (at most 2 per rank).
func TestSlotPlanSizes(t *testing.T) {
	const n = 1000
	chain := NewBuilder(1)
	prev := chain.Vertex(0, Calc, 1e-6)
	for range n - 1 {
		v := chain.Vertex(0, Calc, 1e-6)
		chain.Edge(prev, v, 0)
		prev = v
	}
	fanOut := NewBuilder(1)
	root := fanOut.Vertex(0, Calc, 1e-6)
	for range n - 1 {
		fanOut.Edge(root, fanOut.Vertex(0, Calc, 1e-6), 0)
	}
	fanIn := NewBuilder(1)
	src := make([]VertexID, n-1)
	for i := range src {
		src[i] = fanIn.Vertex(0, Calc, 1e-6)
	}
	join := fanIn.Vertex(0, Recv, 0)
	for _, s := range src {
		fanIn.Edge(s, join, 0)
	}
	for _, tc := range []struct {
		name     string
		b        *Builder
		min, max int
	}{
		{"empty", NewBuilder(1), 0, 0},
		{"chain", chain, 1, 1},
		{"fan-out", fanOut, 2, 2},
		{"fan-in", fanIn, n - 1, n - 1},
		{"layered, 64 ranks", layeredGraph(rand.New(rand.NewPCG(1, 1)), 64, 64*200), 64, 2 * 64},
	} {
		if got := newSlotPlan(mustBuild(t, tc.b)).slots; got < tc.min || got > tc.max {
			t.Errorf("%s: %d slots, want %d..%d", tc.name, got, tc.min, tc.max)
		}
	}
}

// TestSlotPlanNeverSharesALiveSlot replays a plan against the graph: each
// edge names its source's slot, marks its source's last out-edge and no
// other, and no vertex takes a slot whose holder still has an out-edge to
// be read; a vertex with no out-edge is marked so.
func TestSlotPlanNeverSharesALiveSlot(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 40 {
		g := mustBuild(t, randomDAG(rng, 1+rng.IntN(6), 20+rng.IntN(3000), 3, 2, trial%2 == 0))
		p := newSlotPlan(g)
		left := make([]int, g.NumVertices()) // out-edges not read yet
		for e := range g.NumEdges() {
			left[g.EdgeFrom(e)]++
		}
		holder := make([]int, p.slots) // vertex in each slot, -1 if free
		for i := range holder {
			holder[i] = -1
		}
		for v := range g.NumVertices() {
			first, end := g.InEdges(VertexID(v))
			for e := first; e < end; e++ {
				u := int(g.EdgeFrom(e))
				w := p.eSlot.at(e)
				left[u]--
				if s := int(w >> 1); holder[s] != u {
					t.Fatalf("trial %d: edge %d reads slot %d, held by %d, not its source %d", trial, e, s, holder[s], u)
				}
				if last := w&1 != 0; last != (left[u] == 0) {
					t.Fatalf("trial %d: edge %d marked last %v, %d out-edges of %d left", trial, e, last, left[u], u)
				}
			}
			w := p.vSlot.at(v)
			s := int(w >> 1)
			if h := holder[s]; h >= 0 && left[h] > 0 {
				t.Fatalf("trial %d: vertex %d takes slot %d from %d, which has %d out-edges left", trial, v, s, h, left[h])
			}
			if noOut := w&1 != 0; noOut != (left[v] == 0) {
				t.Fatalf("trial %d: vertex %d marked without out-edges %v, has %d", trial, v, noOut, left[v])
			}
			holder[s] = v
		}
	}
}

// TestFrontierMatchesOneSlotPerVertex: an evaluator on its plan computes
// what one with a record per vertex computes (the layout before plans: a
// plan that never reuses a slot), bit for bit, in run, asymptote and the
// parametric pass, on graphs with ties, negative rests and several classes.
func TestFrontierMatchesOneSlotPerVertex(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 30 {
		g := mustBuild(t, randomDAG(rng, 1+rng.IntN(6), 50+rng.IntN(2000), 3, 2, trial%2 == 0))
		class := uint8(rng.IntN(2))
		lat := []float64{3e-6, 1e-6}
		planned := newEvaluator(g, lat, class)
		whole := newEvaluator(g, lat, class)
		whole.plan = oneSlotPerVertex(g)
		whole.st = make([]vstate, whole.plan.slots)
		if planned.plan.slots > g.NumVertices() {
			t.Fatalf("trial %d: %d slots for %d vertices", trial, planned.plan.slots, g.NumVertices())
		}
		for _, x := range []float64{0, 2e-6, 7e-6} {
			if a, b := planned.run(x), whole.run(x); !samePoint(a, b) {
				t.Fatalf("trial %d: run(%v) %+v, one slot per vertex %+v", trial, x, a, b)
			}
		}
		as, ab := planned.asymptote()
		ws, wb := whole.asymptote()
		if as != ws || math.Float64bits(ab) != math.Float64bits(wb) {
			t.Fatalf("trial %d: asymptote %d %v, one slot per vertex %d %v", trial, as, ab, ws, wb)
		}
		a, aok := planned.parametric(1e-6, 30e-6)
		b, bok := whole.parametric(1e-6, 30e-6)
		if aok != bok || len(a) != len(b) {
			t.Fatalf("trial %d: parametric %v %d pieces, one slot per vertex %v %d", trial, aok, len(a), bok, len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("trial %d: piece %d %+v, one slot per vertex %+v", trial, i, a[i], b[i])
			}
		}
	}
}

// oneSlotPerVertex is the plan that gives every vertex a slot of its own
// and never marks a last out-edge: the evaluator's memory before plans.
func oneSlotPerVertex(g *Graph) *slotPlan {
	p := &slotPlan{vSlot: makeColumn[uint32](g.NumVertices()), eSlot: makeColumn[uint32](g.NumEdges()), slots: g.NumVertices()}
	out := make([]bool, g.NumVertices())
	for e := range g.NumEdges() {
		u := g.EdgeFrom(e)
		out[u] = true
		p.eSlot.set(e, uint32(u)<<1)
		if g.EdgeRest(e) < 0 {
			if p.negOut == nil {
				p.negOut = make([]bool, g.NumVertices())
			}
			p.negOut[u] = true
		}
	}
	for v := range g.NumVertices() {
		w := uint32(v) << 1
		if !out[v] {
			w |= 1
		}
		p.vSlot.set(v, w)
	}
	return p
}

// samePoint compares two points bit for bit.
func samePoint(a, b point) bool {
	return math.Float64bits(a.L) == math.Float64bits(b.L) && math.Float64bits(a.T) == math.Float64bits(b.T) &&
		a.Left == b.Left && a.Right == b.Right && math.Float64bits(a.Bytes) == math.Float64bits(b.Bytes) && a.Sink == b.Sink
}
