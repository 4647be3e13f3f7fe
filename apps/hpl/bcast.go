package hpl

import (
	"slices"

	"github.com/emu-hpc/emu/ranks"
)

// Panel broadcast along process rows (hpl.md §6): HPL_binit / HPL_bcast /
// HPL_bwait. Each process row broadcasts its own payload, len(r) doubles:
// [L2 (ml2×jb) | L1 (jb²) | DPIV (jb) | DINFO (1)], from root pcol.

// payload is one rank's copy of the broadcast buffer. In real mode it is the whole
// buffer; in model mode only its tail [DPIV | DINFO] exists, the part that steers
// control flow, and pieces carry just their overlap with it.
type payload struct {
	n    int       // length in doubles
	full []float64 // real mode
	tail []float64 // model mode: the last jb+1 doubles
}

func (b *payload) tailStart() int { return b.n - len(b.tail) }

// slice returns the data travelling with doubles [s, e).
func (b *payload) slice(s, e int) []float64 {
	if b.full != nil {
		return b.full[s:e]
	}
	ts := b.tailStart()
	lo, hi := max(s, ts), e
	if hi <= lo {
		return nil
	}
	return b.tail[lo-ts : hi-ts]
}

// store writes received data for doubles [s, …).
func (b *payload) store(s int, data []float64) {
	if b.full != nil {
		copy(b.full[s:], data)
		return
	}
	if len(data) == 0 {
		return
	}
	ts := b.tailStart()
	copy(b.tail[max(s, ts)-ts:], data)
}

// bcastState is the progress of one panel's broadcast on one rank.
type bcastState struct {
	done   bool
	probed bool // a probe already saw the message: receive without probing
	buf    *payload
	// A ring receiver's route (binit): the row ranks it receives from and
	// forwards to (to < 0: none). bcastStep probes from these alone, so that
	// a poll that finds nothing, most polls, reads only the panel, not the
	// solver and grid behind it, all of which a rank resumed after others
	// ran finds out of cache.
	ring     bool
	from, to int
	row      commPort
}

// binit prepares the broadcast (no message): the root packs its payload, others
// allocate a receive buffer.
func (pn *panel) binit() {
	s := pn.s
	if s.g.q <= 1 {
		return
	}
	n := pn.payloadLen()
	b := pn.spare // a released panel's: its arrays are reused when large enough
	pn.spare = nil
	if b == nil {
		b = new(payload)
	}
	*b = payload{n: n, full: b.full, tail: b.tail}
	if s.real {
		b.full, b.tail = zeroed(b.full, n), nil
	} else {
		b.full, b.tail = nil, zeroed(b.tail, pn.jb+1)
	}
	if s.g.mycol == pn.pcol {
		if s.copyL { // HPL_copyL: L2 (ml2 × jb) into the buffer
			s.charge(cpLacpy, pn.ml2, pn.jb, 0)
		}
		pn.pack(b)
	}
	pn.bcst = bcastState{buf: b}
	switch s.p.BCast {
	case Long, LongM:
	default:
		if s.g.mycol != pn.pcol {
			from, to := pn.ringRoute()
			pn.bcst.ring, pn.bcst.from, pn.bcst.to, pn.bcst.row = true, from, to, s.g.row
		}
	}
}

// pack copies this rank's L2, L1, DPIV and DINFO into b.
func (pn *panel) pack(b *payload) {
	if b.full == nil {
		copy(b.tail, pn.dpiv)
		b.tail[pn.jb] = pn.dinfo[0]
		return
	}
	o := 0
	for j := range pn.jb {
		copy(b.full[o:o+pn.ml2], pn.l2[pn.l2o+j*pn.ldl2:])
		o += pn.ml2
	}
	o += copy(b.full[o:], pn.l1)
	o += copy(b.full[o:], pn.dpiv)
	b.full[o] = pn.dinfo[0]
}

// unpack points L2, L1, DPIV and DINFO of a non-root rank into the received buffer.
func (pn *panel) unpack(b *payload) {
	if b.full == nil {
		copy(pn.dpiv, b.tail[:pn.jb])
		pn.dinfo[0] = b.tail[pn.jb]
		return
	}
	o := pn.ml2 * pn.jb
	pn.l2, pn.l2o, pn.ldl2 = b.full[:o], 0, max(1, pn.ml2)
	pn.l1 = b.full[o : o+pn.jb*pn.jb]
	o += pn.jb * pn.jb
	copy(pn.dpiv, b.full[o:o+pn.jb])
	pn.dinfo[0] = b.full[o+pn.jb]
}

// bcastStep is HPL_bcast: one progress attempt; true when this rank is done.
// A nil panel or a single process column is done at once.
func bcastStep(pn *panel) bool {
	if pn == nil || pn.bcst.done {
		return true
	}
	if x := &pn.bcst; x.ring && !x.probed && !x.row.iprobe(x.from, pn.msgid) {
		return false
	}
	if pn.s.g.q <= 1 {
		return true
	}
	var done bool
	switch pn.s.p.BCast {
	case Long:
		pn.bcastLong(false)
		done = true
	case LongM:
		pn.bcastLong(true)
		done = true
	default:
		done = pn.bcastRing()
	}
	if done {
		pn.bcst.done = true
		if pn.s.g.mycol != pn.pcol {
			pn.unpack(pn.bcst.buf)
		}
	}
	return done
}

// bcastSpin repeats bcastStep until done (HPL's busy loop). After a failed
// probe the rank blocks in probe (a loop of Iprobes when they cost time, a wait
// when they are free), then receives without probing again, so the number of
// Iprobes is HPL's.
func bcastSpin(pn *panel) {
	if bcastStep(pn) {
		return
	}
	pn.s.g.row.probe(pn.bcastSource(), pn.msgid)
	pn.bcst.probed = true
	if !bcastStep(pn) {
		panic("hpl: broadcast not progressing after a successful probe")
	}
}

// bcastSource is the row rank a ring receiver receives the panel from.
func (pn *panel) bcastSource() int {
	Q := pn.s.g.q
	i := modSub(pn.s.g.mycol, pn.pcol, Q)
	from := i - 1
	h := (Q + 1) / 2
	switch pn.s.p.BCast {
	case OneRingM:
		if i == 1 || i == 2 {
			from = 0
		}
	case TwoRing:
		if i == h {
			from = 0
		}
	case TwoRingM:
		if i == 1 || i == 2 || i == h {
			from = 0
		}
	}
	return modAdd(from, pn.pcol, Q)
}

// ringRoute is a ring receiver's route (hpl.md §6.3): the row ranks it
// receives the panel from and forwards it to, −1 for none.
func (pn *panel) ringRoute() (from, to int) {
	s := pn.s
	Q := s.g.q
	i := modSub(s.g.mycol, pn.pcol, Q)
	h := (Q + 1) / 2
	fwd := i+1 < Q
	switch s.p.BCast {
	case OneRingM:
		fwd = fwd && i >= 2
	case TwoRing:
		fwd = fwd && i+1 != h
	case TwoRingM:
		fwd = fwd && i != 1 && i+1 != h
	}
	to = -1
	if fwd {
		to = modAdd(i+1, pn.pcol, Q)
	}
	return pn.bcastSource(), to
}

// bcastRing is one step of the four ring topologies (hpl.md §6.3).
func (pn *panel) bcastRing() bool {
	s := pn.s
	c := s.g.row
	Q := s.g.q
	root := pn.pcol
	b := pn.bcst.buf
	bytes := b.n * bytesPerDouble
	i := modSub(s.g.mycol, root, Q)
	h := (Q + 1) / 2
	rel := func(x int) int { return modAdd(x, root, Q) }
	all := b.slice(0, b.n)
	if i == 0 {
		targets := []int{1}
		switch s.p.BCast {
		case OneRingM:
			if Q > 2 {
				targets = append(targets, 2)
			}
		case TwoRing:
			if Q > 2 {
				targets = append(targets, h)
			}
		case TwoRingM:
			if Q > 2 {
				if h != 2 {
					targets = append(targets, 2)
				}
				targets = append(targets, h)
			}
		}
		for _, t := range targets {
			c.send(rel(t), pn.msgid, bytes, all)
		}
		return true
	}
	// A receiver: bcastStep has seen its message (or a probe has). Its
	// Recv, then its Send on, are one call (ringHop).
	c.recvSend(pn.msgid, (*ringHop)(pn))
	return true
}

// ringHop is a ring receiver's receive and forward as a ranks.Exchanger
// for ranks.Comm.RecvSend:
//
//	data := c.recv(from, msgid)
//	buf.store(0, data)
//	c.release(data)
//	if to >= 0 {
//		c.send(to, msgid, bytes, buf.slice(0, buf.n))
//	}
//
// (from, to and buf are the panel's bcastState), so that the rank's
// coroutine parks once for both waits and both overheads.
type ringHop panel

func (h *ringHop) Exchange(k int) (int, ranks.Msg, int) {
	x := &h.bcst
	switch {
	case k == 0:
		return ranks.Nobody, ranks.Msg{}, x.from
	case x.to < 0:
		return ranks.Nobody, ranks.Msg{}, ranks.Nobody
	}
	b := x.buf
	return x.to, ranks.Msg{Bytes: b.n * bytesPerDouble, Data: b.slice(0, b.n)}, ranks.Nobody
}

// Received stores the payload: the World reuses its array once the call
// returns (what c.release did).
func (h *ringHop) Received(_ int, m ranks.Msg) { h.bcst.buf.store(0, m.Data) }

// bcastLong performs the whole long (spread + roll) broadcast, blocking; with m
// set, the longM variant (hpl.md §6.5).
func (pn *panel) bcastLong(modified bool) {
	s := pn.s
	c := s.g.row
	Q := s.g.q
	root := pn.pcol
	b := pn.bcst.buf
	L := b.n
	i := modSub(s.g.mycol, root, Q)
	G := Q
	v := i
	// toRank maps a virtual id of the spread/roll group to a row-communicator rank.
	toRank := func(x int) int { return modAdd(x, root, Q) }
	if modified {
		if i == 0 {
			c.ssend(toRank(1), pn.msgid, L*bytesPerDouble, b.slice(0, L))
		} else if i == 1 {
			data := c.recv(root, pn.msgid)
			b.store(0, data)
			c.release(data)
			return
		}
		if Q == 2 {
			return
		}
		G = Q - 1
		if i > 0 {
			v = i - 1
		}
		toRank = func(x int) int {
			if x == 0 {
				return root
			}
			return modAdd(x+1, root, Q)
		}
	}
	cnt := max(L/G, 1)
	// A merged roll's messages carry no data: the pieces a rank receives
	// are the root's, left with the run's Shared (see RollMerged).
	key := rollKey{tag: pn.msgid, row: s.g.myrow}
	if s.roll == RollMerged && v == 0 && G > 1 {
		s.shared.leaveRoll(key, b, G-1)
	}
	// spread: binomial scatter of contiguous pieces, synchronous sends
	ip2 := pow2floor(max(G-1, 1))
	mask := 2*ip2 - 1
	idx := ip2
	v2 := v
	for ip2 > 0 {
		mask ^= ip2
		if v&mask == 0 {
			st := idx * cnt
			n := L - st
			if idx+ip2 < G {
				n = min(n, ip2*cnt)
			}
			partner := v ^ ip2
			if v&ip2 != 0 {
				data := c.recv(toRank(partner), pn.msgid)
				if n > 0 {
					b.store(st, data)
				}
				c.release(data)
			} else if partner < G {
				if n > 0 {
					c.ssend(toRank(partner), pn.msgid, n*bytesPerDouble, b.slice(st, st+n))
				} else {
					c.ssend(toRank(partner), pn.msgid, 0, nil)
				}
			}
		}
		if v2 < ip2 {
			ip2 >>= 1
			idx -= ip2
		} else {
			v2 -= ip2
			ip2 >>= 1
			idx += ip2
		}
	}
	// roll: G−1 neighbour exchanges, run as a task (ranks.Comm.Exchanges):
	// at 6,006 ranks, resuming each rank's coroutine for each of them
	// cost more than the messages themselves.
	x := &roll{v: v, g: G, cnt: cnt, b: b,
		prev: toRank(modSub(v, 1, G)), next: toRank(modAdd(v, 1, G))}
	if s.roll == RollMerged {
		c.exchanges(min(G-1, 2), pn.msgid, (*mergedRoll)(x))
		if v != 0 {
			s.shared.takeRoll(key, b)
		}
		return
	}
	c.exchanges(G-1, pn.msgid, x)
}

// roll is the long broadcast's roll on one rank (hpl.md §6.5): at step k
// the rank sends a piece it has to one neighbour in the spread/roll group
// and receives the piece that neighbour has, alternating direction.
type roll struct {
	v, g, cnt  int // virtual id in the group, group size, doubles a piece
	prev, next int // row-communicator ranks of the neighbours
	b          *payload
}

// piece is [start, end) of piece x, clamped to the payload.
func (x *roll) piece(p int) (int, int) {
	L := x.b.n
	st := p * x.cnt
	e := st + x.cnt
	if p == x.g-1 {
		e = L
	}
	st, e = min(st, L), min(e, L)
	return st, max(e, st)
}

// rollStep is step k of a roll (HPL_bcast's long roll, HPL_rollN/T) at
// position my of n: the piece sent, the piece received, and the partner,
// prev or next by the step's direction.
func rollStep(my, k, n, prev, next int) (send, recv, partner int) {
	l := k >> 1
	if (my+k)&1 != 0 {
		return modAdd(my, l, n), modSub(my, l+1, n), prev
	}
	return modSub(my, l, n), modAdd(my, l+1, n), next
}

// sides returns the piece step k sends, the piece it receives, and the
// partner.
func (x *roll) sides(k int) (sp, rp, partner int) { return rollStep(x.v, k, x.g, x.prev, x.next) }

func (x *roll) Exchange(k int) (int, ranks.Msg, int) {
	sp, _, partner := x.sides(k)
	ss, se := x.piece(sp)
	return partner, ranks.Msg{Bytes: (se - ss) * bytesPerDouble, Data: x.b.slice(ss, se)}, partner
}

func (x *roll) Received(k int, m ranks.Msg) {
	_, rp, _ := x.sides(k)
	if rs, re := x.piece(rp); re > rs {
		x.b.store(rs, m.Data)
	}
}

// RollModel is how a long broadcast's roll (BCAST long and longM) is
// emulated: an approximation behind Options.Roll, off by default.
type RollModel uint8

const (
	// RollSteps makes HPL's G−1 neighbour exchanges, each a message each
	// way: the roll as HPL runs it.
	RollSteps RollModel = iota
	// RollMerged merges each rank's steps with the same neighbour into one
	// exchange: two per rank instead of G−1, each carrying the pieces those
	// steps carry. The bytes on every link and their pairing are HPL's, so
	// the roll's bandwidth term is kept; what it leaves out is G−3
	// latencies, message overheads and handshakes a rank, and the skew
	// between steps. Its error, measured against RollSteps, is in the
	// README (Merged rolls).
	RollMerged
)

var rollNames = []string{"steps", "merged"}

func (r RollModel) String() string { return name(rollNames, uint8(r), "roll") }

// ParseRollModel accepts "steps" or "merged".
func ParseRollModel(s string) (RollModel, error) {
	v, err := parseName(rollNames, nil, s, "roll model")
	return RollModel(v), err
}

// mergedRoll is a roll of two steps (RollMerged): step k sends, to the
// neighbour of the roll's steps k, k+2, k+4, …, the pieces those steps send
// (and receives what they receive). The data is not carried: every piece is
// the root's, taken from the Shared when the roll ends.
type mergedRoll roll

func (x *mergedRoll) Exchange(k int) (int, ranks.Msg, int) {
	r := (*roll)(x)
	bytes, partner := 0, ranks.Nobody
	for j := k; j < r.g-1; j += 2 {
		sp, _, p := r.sides(j)
		ss, se := r.piece(sp)
		bytes += (se - ss) * bytesPerDouble
		partner = p
	}
	return partner, ranks.Msg{Bytes: bytes}, partner
}

func (x *mergedRoll) Received(int, ranks.Msg) {}

// rollKey names one process row's broadcast of one panel.
type rollKey struct{ tag, row int }

// rollData is a root's payload, left for the ranks of a merged roll.
type rollData struct {
	data    []float64
	pending int // ranks yet to take it
}

// leaveRoll leaves a copy of the root's payload for the n ranks of its
// merged roll.
func (sh *Shared) leaveRoll(k rollKey, b *payload, n int) {
	if sh.rolls == nil {
		sh.rolls = make(map[rollKey]*rollData)
	}
	src := b.full
	if src == nil {
		src = b.tail
	}
	sh.rolls[k] = &rollData{data: slices.Clone(src), pending: n}
}

// takeRoll fills b with the root's payload at the end of a merged roll.
func (sh *Shared) takeRoll(k rollKey, b *payload) {
	d := sh.rolls[k]
	if b.full != nil {
		copy(b.full, d.data)
	} else {
		copy(b.tail, d.data)
	}
	if d.pending--; d.pending == 0 {
		delete(sh.rolls, k)
	}
}
