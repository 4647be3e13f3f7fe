package hpl

import "github.com/emu-hpc/emu/ranks"

// prober drives the pending broadcast from inside a swap or update (hpl.md §7.4):
// at each probe point, one bcastStep while the broadcast is not done.
type prober struct {
	pb   *panel
	done bool
	// A ring receiver's probe, from pb's route (armed while the message has
	// not been seen): a poll that finds nothing, most polls, probes from
	// here and reads no line of the panel, which a rank resumed after the
	// others ran finds out of cache.
	armed     bool
	from, tag int
	row       commPort
	// owed: a poll is due that the update's chunks make with theirs
	// (swapBinary's last, while the probe is armed; inChunks).
	owed bool
}

// newProber returns the prober of pb's broadcast (pb nil for none).
func newProber(pb *panel) prober {
	p := prober{pb: pb}
	if pb != nil {
		if x := &pb.bcst; !x.done && x.ring && !x.probed {
			p.armed, p.from, p.tag, p.row = true, x.from, pb.msgid, x.row
		}
	}
	return p
}

// poll is bcastStep's probe of an armed ring receiver, then bcastStep once
// the message is seen (it then receives without probing again).
func (p *prober) poll() {
	if p.done {
		return
	}
	if p.armed && !p.row.iprobe(p.from, p.tag) {
		return
	}
	p.seen()
}

// seen is poll once the armed probe (if any) has seen the message:
// bcastStep, which receives without probing again.
func (p *prober) seen() {
	if p.armed {
		p.armed = false
		p.pb.bcst.probed = true
	}
	p.done = bcastStep(p.pb)
}

// idle reports whether polling has nothing left to drive (no pending
// broadcast, or one already done), marking it done as the next poll would:
// bcastStep returns true at once for such a broadcast, doing nothing.
func (p *prober) idle() bool {
	if !p.done && (p.pb == nil || p.pb.s.g.q <= 1 || p.pb.bcst.done) {
		p.done = true
	}
	return p.done
}

// spin polls until the broadcast is done.
func (p *prober) spin() {
	if !p.done {
		bcastSpin(p.pb)
		p.done = true
	}
}

// swapBinary is HPL_pdlaswp00N/T, the binary-exchange row swap over n columns
// (hpl.md §7.2).
func (pn *panel) swapBinary(pr *prober, n int) {
	s := pn.s
	jb := pn.jb
	n = min(n, pn.n)
	if n <= 0 || jb <= 0 {
		return
	}
	g := s.g
	c := g.col
	P := g.p
	myrow, icur := g.myrow, pn.prow
	ip2 := pow2floor(P)
	hdim := log2(ip2)
	usize := jb * n
	ldW := n + 1
	x := &pn.swp
	switch x.iflag {
	case -1:
		pn.moves()
		pn.plindx0()
	case 1:
		pn.plindx0()
	}
	x.iflag = 0
	w := swapCtx{pn: pn, n: n, u: pn.u}
	var wb []float64
	if s.real {
		wb = make([]float64, (2*jb)*ldW)
	}
	ipA := x.llen[myrow]
	x.llenW = append(x.llenW[:0], x.llen...)
	llen := x.llenW
	if myrow == icur {
		w.laswp01(ipA, x.lindxA, x.lindxAU)
	} else {
		w.laswp02(ipA, wb, x.lindxA, x.lindxAU)
	}
	size := P - ip2
	dist := modSub(myrow, icur, P)
	// With P a power of two (size 0) nothing but index arithmetic comes
	// between the next two polls and the hypercube: while the probe is
	// armed they are made with its steps, as one leading step (lead).
	lead := 0
	if size == 0 && dist < ip2 && pr.armed && !pr.done {
		lead = 1
	} else {
		pr.poll()
	}
	if myrow == icur {
		llen[myrow] = 0
		ipA = 0
	}
	ipW := ipA
	uData := func() []float64 { return at(pn.u, 0) }
	wData := func(rows int) []float64 {
		if wb == nil {
			return nil
		}
		return wb[:rows*ldW]
	}
	putW := func(at int, in []float64) { // append received W rows at row `at`
		if wb != nil {
			copy(wb[at*ldW:], in)
		}
	}
	putU := func(in []float64) {
		if pn.u != nil {
			copy(pn.u[:usize], in)
		}
	}
	if size != 0 {
		if partner := dist ^ ip2; partner < P {
			partner = modAdd(icur, partner, P)
			switch {
			case dist == 0:
				in := sdrv(c, &s.sdrvX, partner, usize, uData(), llen[partner]*ldW, tagPfact)
				putW(0, in)
				if llen[partner] > 0 {
					w.laswp03(llen[partner], wb)
				}
			case dist == ip2:
				putU(sdrv(c, &s.sdrvX, partner, llen[myrow]*ldW, wData(llen[myrow]), usize, tagPfact))
			case dist&ip2 != 0:
				sendD(c, partner, llen[myrow]*ldW, wData(llen[myrow]), tagPfact)
			default:
				putW(ipW, recvD(c, partner, llen[partner]*ldW, tagPfact))
				if llen[partner] > 0 {
					ipW += llen[partner]
				}
			}
		}
	}
	for i := 1; i < size; i++ {
		iprow := modAdd(icur, i, P)
		llen[iprow] += llen[modAdd(iprow, ip2, P)]
	}
	if lead == 0 {
		pr.poll()
	}
	if dist < ip2 {
		h := hypercubeRows(&s.swap.pre, llen, icur, ip2)
		cx := &s.cubeX
		*cx = cubeSwap{w: w, h: h, icur: icur, p: P, dist: dist, ldW: ldW, usize: usize,
			ipA: ipA, ipW: ipW, wb: wb, lindxA: x.lindxA, lindxAU: x.lindxAU, got: cx.got[:0], lead: lead}
		n := hdim + lead
		for k := 0; k < n; {
			partner, sn, sdata, rn := cx.sides(k)
			if k == 0 && lead > 0 && !pr.done && pr.armed {
				// The two polls, then the steps and their polls up to the
				// one that sees the broadcast, as one call
				// (ranks.Comm.IprobeSendRecvs).
				next, seen := c.iprobeSendRecvs(0, n, tagPfact, cx, cx, pr.row, pr.from, pr.tag)
				k = next
				if seen {
					pr.seen()
				}
				continue
			}
			if (sn > 0 || rn > 0) && !pr.done && pr.armed {
				// The steps and their polls up to the one that sees the
				// broadcast, as one call (ranks.Comm.SendRecvsIprobe).
				next, seen := c.sendRecvsIprobe(k, n, tagPfact, cx, cx, pr.row, pr.from, pr.tag)
				k = next
				if seen {
					pr.seen()
				}
				continue
			}
			if sn > 0 || rn > 0 {
				cx.got = append(cx.got[:0], sdrv(c, &s.sdrvX, partner, sn, sdata, rn, tagPfact)...)
			}
			cx.Work(k)
			pr.poll()
			k++
		}
		*cx = cubeSwap{got: cx.got[:0]}
	} else {
		if size > 1 {
			ip2u, mask := 1, 1
			for k := size - 1; k > 1; k >>= 1 {
				ip2u <<= 1
				mask = mask<<1 + 1
			}
			root := modAdd(icur, ip2, P)
			mydis := modSub(myrow, root, P)
			for ; ip2u > 0; ip2u >>= 1 {
				mask ^= ip2u
				if mydis&mask == 0 {
					partner := mydis ^ ip2u
					if mydis&ip2u != 0 {
						putU(recvD(c, modAdd(root, partner, P), usize, tagPfact))
					} else if partner < size {
						sendD(c, modAdd(root, partner, P), usize, uData(), tagPfact)
					}
				}
				pr.poll()
			}
		}
		w.laswp05(ipA, x.lindxA, x.lindxAU)
	}
	if size != 0 {
		if partner := dist ^ ip2; partner < P {
			partner = modAdd(icur, partner, P)
			if dist&ip2 != 0 {
				putU(recvD(c, partner, usize, tagPfact))
			} else {
				sendD(c, partner, usize, uData(), tagPfact)
			}
		}
	}
	// The last poll: while the probe is armed, the update's chunks make it
	// with theirs (prober.owed).
	if pr.armed && !pr.done {
		pr.owed = true
	} else {
		pr.poll()
	}
}

// cubeSwap is the hypercube steps of swapBinary (hpl.md §7.2, 2b) as a
// ranks.Exchanger and ranks.Worker: step k is HPL_sdrv with the row
// distance dist XOR 2^k away, then the received rows put in place and HPL's
// row copies (laswp03 or laswp04). ranks.Comm.SendRecvsIprobe runs them,
// with a poll of the broadcast after each, possibly in the rank's turn off
// its coroutine: Work only copies rows and charges their kernels.
type cubeSwap struct {
	w               swapCtx
	h               hypercube
	icur, p, dist   int
	ldW, usize, ipA int
	ipW             int       // W's next row for received rows
	wb              []float64 // W (nil in model mode)
	lindxA, lindxAU []int
	got             []float64 // step k's received payload (real mode), reused
	// lead is the steps before the hypercube's (0 or 1): no sides, no
	// work, only their polls (swapBinary's two polls before it, with P a
	// power of two). Step lead+k is the hypercube's step k.
	lead int
}

// BlockingRecvs marks cubeSwap's steps as HPL_sdrv's: a step with nothing
// to send (W's rows, none here) receives with a blocking MPI_Recv.
func (*cubeSwap) BlockingRecvs() {}

// sides returns step k's sdrv: its partner, the doubles sent (sdata) and
// the doubles received.
func (t *cubeSwap) sides(k int) (partner, sn int, sdata []float64, rn int) {
	if k < t.lead {
		return 0, 0, nil, 0
	}
	k -= t.lead
	ipow := 1 << k
	partner = modAdd(t.icur, t.dist^ipow, t.p)
	mine, theirs := t.h.rows(t.dist, k), t.h.rows(t.dist^ipow, k)
	switch {
	case t.dist>>(k+1) != 0:
		return partner, mine * t.ldW, t.wData(mine), theirs * t.ldW
	case t.dist>>k == 0:
		return partner, t.usize, at(t.w.u, 0), theirs * t.ldW
	default:
		return partner, mine * t.ldW, t.wData(mine), t.usize
	}
}

func (t *cubeSwap) wData(rows int) []float64 {
	if t.wb == nil {
		return nil
	}
	return t.wb[:rows*t.ldW]
}

func (t *cubeSwap) Exchange(k int) (int, ranks.Msg, int) {
	partner, sn, sdata, rn := t.sides(k)
	dst, src := ranks.Nobody, ranks.Nobody
	if sn > 0 {
		dst = partner
	}
	if rn > 0 {
		src = partner
	}
	return dst, ranks.Msg{Bytes: sn * bytesPerDouble, Data: sdata}, src
}

// Received keeps a copy of the payload, which the World reuses once the
// call returns; Work puts it in place.
func (t *cubeSwap) Received(_ int, m ranks.Msg) { t.got = append(t.got[:0], m.Data...) }

// Work is what step k does after its sdrv: the received rows put in W or U
// and the row copies.
func (t *cubeSwap) Work(k int) {
	if k < t.lead {
		return
	}
	k -= t.lead
	w, in := t.w, t.got
	t.got = t.got[:0]
	ipow := 1 << k
	mine, theirs := t.h.rows(t.dist, k), t.h.rows(t.dist^ipow, k)
	if t.dist>>(k+1) == 0 && t.dist>>k != 0 { // U received
		if w.u != nil {
			copy(w.u[:t.usize], in)
		}
		w.laswp04(t.ipA, mine, t.wb, t.lindxA, t.lindxAU)
		return
	}
	if t.wb != nil {
		copy(t.wb[t.ipW*t.ldW:], in)
	}
	if t.dist>>(k+1) == 0 { // dist>>k == 0: W rows received, then laswp03
		if t.wb != nil {
			w.laswp03(theirs, t.wb[t.ipW*t.ldW:])
		} else {
			w.laswp03(theirs, nil)
		}
	}
	t.ipW += theirs
}

// hypercube is the row counts of the binary exchange's hypercube steps
// (hpl.md §7.2, 2a). HPL keeps llen per process row and, after each step k,
// sets both entries of every pair (x, x XOR 2^k) of distances below ip2 to
// their sum, so that at step k the entry of distance d holds the rows of the
// 2^k distances of d's aligned block. A rank reads only its own entry and its
// partner's, so prefix sums over the distances give it the same counts, once,
// instead of hdim passes over ip2 entries.
type hypercube struct{ pre []int }

// hypercubeRows sums llen (per process row, after the fold-in) over the
// distances 0 … ip2−1 from icur, into pre's array.
func hypercubeRows(pre *[]int, llen []int, icur, ip2 int) hypercube {
	p := *pre
	if cap(p) < ip2+1 {
		p = make([]int, 0, ip2+1)
	}
	p = append(p[:0], 0)
	P := len(llen)
	for d, row := 0, icur; d < ip2; d++ {
		p = append(p, p[d]+llen[row])
		if row++; row == P {
			row = 0
		}
	}
	*pre = p
	return hypercube{p}
}

// rows is llen of the process row at distance d when step k begins.
func (h hypercube) rows(d, k int) int {
	lo := d >> k << k
	return h.pre[lo+1<<k] - h.pre[lo]
}
