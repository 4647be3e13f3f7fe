package sensitivity

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// randomDAG builds a random DAG of nv vertices over ranks ranks: each vertex
// gets up to maxIn in-edges from earlier vertices of a hidden topological
// order, which the creation order shuffles when shuffle is set, so Build has
// to sort. About half the edges carry 1–3 latency terms of classes below
// classes, a few carry two classes. Costs are in µs-like magnitudes.
func randomDAG(rng *rand.Rand, ranks, nv, maxIn, classes int, shuffle bool) *Builder {
	b := NewBuilder(ranks)
	topo := make([]VertexID, nv) // topo[i] = builder ID of the i-th vertex in the hidden order
	perm := make([]int, nv)
	for i := range perm {
		perm[i] = i
	}
	if shuffle {
		rng.Shuffle(nv, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	inv := make([]int, nv) // builder creation index → hidden position
	for i, p := range perm {
		inv[p] = i
	}
	for c := 0; c < nv; c++ {
		topo[inv[c]] = b.Vertex(rng.IntN(ranks), Kind(rng.IntN(3)), float64(rng.IntN(5000))*1e-9)
	}
	for i := 1; i < nv; i++ {
		for k := rng.IntN(maxIn + 1); k > 0; k-- {
			from := topo[rng.IntN(i)]
			rest := rng.Float64() * 3e-6
			var lat []LatTerm
			if rng.IntN(2) == 0 {
				lat = append(lat, LatTerm{Class: uint8(rng.IntN(classes)), Count: int32(1 + rng.IntN(3))})
				if rng.IntN(8) == 0 {
					lat = append(lat, LatTerm{Class: uint8(rng.IntN(classes)), Count: 1})
				}
			}
			b.EdgeBytes(from, topo[i], rest, float64(rng.IntN(1<<20)), lat...)
		}
	}
	return b
}

func mustBuild(t testing.TB, b *Builder) *Graph {
	t.Helper()
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sameGraph compares everything a file keeps (not the builder ID map),
// edge by edge: how the edges share their payloads is not part of it.
func sameGraph(t *testing.T, a, b *Graph) {
	t.Helper()
	if fa, fb := flatten(a), flatten(b); !reflect.DeepEqual(fa, fb) {
		t.Errorf("graphs differ:\n%+v\n%+v", fa, fb)
	}
}

// flatGraph is a Graph with a rest, bytes and latency word per edge and
// empty slices nil, for DeepEqual.
type flatGraph struct {
	ranks, classes int
	vRank          []int32
	vKind          []Kind
	vCost          []float64
	inStart, eFrom []int32
	eRest, eBytes  []float64
	eLat           []uint32
	multiStart     []int32
	multi          []LatTerm
	baseline       []float64
}

func flatten(g *Graph) flatGraph {
	f := flatGraph{ranks: g.ranks, classes: g.classes, vRank: g.vRank.slice(),
		inStart: g.inStart.slice(), eFrom: g.eFrom.slice(), multiStart: g.multiStart, multi: g.multi, baseline: g.baseline}
	for v := range g.NumVertices() {
		f.vKind = append(f.vKind, g.Kind(VertexID(v)))
		f.vCost = append(f.vCost, g.Cost(VertexID(v)))
	}
	for e := range g.NumEdges() {
		f.eRest = append(f.eRest, g.rest(e))
		f.eBytes = append(f.eBytes, g.bytes(e))
		f.eLat = append(f.eLat, g.latWord(e))
	}
	if len(f.eFrom) == 0 {
		f.eFrom = nil
	}
	if len(f.vCost) == 0 {
		f.vRank, f.vKind, f.vCost = nil, nil, nil
	}
	if len(f.multi) == 0 {
		f.multi, f.multiStart = nil, nil
	}
	if len(f.baseline) == 0 {
		f.baseline = nil
	}
	return f
}
