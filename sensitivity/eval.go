package sensitivity

import "math"

// tieRel is the relative difference (of times in s) below which two paths
// count as equally long. Sums along paths of millions of edges round
// differently; without it, a mathematical tie at a breakpoint would be
// decided by rounding and the left/right derivatives would come out wrong.
const tieRel = 1e-12

// point is the outcome of one longest-path evaluation at latency L of the
// swept class: T and its one-sided derivatives. Among all critical paths
// (those within tieRel of the longest), Left is the fewest latency terms of
// the class (the left derivative of the convex T) and Right the most (the
// right derivative).
type point struct {
	L     float64 // latency of the swept class, s
	T     float64 // runtime, s
	Left  int64   // ∂T/∂ℓ from the left
	Right int64   // ∂T/∂ℓ from the right
	Bytes float64 // bytes on the critical path with Right terms (λ_G)
	Sink  int32   // vertex where that path ends, -1 for an empty graph
}

// evaluator holds the per-vertex arrays of longest-path evaluations so that
// repeated evaluations of a big graph do not allocate.
type evaluator struct {
	g      *Graph
	lat    []float64 // ℓ per class, s; lat[class] is overwritten by each run
	class  uint8     // the swept class
	finish []float64 // finish time of each vertex, s
	cmin   []int64   // fewest class terms over critical paths into each vertex
	cmax   []int64   // most class terms
	bytes  []float64 // bytes on the cmax path
	pred   []int32   // edge chosen into each vertex on the cmax path, -1 if none (nil unless wanted)
}

func newEvaluator(g *Graph, lat []float64, class uint8) *evaluator {
	l := make([]float64, max(g.classes, int(class)+1, len(lat)))
	copy(l, lat)
	n := g.NumVertices()
	return &evaluator{g: g, lat: l, class: class, finish: make([]float64, n),
		cmin: make([]int64, n), cmax: make([]int64, n), bytes: make([]float64, n)}
}

// withPath makes the next runs record the critical path.
func (ev *evaluator) withPath() *evaluator {
	ev.pred = make([]int32, len(ev.finish))
	return ev
}

// acc accumulates the best of several candidate paths into one vertex.
type acc struct {
	t          float64
	cmin, cmax int64
	bytes      float64
	pred       int32
}

// add merges a candidate path, treating times within tieRel as equal.
func (a *acc) add(t float64, cmin, cmax int64, bytes float64, pred int32) {
	if math.IsInf(a.t, -1) {
		*a = acc{t, cmin, cmax, bytes, pred}
		return
	}
	d := t - a.t
	tol := tieRel * absMax(t, a.t)
	switch {
	case d > tol:
		*a = acc{t, cmin, cmax, bytes, pred}
	case d >= -tol:
		if t > a.t {
			a.t = t
		}
		a.cmin = min(a.cmin, cmin)
		if cmax > a.cmax || cmax == a.cmax && bytes > a.bytes {
			a.cmax, a.bytes, a.pred = cmax, bytes, pred
		}
	}
}

// run evaluates the longest path with the swept class at latency x.
// Every vertex starts no earlier than 0 (the LP's bound y_v ≥ cost_v).
func (ev *evaluator) run(x float64) point {
	g := ev.g
	ev.lat[ev.class] = x
	cl := ev.class
	finish, cmin, cmax, bytes := ev.finish, ev.cmin, ev.cmax, ev.bytes
	best := acc{t: math.Inf(-1), pred: -1}
	for v := range g.vCost {
		a := acc{pred: -1}
		for e := g.inStart[v]; e < g.inStart[v+1]; e++ {
			u := g.eFrom[e]
			cost, c := g.edgeCostCount(int(e), ev.lat, cl)
			a.add(finish[u]+cost, cmin[u]+c, cmax[u]+c, bytes[u]+g.eBytes[e], e)
		}
		finish[v], cmin[v], cmax[v], bytes[v] = a.t+g.vCost[v], a.cmin, a.cmax, a.bytes
		if ev.pred != nil {
			ev.pred[v] = a.pred
		}
		best.add(finish[v], a.cmin, a.cmax, a.bytes, int32(v))
	}
	if best.pred < 0 {
		return point{L: x, Sink: -1}
	}
	return point{L: x, T: best.t, Left: best.cmin, Right: best.cmax, Bytes: best.bytes, Sink: best.pred}
}

// Runtime is T for the latencies lat (s, indexed by class; missing classes
// are 0): the length of the longest path, which is the optimum of LLAMP's LP.
func (g *Graph) Runtime(lat []float64) float64 {
	ev := newEvaluator(g, lat, 0)
	return ev.run(ev.lat[0]).T
}

// FinishTimes returns each vertex's finish time (s, Graph order) for lat.
func (g *Graph) FinishTimes(lat []float64) []float64 {
	ev := newEvaluator(g, lat, 0)
	ev.run(ev.lat[0])
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
	p := ev.run(ev.lat[class])
	return p.T, p.Left, p.Right, p.Bytes
}

// asymptote is the line T approaches as the swept latency grows: the most
// class terms on any path (its slope) and, among the paths with that many,
// the largest constant part. T(ℓ) ≥ slope·ℓ + intercept for every ℓ ≥ 0,
// which bounds how far a tolerance search has to look.
func (ev *evaluator) asymptote() (slope int64, intercept float64) {
	g := ev.g
	cnt, b := ev.cmax, ev.finish // reused; the next run overwrites them
	lat := append([]float64(nil), ev.lat...)
	lat[ev.class] = 0
	best, bestB := int64(-1), 0.0
	for v := range g.vCost {
		var m int64
		var mb float64
		for e := g.inStart[v]; e < g.inStart[v+1]; e++ {
			u := g.eFrom[e]
			c := cnt[u] + int64(g.latCount(int(e), ev.class))
			cb := b[u] + g.edgeCost(int(e), lat)
			if c > m || c == m && cb > mb {
				m, mb = c, cb
			}
		}
		cnt[v], b[v] = m, mb+g.vCost[v]
		if m > best || m == best && b[v] > bestB {
			best, bestB = m, b[v]
		}
	}
	return max(best, 0), bestB
}
