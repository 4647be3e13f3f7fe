package sensitivity

import (
	"math/rand/v2"
	"testing"
)

// TestMergeIsTheMergedRecording: merging classes of a graph gives the graph a
// recorder would have built with the merged terms (rebuilt here edge by edge
// through a Builder, which merges repeated classes in first-term order): the
// same T to the bit and the same slopes at every latency tried. This is what
// keeps emu sensitivity's one-ℓ report unchanged when the recorder splits ℓ
// per link class (cmd/emu TestSensitivityDefaultGolden).
func TestMergeIsTheMergedRecording(t *testing.T) {
	into := []uint8{0, 0, 1, 0} // classes 0, 1 and 3 are links, 2 a factor class
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 12))
		g := mustBuild(t, randomDAG(rng, 4, 300, 3, 4, seed%2 == 1))
		base := []float64{1e-6, 1e-6, 0.3e-6}
		m, err := g.Merge(into, base)
		if err != nil {
			t.Fatal(err)
		}
		b := NewBuilder(g.Ranks())
		for v := range g.NumVertices() {
			b.Vertex(g.Rank(VertexID(v)), g.Kind(VertexID(v)), g.Cost(VertexID(v)))
		}
		for v := range g.NumVertices() {
			first, end := g.InEdges(VertexID(v))
			for e := first; e < end; e++ {
				terms := g.EdgeLat(e, nil)
				for i := range terms {
					terms[i].Class = into[terms[i].Class]
				}
				b.EdgeBytes(g.EdgeFrom(e), VertexID(v), g.EdgeRest(e), g.EdgeBytes(e), terms...)
			}
		}
		b.SetBaseline(base)
		want := mustBuild(t, b)
		if m.Classes() != want.Classes() || len(m.Baseline()) != 3 {
			t.Fatalf("seed %d: %d classes, baseline %v; want %d classes", seed, m.Classes(), m.Baseline(), want.Classes())
		}
		for _, lat := range [][]float64{base, {0, 2e-6, 0}, {5e-6, 0, 1e-6}} {
			for c := range 2 {
				t1, l1, r1, by1 := m.Slopes(lat, c)
				t2, l2, r2, by2 := want.Slopes(lat, c)
				if t1 != t2 || l1 != l2 || r1 != r2 || by1 != by2 {
					t.Fatalf("seed %d, ℓ %v, class %d: merged T %v λ %d/%d bytes %v, recorded %v %d/%d %v",
						seed, lat, c, t1, l1, r1, by1, t2, l2, r2, by2)
				}
			}
		}
	}
}

// TestMergeBadClass: a class beyond MaxClass is an error, not a panic.
func TestMergeBadClass(t *testing.T) {
	g := mustBuild(t, randomDAG(rand.New(rand.NewPCG(1, 2)), 2, 20, 2, 2, false))
	if _, err := g.Merge([]uint8{MaxClass + 1}, nil); err == nil {
		t.Fatal("merging into class 255 did not fail")
	}
}
