package sensitivity

import (
	"math"
	"math/bits"
)

// The parametric pass: one sweep over the graph in topological order that
// computes every vertex's finish time as a function of the swept latency on
// [lo, hi] — convex and piecewise linear, the maximum of its paths' lines —
// and so yields all critical latencies of T at once, however many there
// are. Its cost is O(Σ pieces over the edges), against two O(V+E) passes per
// breakpoint for the line-intersection search, which remains the fallback
// when the live functions would not fit the memory budget.

// piece says that from x on (up to the next piece) the function has slope s.
type piece struct {
	x float64
	s int64
}

// plf is a convex piecewise-linear function on [lo, hi]: value v0 at lo,
// slope s0 until the first piece.
type plf struct {
	v0 float64
	s0 int64
	p  []piece
	// The value at hi and the last slope, kept for the O(1) dominance test.
	vHi   float64
	sLast int64
}

// view is a plf shifted by an edge: add to every value, c to every slope.
type view struct {
	f   *plf
	add float64 // added to the value at lo (edge rest + c·lo)
	c   int64
}

// maxLivePieces bounds the pieces the parametric pass may hold at once
// (16 bytes each, so 1 GiB): beyond it, Analyze falls back to the line
// search. A variable only so that a test can force the fallback.
var maxLivePieces = 64 << 20

// piecePool recycles piece slices by power-of-two capacity.
type piecePool struct{ free [40][][]piece }

func (pp *piecePool) get(n int) []piece {
	b := bits.Len(uint(n - 1))
	if l := len(pp.free[b]); l > 0 {
		s := pp.free[b][l-1]
		pp.free[b] = pp.free[b][:l-1]
		return s[:0]
	}
	return make([]piece, 0, 1<<b)
}

func (pp *piecePool) put(s []piece) {
	if cap(s) == 0 {
		return
	}
	b := bits.Len(uint(cap(s) - 1))
	if 1<<b != cap(s) {
		return // not ours
	}
	pp.free[b] = append(pp.free[b], s[:0])
}

// at returns the view's value at lo and hi and its first and last slopes.
func (w view) ends(lo, hi float64) (vlo, vhi float64, s0, sl int64) {
	return w.f.v0 + w.add, w.f.vHi + w.add + float64(w.c)*(hi-lo), w.f.s0 + w.c, w.f.sLast + w.c
}

// dominates reports, in O(1), a sufficient condition for a ≥ b on all of
// [lo, hi]: a lies above its two end tangents (convexity), b below its
// chord, and the difference of those bounds is convex, so checking it at
// lo, hi and where the tangents cross settles it. Most edges of a real
// graph join a function that dominates the other, and then no merge runs.
func dominates(a, b view, lo, hi float64) bool {
	if hi <= lo {
		return a.f.v0+a.add >= b.f.v0+b.add
	}
	alo, ahi, as0, asl := a.ends(lo, hi)
	blo, bhi, _, _ := b.ends(lo, hi)
	lower := func(x float64) float64 {
		return math.Max(alo+float64(as0)*(x-lo), ahi-float64(asl)*(hi-x))
	}
	chord := func(x float64) float64 { return blo + (bhi-blo)*(x-lo)/(hi-lo) }
	if lower(lo) < blo || lower(hi) < bhi {
		return false
	}
	if as0 == asl {
		return true // a is a line, b convex below its chord
	}
	// The tangents cross where alo + as0(x−lo) = ahi − asl(hi−x).
	x := (ahi - alo - float64(asl)*hi + float64(as0)*lo) / float64(as0-asl)
	if x <= lo || x >= hi {
		return true
	}
	return lower(x) >= chord(x)
}

// merger builds max(a, b) for two views, appending the pieces to out.
type merger struct {
	lo, hi float64
	xEps   float64 // breakpoints closer than this to the previous one merge
	out    []piece
	v0     float64
	s0     int64
	vHi    float64 // value at hi
}

// result stores the merged function in f, reusing f's pieces.
func (m *merger) result(f *plf, pool *piecePool) {
	f.v0, f.s0, f.vHi = m.v0, m.s0, m.vHi
	f.sLast = m.s0
	if n := len(m.out); n > 0 {
		f.sLast = m.out[n-1].s
		if cap(f.p) < n {
			pool.put(f.p)
			f.p = pool.get(n)
		}
		f.p = append(f.p[:0], m.out...)
	} else {
		f.p = f.p[:0]
	}
}

// copyShifted sets f to the view w, reusing f's pieces.
func copyShifted(f *plf, w view, lo, hi float64, pool *piecePool) {
	vlo, vhi, s0, sl := w.ends(lo, hi)
	if n := len(w.f.p); n > 0 && cap(f.p) < n {
		pool.put(f.p)
		f.p = pool.get(n)
	}
	f.p = f.p[:0]
	for _, p := range w.f.p {
		f.p = append(f.p, piece{p.x, p.s + w.c})
	}
	f.v0, f.vHi, f.s0, f.sLast = vlo, vhi, s0, sl
}

func (m *merger) emit(x float64, s int64, first bool) {
	if first {
		m.s0 = s
		return
	}
	n := len(m.out)
	if n > 0 && x-m.out[n-1].x <= m.xEps {
		m.out[n-1].s = s // a vanishing piece: replace it
		prev := m.s0
		if n > 1 {
			prev = m.out[n-2].s
		}
		if prev == s {
			m.out = m.out[:n-1]
		}
		return
	}
	if x-m.lo <= m.xEps && n == 0 {
		m.s0 = s
		return
	}
	last := m.s0
	if n > 0 {
		last = m.out[n-1].s
	}
	if s != last {
		m.out = append(m.out, piece{x, s})
	}
}

// merge sets m's result to max(a, b) on [lo, hi].
func (m *merger) merge(a, b view) {
	m.out = m.out[:0]
	pos := m.lo
	fa, fb := a.f.v0+a.add, b.f.v0+b.add
	sa, sb := a.f.s0+a.c, b.f.s0+b.c
	ia, ib := 0, 0
	first := true
	m.v0 = math.Max(fa, fb)
	for {
		na, nb := m.hi, m.hi
		if ia < len(a.f.p) {
			na = a.f.p[ia].x
		}
		if ib < len(b.f.p) {
			nb = b.f.p[ib].x
		}
		q := na
		if nb < q {
			q = nb
		}
		d0 := fa - fb
		ga, gb := fa+float64(sa)*(q-pos), fb+float64(sb)*(q-pos)
		d1 := ga - gb
		tol0 := tieRel * absMax(fa, fb)
		tol1 := tieRel * absMax(ga, gb)
		aWins := d0 > tol0 || d0 >= -tol0 && sa >= sb
		switch {
		case aWins && d1 < -tol1: // b overtakes inside the segment
			m.emit(pos, sa, first)
			m.emit(pos+d0/float64(sb-sa), sb, false)
		case !aWins && d1 > tol1: // a overtakes
			m.emit(pos, sb, first)
			m.emit(pos+d0/float64(sb-sa), sa, false)
		case aWins:
			m.emit(pos, sa, first)
		default:
			m.emit(pos, sb, first)
		}
		first = false
		if q >= m.hi {
			m.vHi = ga
			if gb > ga {
				m.vHi = gb
			}
			return
		}
		fa, fb, pos = ga, gb, q
		if q == na {
			sa = a.f.p[ia].s + a.c
			ia++
		}
		if q == nb {
			sb = b.f.p[ib].s + b.c
			ib++
		}
	}
}

// absMax is max(|a|, |b|) without math.Max's NaN and signed-zero care.
func absMax(a, b float64) float64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	if a > b {
		return a
	}
	return b
}

// minValue is the smallest value of f on [lo, hi].
func (f *plf) minValue(lo, hi float64) float64 {
	v, m, x, s := f.v0, f.v0, lo, f.s0
	for _, p := range f.p {
		v += float64(s) * (p.x - x)
		m = math.Min(m, v)
		x, s = p.x, p.s
	}
	return math.Min(m, v+float64(s)*(hi-x))
}

// plfStore keeps the functions of the vertices whose out-edges are not all
// consumed yet. The scalar parts live in the evaluator's frontier records
// (free during a parametric pass), at the vertex's slot of the evaluator's
// plan: v0 in finish, vHi in bytes, s0 in cmin and in cmax the index of
// the pieces in slots (0 for none; sLast is the last piece's slope, or
// s0). The pieces live in slots, reused through a free list, so memory
// grows with the live frontier, not with V. The plan says which out-edge
// of a vertex is its last, after which its pieces go back.
type plfStore struct {
	st    []vstate  // per frontier slot
	slots [][]piece // slots[0] unused
	free  []int32
}

// load is the function kept at frontier slot s.
func (st *plfStore) load(s uint32) plf {
	r := &st.st[s]
	f := plf{v0: r.finish, vHi: r.bytes, s0: r.cmin, sLast: r.cmin}
	if k := r.cmax; k != 0 {
		f.p = st.slots[k]
		f.sLast = f.p[len(f.p)-1].s
	}
	return f
}

// save stores f at frontier slot s.
func (st *plfStore) save(s uint32, f plf) {
	r := &st.st[s]
	*r = vstate{finish: f.v0, bytes: f.vHi, cmin: f.s0}
	if len(f.p) == 0 {
		return
	}
	var k int32
	if n := len(st.free); n > 0 {
		k = st.free[n-1]
		st.free = st.free[:n-1]
	} else {
		k = int32(len(st.slots))
		st.slots = append(st.slots, nil)
	}
	st.slots[k] = f.p
	r.cmax = int64(k)
}

// release returns the pieces kept at frontier slot s to the pool.
func (st *plfStore) release(s uint32, pool *piecePool) int {
	k := st.st[s].cmax
	if k == 0 {
		return 0
	}
	n := len(st.slots[k])
	pool.put(st.slots[k])
	st.slots[k] = nil
	st.st[s].cmax = 0
	st.free = append(st.free, int32(k))
	return n
}

// parametric computes the pieces of T on [lo, hi] (as hull does), or ok =
// false if the live functions outgrow maxLivePieces. It overwrites the
// evaluator's per-vertex arrays.
func (ev *evaluator) parametric(lo, hi float64) (pieces []Breakpoint, ok bool) {
	g := ev.g
	nv := g.NumVertices()
	negOut := ev.plan.negOut
	keep := func(v int32) bool { return negOut != nil && negOut[v] }
	lat := append([]float64(nil), ev.lat...)
	lat[ev.class] = 0 // the swept class enters through the slopes
	st := &plfStore{st: ev.st, slots: [][]piece{nil}}
	pool := &piecePool{}
	m := &merger{lo: lo, hi: hi, xEps: tieRel * math.Max(math.Abs(lo), math.Abs(hi))}
	var acc, total plf
	haveTotal := false
	live := 0
	var from, pay []uint32 // edge cursor (column.go): the blocks of eSlot and ePay that hold edge e
	e, e0, next := 0, 0, 0 // the next edge, the index of from[0], the next block
	for v := int32(0); v < int32(nv); v++ {
		end := int(g.inStart.at(int(v) + 1))
		acc = plf{}
		negIn := false
		for first := e; e < end; {
			if e-e0 == len(from) {
				e0 += len(from)
				from, pay = ev.plan.eSlot.blocks[next], g.ePay.blocks[next]
				next++
			}
			stop := min(end-e0, len(from))
			for k := e - e0; k < stop; k++ {
				w := from[k]
				fu := st.load(w >> 1)
				cost, c := g.payCostCount(pay[k], lat, ev.class) // lat[class] = 0
				vw := view{f: &fu, add: cost + float64(c)*lo, c: c}
				negIn = negIn || g.pay.rest[pay[k]] < 0
				switch {
				case e0+k == first:
					copyShifted(&acc, vw, lo, hi, pool)
				case dominates(view{f: &acc}, vw, lo, hi):
					// acc stays as it is
				case dominates(vw, view{f: &acc}, lo, hi):
					copyShifted(&acc, vw, lo, hi, pool)
				default:
					m.merge(view{f: &acc}, vw)
					m.result(&acc, pool)
				}
				// The source's last out-edge: its pieces go back, unless
				// it may end the run (keep).
				if w&1 != 0 && st.st[w>>1].cmax != 0 && !keep(g.eFrom.at(e0+k)) {
					live -= st.release(w>>1, pool)
				}
			}
			e = e0 + stop
		}
		if negIn && acc.minValue(lo, hi) < 0 { // start times are ≥ 0
			zero := plf{}
			m.merge(view{f: &acc}, view{f: &zero})
			m.result(&acc, pool)
		}
		acc.v0 += g.vtab.cost[g.vPay.at(int(v))]
		acc.vHi += g.vtab.cost[g.vPay.at(int(v))]
		if len(acc.p) == 0 {
			pool.put(acc.p)
			acc.p = nil
		}
		vs := ev.plan.vSlot.at(int(v))
		st.save(vs>>1, acc)
		live += len(acc.p)
		if live > maxLivePieces {
			return nil, false
		}
		noOut := vs&1 != 0
		if noOut || keep(v) {
			switch {
			case !haveTotal:
				copyShifted(&total, view{f: &acc}, lo, hi, pool)
				haveTotal = true
			case dominates(view{f: &total}, view{f: &acc}, lo, hi):
			default:
				m.merge(view{f: &total}, view{f: &acc})
				m.result(&total, pool)
			}
			if noOut {
				live -= st.release(vs>>1, pool)
			}
		}
	}
	pieces = []Breakpoint{{L: lo, T: total.v0, LambdaLeft: total.s0, LambdaRight: total.s0}}
	x, t, sl := lo, total.v0, total.s0
	for _, p := range total.p {
		t += float64(sl) * (p.x - x)
		pieces = append(pieces, Breakpoint{L: p.x, T: t, LambdaLeft: sl, LambdaRight: p.s})
		x, sl = p.x, p.s
	}
	return pieces, true
}
