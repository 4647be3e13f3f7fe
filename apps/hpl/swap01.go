package hpl

import (
	"math/bits"

	"github.com/emu-hpc/emu/ranks"
)

// swapSpreadRoll is HPL_pdlaswp01N/T, the spread-roll row swap over n columns
// (hpl.md §7.3).
func (pn *panel) swapSpreadRoll(pr *prober, n int) {
	s := pn.s
	jb := pn.jb
	n = min(n, pn.n)
	if n <= 0 || jb <= 0 {
		return
	}
	equil := s.p.Equilibration
	x := &pn.swp
	switch x.iflag {
	case -1:
		pn.moves()
		pn.plindx1()
	case 0:
		pn.plindx1()
	}
	x.iflag = 1
	// The offsets as HPL_plindx1 left them: unchanged since unless
	// equilibration rewrote them, when HPL recomputes them (HPL_plindx10).
	x.iplen = append(x.iplen[:0], x.sp.off...)
	w := swapCtx{pn: pn, n: n, u: pn.u}
	myrow := s.g.myrow
	if myrow == pn.prow {
		w.laswp01(x.ipA, x.lindxA1, x.lindxU1)
	}
	w.spread(pr, true, 0, x.iplen, x.ipmap, x.ipmapm1)
	if myrow != pn.prow {
		k := x.ipmapm1[myrow]
		w.laswp06(x.iplen[k+1]-x.iplen[k], x.iplen[k], x.lindxA1)
	}
	if equil {
		w.equil(pr, &x.sp.eq, x.iplen, x.ipmap, x.ipmapm1)
	}
	w.roll(pr, x.iplen, x.ipmap, x.ipmapm1)
	w.laswpU(x.permU)
}

// piece sends or receives U rows [from, from+rows) of this call.
func (w swapCtx) sendRows(dst, from, rows int) {
	c := w.pn.s.g.col
	var data []float64
	if w.u != nil {
		data = w.packRows(from, rows)
	}
	c.send(dst, tagPfact, rows*w.n*bytesPerDouble, data)
}

func (w swapCtx) packRows(from, rows int) []float64 {
	out := make([]float64, 0, rows*w.n)
	for c := range w.n {
		for r := from; r < from+rows; r++ {
			out = append(out, w.uRow(r).get(c))
		}
	}
	return out
}

func (w swapCtx) unpackRows(from, rows int, data []float64) {
	if w.u == nil || data == nil {
		return
	}
	i := 0
	for c := range w.n {
		for r := from; r < from+rows; r++ {
			w.uRow(r).set(c, data[i])
			i++
		}
	}
}

// spread is HPL_spreadN/T: a binomial spread of U pieces over positions, to the
// right (positions src … P−1) or to the left (0 … src), offsets off[0..P].
func (w swapCtx) spread(pr *prober, right bool, src int, off, ipmap, ipmapm1 []int) {
	g := w.pn.s.g
	c := g.col
	P := g.p
	my := ipmapm1[g.myrow]
	var npm1, nprow, mydist int
	if right {
		nprow = P - src
		npm1 = nprow - 1
		if my < src || npm1 == 0 {
			return
		}
		mydist = my - src
	} else {
		npm1 = src
		nprow = src + 1
		if my > src || npm1 == 0 {
			return
		}
		mydist = npm1 - my
	}
	ip2, mask := 1, 1
	for k := npm1; k > 1; k >>= 1 {
		ip2 <<= 1
		mask = mask<<1 + 1
	}
	mydist2 := mydist
	il := ip2
	if !right {
		il = npm1 - ip2
	}
	lgth := off[P]
	for ip2 > 0 {
		mask ^= ip2
		if mydist&mask == 0 {
			var ibuf, lbuf int
			if right {
				k := il
				ibuf = lgth
				if k < nprow {
					ibuf = off[src+k]
				}
				k = il + ip2
				end := lgth
				if k < nprow {
					end = off[src+k]
				}
				lbuf = end - ibuf
			} else if il+1 >= 0 {
				ibuf = off[il-min(il, ip2)]
				lbuf = off[il+1] - ibuf
			}
			// else: HPL reads before the offsets here, but only on a rank whose
			// partner lies beyond the group, so no message depends on it (checked
			// exhaustively for groups up to 300 positions).
			if lbuf > 0 {
				partner := mydist ^ ip2
				peer := func() int {
					if right {
						return ipmap[src+partner]
					}
					return ipmap[npm1-partner]
				}
				if mydist&ip2 != 0 {
					w.unpackRows(ibuf, lbuf, c.recv(peer(), tagPfact))
				} else if partner < nprow {
					w.sendRows(peer(), ibuf, lbuf)
				}
			}
		}
		if right {
			if mydist2 < ip2 {
				ip2 >>= 1
				il -= ip2
			} else {
				mydist2 -= ip2
				ip2 >>= 1
				il += ip2
			}
		} else {
			if mydist2 < ip2 {
				ip2 >>= 1
				il += ip2
			} else {
				mydist2 -= ip2
				ip2 >>= 1
				il -= ip2
			}
		}
		pr.poll()
	}
}

// roll is HPL_rollN/T: P−1 neighbour exchanges of U pieces.
func (w swapCtx) roll(pr *prober, off, ipmap, ipmapm1 []int) {
	if w.n <= 0 {
		return
	}
	g := w.pn.s.g
	c := g.col
	P := g.p
	my := ipmapm1[g.myrow]
	prev, next := ipmap[modSub(my, 1, P)], ipmap[modAdd(my, 1, P)]
	if pr.idle() {
		// Nothing to drive between the steps: the P−1 exchanges run as a
		// task (ranks.Comm.SendRecvs), as the long broadcast's roll does.
		x := &w.pn.s.rollX
		*x = swapRoll{w: w, my: my, p: P, off: off, prev: prev, next: next, busy: x.busy[:0]}
		c.sendRecvs(P-1, tagPfact, x)
		*x = swapRoll{busy: x.busy[:0]} // drops the panel and the offsets
		return
	}
	for k := 0; k < P-1; k++ {
		si, ri, partner := rollStep(my, k, P, prev, next)
		sb, sl := off[si], off[si+1]-off[si]
		rb, rl := off[ri], off[ri+1]-off[ri]
		var req waiter
		if rl > 0 {
			req = c.irecv(partner, tagPfact)
		}
		if sl > 0 {
			w.sendRows(partner, sb, sl)
		}
		if req != nil {
			w.unpackRows(rb, rl, req.wait())
		}
		pr.poll()
	}
}

// equil is HPL_equil: rebalance the pieces to ⌊jb/P⌋ or ⌈jb/P⌉ rows before the
// roll (skipped for P ≤ 2 or when the first P−1 pieces are balanced, as
// HPL 2.3 tests it); off becomes the targets.
// Its spreads' offsets depend on the offsets alone, which are the panel's
// (swapSpreadRoll copies them in), so e, the panel's plan, is made once.
func (w swapCtx) equil(pr *prober, e *equilPlan, off, ipmap, ipmapm1 []int) {
	P := w.pn.s.g.p
	if P-1 <= 1 {
		return
	}
	if !e.built {
		e.build(off, P)
	}
	if e.balanced {
		return
	}
	for k, st := range e.steps {
		iw := e.offs[k*(P+1) : (k+1)*(P+1)]
		if st.left {
			w.spread(pr, false, st.src, iw, ipmap, ipmapm1)
		}
		if st.right {
			w.spread(pr, true, st.src, iw, ipmap, ipmapm1)
		}
	}
	copy(off[:P], e.targets)
}

// equilPlan is HPL_equil's work for one set of offsets: the spreads it
// makes, in order, with their offsets, and the offsets it leaves.
type equilPlan struct {
	built, balanced bool
	steps           []equilStep
	offs            []int // each step's offsets, P+1 a step
	targets         []int // the balanced pieces' offsets, P
}

// equilStep spreads process row src's piece to the left, the right or both.
type equilStep struct {
	src         int
	left, right bool
}

// build plans HPL_equil for offsets off[0..P], reusing e's arrays.
func (e *equilPlan) build(off []int, P int) {
	npm1 := P - 1
	slen := off[P]
	smax := (slen + npm1) / P
	smin := slen / P
	ip := slen - P*smin
	e.built, e.balanced = true, true
	if cap(e.steps) < P { // at their largest at once
		e.steps, e.offs, e.targets = make([]equilStep, 0, P), make([]int, 0, P*(P+1)), make([]int, 0, P)
	}
	e.steps, e.offs = e.steps[:0], e.offs[:0]
	// HPL 2.3's test looks at the first P−1 pieces only: its loop ends, as
	// when all are balanced, once it has read the last piece, whatever that
	// piece's size. A last piece of neither size is left as it is, and the
	// roll moves the pieces as they are.
	for i := range P - 1 {
		if ll := off[i+1] - off[i]; ll != smin && ll != smax {
			e.balanced = false
			break
		}
	}
	if e.balanced {
		return
	}
	target := func(i int) (beg, cnt int) {
		if i < ip {
			return i * smax, smax
		}
		return i*smin + ip, smin
	}
	for iprow := range P {
		ipU := off[iprow]
		llU := off[iprow+1] - ipU
		tb, tc := target(iprow)
		left := ipU < tb
		right := tb+tc < ipU+llU
		if llU <= 0 || (!left && !right) {
			continue
		}
		ipcur, llcur := ipU, llU
		for i := range P {
			b, cnt := target(i)
			last := b + cnt - 1
			ll := 0
			if last >= ipcur && llcur > 0 {
				ll = min(last-ipcur+1, llcur)
				llcur -= ll
			}
			e.offs = append(e.offs, ipcur) // iw[i]
			ipcur += ll
		}
		e.offs = append(e.offs, ipcur) // iw[P] ends as ipU+llU, as in HPL
		e.steps = append(e.steps, equilStep{src: iprow, left: left, right: right})
	}
	e.targets = e.targets[:0]
	for i := range P {
		b, _ := target(i)
		e.targets = append(e.targets, b)
	}
}

// swapRoll is HPL_rollN/T's exchanges on one rank as a ranks.Exchanger: at
// step k the rank sends its piece of U rows to one neighbour and receives
// that neighbour's, either side left out when its piece is empty.
type swapRoll struct {
	w          swapCtx
	my, p      int   // position in the roll, P
	off        []int // pieces' row offsets, P+1
	prev, next int   // column-communicator ranks of the neighbours
	// busy has bit k set when step k sends or receives a piece (NextStep),
	// marked at the first call; its array is kept from roll to roll.
	busy   []uint64
	marked bool
}

// sides returns the pieces step k sends and receives, and the partner.
func (x *swapRoll) sides(k int) (si, ri, partner int) { return rollStep(x.my, k, x.p, x.prev, x.next) }

func (x *swapRoll) Exchange(k int) (int, ranks.Msg, int) {
	si, ri, partner := x.sides(k)
	dst, src := partner, partner
	sb, sl := x.off[si], x.off[si+1]-x.off[si]
	var m ranks.Msg
	if sl > 0 {
		m.Bytes = sl * x.w.n * bytesPerDouble
		if x.w.u != nil {
			m.Data = x.w.packRows(sb, sl)
		}
	} else {
		dst = ranks.Nobody
	}
	if x.off[ri+1]-x.off[ri] <= 0 {
		src = ranks.Nobody
	}
	return dst, m, src
}

// NextStep is the first step from k on that sends or receives a piece, or
// P−1: an empty step (both pieces empty) makes no MPI call, so the roll
// goes past it unseen (ranks.StepSkipper). The steps are found from the
// non-empty pieces, each sent at one step and received at another in
// each direction (rollStep's closed form), not by asking every step.
func (x *swapRoll) NextStep(k int) int {
	n := x.p - 1
	if !x.marked {
		x.markBusy()
	}
	for k < n {
		w := x.busy[k>>6] >> (k & 63)
		if w != 0 {
			return min(k+bits.TrailingZeros64(w), n)
		}
		k = (k>>6 + 1) << 6
	}
	return n
}

// markBusy sets busy's bit k for each step k that sends or receives one
// of the non-empty pieces. With d the piece's distance to the right of
// my, rollStep sends it at l = k>>1 = d (odd my+k) or P−d (even), and
// receives it at l = P−d−1 (odd) or d−1 (even), modulo P; k is the one of
// 2l, 2l+1 with that parity, a step if below P−1.
func (x *swapRoll) markBusy() {
	P, my := x.p, x.my
	n := P - 1
	nw := (n + 63) >> 6
	if cap(x.busy) < nw {
		x.busy = make([]uint64, nw)
	} else {
		x.busy = x.busy[:nw]
		clear(x.busy)
	}
	x.marked = true
	mark := func(l, odd int) {
		k := 2 * l
		if (my+k)&1 != odd {
			k++
		}
		if k < n {
			x.busy[k>>6] |= 1 << (k & 63)
		}
	}
	for i := range P {
		if x.off[i+1]-x.off[i] <= 0 {
			continue
		}
		d := modSub(i, my, P)
		mark(d, 1)
		mark(modSub(P, d, P), 0)
		mark(P-d-1, 1)
		mark(modSub(d, 1, P), 0)
	}
}

func (x *swapRoll) Received(k int, m ranks.Msg) {
	_, ri, _ := x.sides(k)
	x.w.unpackRows(x.off[ri], x.off[ri+1]-x.off[ri], m.Data)
}
