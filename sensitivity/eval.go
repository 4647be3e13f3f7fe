package sensitivity

import (
	"math"
	"sync"
)

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

// evaluator holds the state of longest-path evaluations so that repeated
// evaluations of a big graph do not allocate: each vertex's state lives in
// a slot of a small frontier array while its out-edges are still to be
// read (slotPlan), not in a record per vertex.
type evaluator struct {
	g     *Graph
	lat   []float64 // ℓ per class, s; lat[class] is overwritten by each run
	class uint8     // the swept class
	plan  *slotPlan
	st    []vstate // per slot (plan)
	pred  []int32  // edge chosen into each vertex on the cmax path, -1 if none (nil unless wanted)
}

// vstate is what an evaluation keeps of one vertex, in one 32-byte record:
// an edge reads all of its source's fields. The parametric pass keeps its
// functions' scalar parts here too (plfStore).
type vstate struct {
	finish float64 // finish time, s
	bytes  float64 // bytes on the cmax path
	cmin   int64   // fewest class terms over critical paths into the vertex
	cmax   int64   // most class terms
}

func newEvaluator(g *Graph, lat []float64, class uint8) *evaluator {
	l := make([]float64, max(g.classes, int(class)+1, len(lat)))
	copy(l, lat)
	plan := newSlotPlan(g)
	return &evaluator{g: g, lat: l, class: class, plan: plan, st: make([]vstate, plan.slots)}
}

// withPath makes the next runs record the critical path.
func (ev *evaluator) withPath() *evaluator {
	ev.pred = make([]int32, ev.g.NumVertices())
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
	st := ev.st
	best := acc{t: math.Inf(-1), pred: -1}
	var from, pay []uint32 // edge cursor (column.go): the blocks of eSlot and ePay that hold edge e
	e, e0, next := 0, 0, 0 // the next edge, the index of from[0], the next block
	for b, vp := range g.vPay.blocks {
		is := g.inStart.blocks[b]
		vs := ev.plan.vSlot.blocks[b][:len(vp)]
		for j, vpay := range vp {
			v := b<<blockBits + j
			end := g.inEnd(is, j, v)
			a := acc{pred: -1}
			for e < end {
				if e-e0 == len(from) {
					e0 += len(from)
					from, pay = ev.plan.eSlot.blocks[next], g.ePay.blocks[next]
					next++
				}
				stop := min(end-e0, len(from))
				ps := pay[e-e0 : stop]
				for i, w := range from[e-e0 : stop] {
					p := ps[i]
					us := &st[w>>1]
					// payCostCount inline but for multi-term edges.
					cost, c := g.pay.rest[p], int64(0)
					if lw := g.pay.lat[p]; lw>>24 == multiClass {
						cost, c = g.latCost(p, lw, ev.lat, cl)
					} else if lw != 0 {
						n, k := lw&maxTermCount, uint8(lw>>24)
						if int(k) < len(ev.lat) {
							cost += float64(n) * ev.lat[k]
						}
						if k == cl {
							c = int64(n)
						}
					}
					// a.add, its common cases inline: a longer path
					// replaces a, a shorter one leaves it; a tie (within
					// tieRel), a NaN or an a at -Inf (best's start) go to
					// add, as neither test holds for them.
					t := us.finish + cost
					if d, tol := t-a.t, tieRel*absMax(t, a.t); d > tol {
						a = acc{t, us.cmin + c, us.cmax + c, us.bytes + g.pay.bytes[p], int32(e + i)}
					} else if !(d < -tol) {
						a.add(t, us.cmin+c, us.cmax+c, us.bytes+g.pay.bytes[p], int32(e+i))
					}
				}
				e = e0 + stop
			}
			f := a.t + g.vtab.cost[vpay]
			st[vs[j]>>1] = vstate{finish: f, bytes: a.bytes, cmin: a.cmin, cmax: a.cmax}
			if ev.pred != nil {
				ev.pred[v] = a.pred
			}
			if d, tol := f-best.t, tieRel*absMax(f, best.t); d > tol { // best.add, inline as a's
				best = acc{f, a.cmin, a.cmax, a.bytes, int32(v)}
			} else if !(d < -tol) {
				best.add(f, a.cmin, a.cmax, a.bytes, int32(v))
			}
		}
	}
	if best.pred < 0 {
		return point{L: x, Sink: -1}
	}
	return point{L: x, T: best.t, Left: best.cmin, Right: best.cmax, Bytes: best.bytes, Sink: best.pred}
}

// Runtime is T for the latencies lat (s, indexed by class; missing classes
// are 0): the length of the longest path, which is the optimum of LLAMP's LP.
//
// It keeps one finish time per vertex, not an evaluator's state, in a
// buffer reused across calls: searches call it tens of times on one graph
// (emu analyze's factor-scaled tolerances), and a fresh 32-byte record per
// vertex each time was most of what analyze allocated (docs/evidence/graphmem.md).
// T is the same bits as run's: run's accumulators take the exact maximum of
// their candidates (ties only choose the derivatives), and so does this.
func (g *Graph) Runtime(lat []float64) float64 {
	l := make([]float64, max(g.classes, 1, len(lat)))
	copy(l, lat)
	bp := finishPool.Get().(*[]float64)
	nv := g.vRank.len()
	if cap(*bp) < nv {
		*bp = make([]float64, nv)
	}
	t := g.finishInto((*bp)[:nv], l)
	finishPool.Put(bp)
	return t
}

// finishInto sets finish (one entry per vertex) to each vertex's finish
// time for the latencies l and returns the longest, T.
func (g *Graph) finishInto(finish, l []float64) float64 {
	t := 0.0
	var from []int32 // edge cursor (column.go): the blocks of eFrom and ePay that hold edge e
	var pay []uint32
	e, e0, next := 0, 0, 0 // the next edge, the index of from[0], the next block
	for b, vp := range g.vPay.blocks {
		is := g.inStart.blocks[b]
		for j, vpay := range vp {
			v := b<<blockBits + j
			end := g.inEnd(is, j, v)
			start := 0.0
			for e < end {
				if e-e0 == len(from) {
					e0 += len(from)
					from, pay = g.eFrom.blocks[next], g.ePay.blocks[next]
					next++
				}
				stop := min(end-e0, len(from))
				ps := pay[e-e0 : stop]
				for i, u := range from[e-e0 : stop] {
					p := ps[i]
					cost := g.pay.rest[p] // payCost, its call made only for latency terms
					if g.pay.lat[p] != 0 {
						cost = g.payCost(p, l)
					}
					if c := finish[u] + cost; c > start {
						start = c
					}
				}
				e = e0 + stop
			}
			f := start + g.vtab.cost[vpay]
			finish[v] = f
			if v == 0 || f > t {
				t = f
			}
		}
	}
	return t
}

// finishPool holds Runtime's finish-time buffers.
var finishPool = sync.Pool{New: func() any { return new([]float64) }}

// FinishTimes returns each vertex's finish time (s, Graph order) for lat.
func (g *Graph) FinishTimes(lat []float64) []float64 {
	l := make([]float64, max(g.classes, 1, len(lat)))
	copy(l, lat)
	f := make([]float64, g.NumVertices())
	g.finishInto(f, l)
	return f
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
	st := ev.st // reused: cmax counts, finish the constant part; the next run overwrites them
	lat := append([]float64(nil), ev.lat...)
	lat[ev.class] = 0
	best, bestB := int64(-1), 0.0
	var from, pay []uint32 // edge cursor (column.go): the blocks of eSlot and ePay that hold edge e
	e, e0, next := 0, 0, 0 // the next edge, the index of from[0], the next block
	for b, vp := range g.vPay.blocks {
		is := g.inStart.blocks[b]
		vs := ev.plan.vSlot.blocks[b][:len(vp)]
		for j, vpay := range vp {
			end := g.inEnd(is, j, b<<blockBits+j)
			var m int64
			var mb float64
			for e < end {
				if e-e0 == len(from) {
					e0 += len(from)
					from, pay = ev.plan.eSlot.blocks[next], g.ePay.blocks[next]
					next++
				}
				stop := min(end-e0, len(from))
				for k := e - e0; k < stop; k++ {
					us := &st[from[k]>>1]
					c := us.cmax + int64(g.latCountWord(g.pay.lat[pay[k]], ev.class))
					cb := us.finish + g.payCost(pay[k], lat)
					if c > m || c == m && cb > mb {
						m, mb = c, cb
					}
				}
				e = e0 + stop
			}
			f := mb + g.vtab.cost[vpay]
			st[vs[j]>>1].cmax, st[vs[j]>>1].finish = m, f
			if m > best || m == best && f > bestB {
				best, bestB = m, f
			}
		}
	}
	return max(best, 0), bestB
}
