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

// sameGraph compares everything a file keeps (not the builder ID map).
func sameGraph(t *testing.T, a, b *Graph) {
	t.Helper()
	a2, b2 := *a, *b
	a2.newID, b2.newID = nil, nil
	if len(a2.multiStart) == 1 && len(a2.multi) == 0 {
		a2.multi = nil
	}
	if len(b2.multiStart) == 1 && len(b2.multi) == 0 {
		b2.multi = nil
	}
	if !reflect.DeepEqual(norm(a2), norm(b2)) {
		t.Errorf("graphs differ:\n%+v\n%+v", a2, b2)
	}
}

// norm makes empty slices nil so DeepEqual compares contents only.
func norm(g Graph) Graph {
	if len(g.eFrom) == 0 {
		g.eFrom, g.eRest, g.eBytes, g.eLat = nil, nil, nil, nil
	}
	if len(g.vCost) == 0 {
		g.vRank, g.vKind, g.vCost = nil, nil, nil
	}
	if len(g.multi) == 0 {
		g.multi = nil
	}
	return g
}
