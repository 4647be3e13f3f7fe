package sensitivity

import "math"

// tieRel is the relative difference (of times in s) below which two paths
// count as equally long. Sums along paths of millions of edges round
// differently; without it, a mathematical tie at a breakpoint would be
// decided by rounding and the left/right derivatives would come out wrong.
const tieRel = 1e-12

// direction selects which critical path wins a tie: the one with the most
// latency terms (right derivative of T) or the fewest (left derivative).
type direction int8

const (
	rightSlope direction = +1
	leftSlope  direction = -1
)

// point is the outcome of one longest-path evaluation.
type point struct {
	L     float64 // value of the swept class's latency, s
	T     float64 // runtime, s
	Slope int64   // latency terms of the swept class on the chosen critical path
	Bytes float64 // bytes on that path (λ_G)
	Sink  int32   // vertex where the critical path ends
}

// evaluator holds the per-vertex arrays of longest-path evaluations so that
// repeated evaluations of a big graph do not allocate.
type evaluator struct {
	g      *Graph
	lat    []float64 // ℓ per class, s; lat[class] is overwritten by each run
	class  uint8     // the swept class
	finish []float64 // finish time of each vertex, s
	count  []int64   // class terms on the chosen path into each vertex
	bytes  []float64 // bytes on that path
	pred   []int32   // edge index chosen into each vertex, -1 if none (nil unless wanted)
}

func newEvaluator(g *Graph, lat []float64, class uint8) *evaluator {
	l := make([]float64, max(g.classes, int(class)+1, len(lat)))
	copy(l, lat)
	n := g.NumVertices()
	return &evaluator{g: g, lat: l, class: class,
		finish: make([]float64, n), count: make([]int64, n), bytes: make([]float64, n)}
}

// better reports whether candidate (t, c, by) beats the incumbent (bt, bc, bby)
// under dir, treating times within tieRel as equal.
func better(t float64, c int64, by float64, bt float64, bc int64, bby float64, dir direction) bool {
	d := t - bt
	tol := tieRel * math.Max(math.Abs(t), math.Abs(bt))
	if d > tol {
		return true
	}
	if d < -tol {
		return false
	}
	if c != bc {
		return (c > bc) == (dir == rightSlope)
	}
	return by > bby
}

// run evaluates the longest path with the swept class at latency x.
// Every vertex starts no earlier than 0 (the LP's bound y_v ≥ cost_v).
func (ev *evaluator) run(x float64, dir direction) point {
	g := ev.g
	ev.lat[ev.class] = x
	cl := ev.class
	finish, count, bytes := ev.finish, ev.count, ev.bytes
	best := point{L: x, T: math.Inf(-1), Sink: -1}
	for v := range g.vCost {
		bt, bc, bb, bp := 0.0, int64(0), 0.0, int32(-1)
		for e := g.inStart[v]; e < g.inStart[v+1]; e++ {
			u := g.eFrom[e]
			t := finish[u] + g.edgeCost(int(e), ev.lat)
			c := count[u] + int64(g.latCount(int(e), cl))
			by := bytes[u] + g.eBytes[e]
			if better(t, c, by, bt, bc, bb, dir) {
				bt, bc, bb, bp = math.Max(t, bt), c, by, e
			} else {
				bt = math.Max(t, bt)
			}
		}
		f := bt + g.vCost[v]
		finish[v], count[v], bytes[v] = f, bc, bb
		if ev.pred != nil {
			ev.pred[v] = bp
		}
		if better(f, bc, bb, best.T, best.Slope, best.Bytes, dir) {
			best.T, best.Slope, best.Bytes, best.Sink = math.Max(f, best.T), bc, bb, int32(v)
		} else {
			best.T = math.Max(f, best.T)
		}
	}
	if best.Sink < 0 {
		best.T = 0
	}
	return best
}

// Runtime is T for the latencies lat (s, indexed by class; missing classes
// are 0): the length of the longest path, which is the optimum of LLAMP's LP.
func (g *Graph) Runtime(lat []float64) float64 {
	ev := newEvaluator(g, lat, 0)
	var x float64
	if len(lat) > 0 {
		x = lat[0]
	}
	return ev.run(x, rightSlope).T
}

// FinishTimes returns each vertex's finish time (s, Graph order) for lat.
func (g *Graph) FinishTimes(lat []float64) []float64 {
	ev := newEvaluator(g, lat, 0)
	var x float64
	if len(lat) > 0 {
		x = lat[0]
	}
	ev.run(x, rightSlope)
	return ev.finish
}

// Slopes returns T at lat and its left and right derivatives with respect to
// the latency of class (counts of class terms on the critical paths), and the
// bytes on the right-derivative critical path (∂T/∂G when rest holds bytes·G).
func (g *Graph) Slopes(lat []float64, class int) (t float64, left, right int64, bytes float64) {
	if class < 0 || class > MaxClass {
		return math.NaN(), 0, 0, math.NaN()
	}
	ev := newEvaluator(g, lat, uint8(class))
	x := ev.lat[class]
	r := ev.run(x, rightSlope)
	l := ev.run(x, leftSlope)
	return r.T, l.Slope, r.Slope, r.Bytes
}
