package hpl

import (
	"math"

	"github.com/emu-hpc/emu/ranks"
)

// The pivot search of one panel column: HPL_dlocmax, HPL_pdmxswp and
// HPL_dlocswpN/T (hpl.md §5.3, §5.4). WORK is [header(4) | pivot row(n0) |
// current row(n0)] with n0 = jb; the header is [value, local offset, global row,
// owner row].

// locmax fills work[0:4] with the local candidate among the n active rows starting
// at trailing row ii of panel column jj.
func (pn *panel) locmax(n, ii, jj int, work []float64) {
	s := pn.s
	if n <= 0 {
		work[0], work[1], work[2], work[3] = 0, 0, 0, float64(s.g.p)
		return
	}
	off := pn.aoff(ii, jj)
	il := s.k.Idamax(n, at(s.a, off), 1)
	if !s.real {
		il = pn.modelPivot(n, ii, jj, work)
		if il < 0 {
			return
		}
	}
	kk := pn.ii + ii + il
	work[1] = float64(il)
	work[2] = float64(l2g(kk, s.nb, s.g.myrow, s.g.p))
	work[3] = float64(s.g.myrow)
	if s.real {
		work[0] = s.a[off+il]
	}
}

// modelPivot offers this rank's candidate under the pivot rule: the rank holding
// the rule's row offers it with value 1 (so it always wins), the others offer their
// first active row with value 0. It returns the local offset, or −1 when it has
// filled work itself.
func (pn *panel) modelPivot(n, ii, jj int, work []float64) int {
	s := pn.s
	c := pn.ia + jj
	g := s.pivots.row(c, s.n)
	if g2p(g, s.nb, s.g.p) == s.g.myrow {
		if il := g2l(g, s.nb, s.g.p) - pn.ii - ii; il >= 0 && il < n {
			work[0] = 1
			return il
		}
	}
	work[0] = 0
	return 0
}

// wins reports whether candidate header b beats a: larger |value|, or equal with
// a smaller owner row.
func wins(b, a []float64) bool {
	tb, ta := math.Abs(b[0]), math.Abs(a[0])
	return tb > ta || (tb == ta && b[3] < a[3])
}

// mxswp is HPL_pdmxswp: the pivot exchange among the P ranks of the panel's
// column, M active rows on this rank starting at trailing row ii, panel column jj.
func (pn *panel) mxswp(m, ii, jj int, work []float64) {
	s := pn.s
	g := s.g
	c := g.col
	n0 := pn.jb
	cntA := n0 + 4   // header + pivot row
	cntB := 2*n0 + 4 // everything
	P := g.p
	ip2 := pow2floor(P)
	hdim := log2(ip2)
	icur := pn.prow
	size := P - ip2
	dist := modSub(g.myrow, icur, P)
	wmx := work[4 : 4+n0]
	a0 := work[4+n0 : 4+2*n0]
	if s.real {
		if m > 0 {
			src := pn.aoff(ii+int(work[1]), 0)
			for i := range n0 {
				wmx[i] = s.a[src+i*s.lda]
			}
			if g.myrow == icur {
				cur := pn.aoff(ii, 0)
				for i := range n0 {
					a0[i] = s.a[cur+i*s.lda]
				}
			}
		} else {
			clear(wmx)
		}
	}
	if s.pivotExchange == PivotUncontended {
		s.pivotSteps = appendPivotSteps(s.pivotSteps[:0], dist, icur, P, n0)
		data := work[:4] // model mode: the header
		if s.real {
			data = work[:cntB]
		}
		all := c.uncontended(s.pivotSteps, data)
		best := 0
		for i := 1; i < P; i++ {
			if wins(all[i], all[best]) {
				best = i
			}
		}
		copy(work[:len(data)], all[best])
		if s.real {
			copy(a0, all[icur][cntA:cntB])
		}
		pn.dpiv[jj] = work[2]
		if s.rec != nil && g.myrow == icur {
			s.rec.set(pn.ia+jj, int(work[2]))
		}
		return
	}
	// payload returns what travels: everything in real mode, the header in model mode.
	payload := func(cnt int) []float64 {
		if s.real {
			return work[:cnt]
		}
		return work[:4]
	}
	rowOnly := func() []float64 {
		if s.real {
			return a0
		}
		return nil
	}
	take := func(in []float64, cnt int) { // copy cnt received values into work
		copy(work[:cnt], in)
	}
	peer := func(d int) int { return modAdd(d, icur, P) }
	if size != 0 {
		if partner := dist ^ ip2; partner < P {
			if dist&ip2 != 0 {
				if dist == ip2 {
					in := sdrv(c, &s.sdrvX, peer(partner), cntA, payload(cntA), n0, tagPfact)
					if s.real {
						copy(a0, in)
					}
				} else {
					c.send(peer(partner), tagPfact, cntA*bytesPerDouble, payload(cntA))
				}
			} else {
				var in []float64
				if dist == 0 {
					in = sdrv(c, &s.sdrvX, peer(partner), n0, rowOnly(), cntA, tagPfact)
				} else {
					in = c.recv(peer(partner), tagPfact)
				}
				if wins(in, work) {
					take(in, min(cntA, len(in)))
				}
			}
		}
	}
	if dist < ip2 {
		// The hypercube's hdim exchanges, as a task (ranks.Comm.SendRecvs):
		// each is HPL_sdrv's, both counts positive.
		s.pivotX = pivotExchange{dist: dist, icur: icur, p: P,
			cntA: cntA, cntB: cntB, work: work, a0: a0, real: s.real}
		c.sendRecvs(hdim, tagPfact, &s.pivotX)
	} else if size > 1 {
		// binomial broadcast of the current row among the ranks ≥ ip2
		root := modAdd(icur, ip2, P)
		binomialSteps(modSub(g.myrow, root, P), size, func(partner int, receive bool) {
			if receive {
				in := c.recv(modAdd(root, partner, P), tagPfact)
				if s.real {
					copy(a0, in)
				}
			} else {
				c.send(modAdd(root, partner, P), tagPfact, n0*bytesPerDouble, rowOnly())
			}
		})
	}
	if size != 0 {
		if partner := dist ^ ip2; partner < P {
			if dist&ip2 != 0 {
				take(c.recv(peer(partner), tagPfact), cntA)
			} else {
				c.send(peer(partner), tagPfact, cntA*bytesPerDouble, payload(cntA))
			}
		}
	}
	pn.dpiv[jj] = work[2]
	if s.rec != nil && g.myrow == icur {
		s.rec.set(pn.ia+jj, int(work[2]))
	}
}

// PivotExchange is how the pivot search's exchanges (HPL_pdmxswp, one a
// panel column) are emulated: an approximation behind
// Options.PivotExchange, off by default.
type PivotExchange uint8

const (
	// PivotMessages sends each of the exchange's messages through the
	// network model, as HPL sends them.
	PivotMessages PivotExchange = iota
	// PivotUncontended times each exchange as a whole
	// (ranks.Comm.Uncontended): the same messages, in the same pattern,
	// each taking what it would alone on the network, with the MPI
	// layer's protocol and overheads. The pivots, and so every other
	// message, are the same; what it leaves out is the exchange's sharing
	// of bandwidth with the broadcasts and row swaps in flight, its load on
	// them, and that no rank leaves an exchange before the last has
	// entered. Its error, measured against PivotMessages, is in the README
	// (Uncontended pivot exchanges).
	PivotUncontended
)

var pivotExchangeNames = []string{"messages", "uncontended"}

func (x PivotExchange) String() string {
	return name(pivotExchangeNames, uint8(x), "pivot exchange")
}

// ParsePivotExchange accepts "messages" or "uncontended".
func ParsePivotExchange(s string) (PivotExchange, error) {
	v, err := parseName(pivotExchangeNames, nil, s, "pivot exchange")
	return PivotExchange(v), err
}

// appendPivotSteps appends to steps the messages mxswp's exchange makes on
// the rank at distance dist from the current row's owner icur, among P ranks,
// as ranks.Steps (communicator ranks; sizes in bytes, n0 the panel's width):
// the same sends and receives, in the same order, as the message-by-message
// code above.
func appendPivotSteps(steps []ranks.Step, dist, icur, P, n0 int) []ranks.Step {
	cntA, cntB := n0+4, 2*n0+4
	ip2 := pow2floor(P)
	hdim := log2(ip2)
	size := P - ip2
	peer := func(d int) int { return modAdd(d, icur, P) }
	step := func(send, doubles, recv int) {
		steps = append(steps, ranks.Step{Send: send, Bytes: doubles * bytesPerDouble, Recv: recv})
	}
	if size != 0 {
		if partner := dist ^ ip2; partner < P {
			switch {
			case dist&ip2 != 0 && dist == ip2:
				step(peer(partner), cntA, peer(partner))
			case dist&ip2 != 0:
				step(peer(partner), cntA, ranks.Nobody)
			case dist == 0:
				step(peer(partner), n0, peer(partner))
			default:
				step(ranks.Nobody, 0, peer(partner))
			}
		}
	}
	if dist < ip2 {
		x := pivotExchange{dist: dist, cntA: cntA, cntB: cntB}
		for k := range hdim {
			scnt, _ := x.counts(k)
			partner := peer(dist ^ (1 << k))
			step(partner, scnt, partner)
		}
	} else if size > 1 {
		root := modAdd(icur, ip2, P)
		binomialSteps(modSub(modAdd(dist, icur, P), root, P), size, func(partner int, receive bool) {
			if receive {
				step(ranks.Nobody, 0, modAdd(root, partner, P))
			} else {
				step(modAdd(root, partner, P), n0, ranks.Nobody)
			}
		})
	}
	if size != 0 {
		if partner := dist ^ ip2; partner < P {
			if dist&ip2 != 0 {
				step(ranks.Nobody, 0, peer(partner))
			} else {
				step(peer(partner), cntA, ranks.Nobody)
			}
		}
	}
	return steps
}

// binomialSteps walks mxswp's binomial broadcast of the current row among
// the size ranks past the power of two, for the one at distance mydis from
// their root: each step receives from, or sends to, the rank at distance
// partner from the root, in HPL's order.
func binomialSteps(mydis, size int, step func(partner int, receive bool)) {
	ip2u, mask := 1, 1
	for k := size - 1; k > 1; k >>= 1 {
		ip2u <<= 1
		mask = mask<<1 + 1
	}
	for ; ip2u > 0; ip2u >>= 1 {
		mask ^= ip2u
		if mydis&mask != 0 {
			continue
		}
		if partner := mydis ^ ip2u; mydis&ip2u != 0 {
			step(partner, true)
		} else if partner < size {
			step(partner, false)
		}
	}
}

// pivotExchange is the hypercube part of HPL_pdmxswp on one rank: at step k
// the rank swaps candidates with the rank at distance 2^k (from the current
// row's owner), and the two ranks nearest the owner also carry the current
// row.
type pivotExchange struct {
	dist, icur, p int // distance from the owner of the current row, its row, P
	cntA, cntB    int // doubles: header + pivot row; + current row
	work, a0      []float64
	real          bool
}

// counts returns what step k sends and receives, in doubles.
func (x *pivotExchange) counts(k int) (scnt, rcnt int) {
	if x.dist>>(k+1) == 0 {
		if x.dist>>k == 0 {
			return x.cntB, x.cntA
		}
		return x.cntA, x.cntB
	}
	return x.cntA, x.cntA
}

// BlockingRecvs marks pivotExchange's steps as HPL_sdrv's (both sides are
// never empty there, so it changes nothing but says what HPL calls).
func (*pivotExchange) BlockingRecvs() {}

func (x *pivotExchange) Exchange(k int) (int, ranks.Msg, int) {
	scnt, _ := x.counts(k)
	partner := modAdd(x.dist^(1<<k), x.icur, x.p)
	data := x.work[:4] // model mode: the header
	if x.real {
		data = x.work[:scnt]
	}
	return partner, ranks.Msg{Bytes: scnt * bytesPerDouble, Data: data}, partner
}

func (x *pivotExchange) Received(k int, m ranks.Msg) {
	_, rcnt := x.counts(k)
	in := m.Data
	if wins(in, x.work) {
		copy(x.work[:min(rcnt, len(in))], in)
	} else if rcnt == x.cntB && x.real {
		copy(x.a0, in[x.cntA:x.cntB])
	}
}

// locswp is HPL_dlocswpN/T: write the pivot row into L1 (row jj in N form, column
// jj in T form) and swap it with the current row in A (hpl.md §5.4).
func (pn *panel) locswp(ii, jj int, work []float64) {
	s := pn.s
	n0 := pn.jb
	gmax := work[0]
	if !s.real {
		if gmax == 0 && pn.dinfo[0] == 0 {
			pn.dinfo[0] = float64(pn.ia + jj + 1)
		}
		return
	}
	wmx := work[4 : 4+n0]
	wr0 := work[4+n0 : 4+2*n0]
	wmx[jj] = gmax
	lda := s.lda
	lset := func(src []float64) {
		for i := range n0 {
			pn.l1[pn.l1off(jj, i)] = src[i]
		}
	}
	rowPut := func(row int, src []float64) {
		o := pn.aoff(row, 0)
		for i := range n0 {
			s.a[o+i*lda] = src[i]
		}
	}
	if gmax == 0 {
		lset(wr0)
		if pn.dinfo[0] == 0 {
			pn.dinfo[0] = float64(pn.ia + jj + 1)
		}
		return
	}
	lset(wmx)
	mine := s.g.myrow == int(work[3])
	if s.g.myrow == pn.prow {
		if mine {
			if il := int(work[1]); il != 0 {
				rowPut(ii, wmx)
				rowPut(ii+il, wr0)
			} else {
				s.a[pn.aoff(ii, jj)] = gmax
			}
		} else {
			rowPut(ii, wmx)
		}
	} else if mine {
		rowPut(ii+int(work[1]), wr0)
	}
}

// l1off is the offset in L1 of U-row r, column i of the panel: row r of L1 in N
// form, column r in T form.
func (pn *panel) l1off(r, i int) int {
	if pn.s.p.L1Transposed {
		return i + r*pn.jb
	}
	return r + i*pn.jb
}
