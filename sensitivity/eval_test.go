package sensitivity

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Runtime keeps only finish times; its T must be the evaluator's, bit for
// bit, on graphs with ties, negative rests, several classes, latencies
// missing from lat, and the empty graph.
func TestRuntimeIsTheEvaluatorsT(t *testing.T) {
	tie := NewBuilder(2) // two paths of exactly equal length into one vertex
	a := tie.Vertex(0, Calc, 1e-6)
	b := tie.Vertex(1, Calc, 2e-6)
	c := tie.Vertex(0, Recv, 0)
	tie.Edge(a, c, 1e-6, LatTerm{0, 1})
	tie.Edge(b, c, 0)
	neg := NewBuilder(1) // a negative rest: the start stays at 0
	x := neg.Vertex(0, Calc, 0)
	y := neg.Vertex(0, Calc, 3e-6)
	neg.Edge(x, y, -5e-6)
	for _, tc := range []struct {
		name string
		b    *Builder
		lat  []float64
	}{
		{"tie", tie, []float64{1e-6}},
		{"negative rest", neg, []float64{1e-6}},
		{"empty", NewBuilder(3), []float64{1e-6}},
		{"random 4 classes", randomDAG(rand.New(rand.NewPCG(1, 2)), 8, 3000, 3, 4, false), []float64{1e-6, 2e-6, 0, 5e-7}},
		{"random, classes missing", randomDAG(rand.New(rand.NewPCG(3, 4)), 8, 3000, 3, 4, true), []float64{3e-6}},
		{"layered", layeredGraph(rand.New(rand.NewPCG(5, 6)), 16, 4000), []float64{2e-6}},
	} {
		g := mustBuild(t, tc.b)
		want, _, _, _ := g.Slopes(tc.lat, 0)
		for range 2 { // the second call reuses the buffer
			if got := g.Runtime(tc.lat); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s: Runtime %v, evaluator %v", tc.name, got, want)
			}
		}
	}
}
