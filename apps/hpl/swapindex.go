package hpl

import "slices"

// Row-swap bookkeeping (hpl.md §7.1): local integer work, identical on every rank
// of a process column, computed once per panel and cached.

// swapIndex caches a panel's swap index arrays. iflag is −1 before any, 0 after
// the binary-exchange arrays, 1 after the spread-roll ones (HPL's IWORK[0]).
type swapIndex struct {
	iflag int
	ipid  []int // moves as (src, dst) pairs, 2k entries
	next  []int // per move: see nextOf
	owner []int // process row of each ipid entry
	// list is the Shared list the moves were read from, nil when this rank
	// computed them: with a list, the arrays below that plindx0 sets are the
	// list's, read-only.
	list *moveList

	// binary exchange (HPL_plindx0)
	lindxA, lindxAU []int
	llen            []int // rows per process row
	llenW           []int // pdlaswp00's working copy of llen

	// spread-roll (HPL_plindx1): this rank's share of sp (read-only), and
	// iplen, its own copy of sp's offsets
	sp      *spreadIndex
	own     *spreadIndex // sp when the moves are the rank's own (no Shared)
	ipA     int
	lindxA1 []int
	lindxU1 []int
	iplen   []int // P+1 offsets of the positions' pieces of U
	ipmap   []int // position → process row
	ipmapm1 []int // process row → position
	permU   []int // final row interchanges of U
}

// moves computes the panel's list of moves and what is derived from it alone,
// for either swap algorithm. With a Shared (Options.Shared) the lists are
// computed once for all the ranks and read from there.
func (pn *panel) moves() {
	s := pn.s
	x := &pn.swp
	if s.shared != nil {
		m := s.shared.moves(pn.moveKey(), pn.dpiv)
		x.ipid, x.next, x.owner, x.list = m.ipid, m.next, m.owner, m
		return
	}
	x.list = nil
	x.ipid, x.next, x.owner = computeMoves(&s.swap, pn.moveKey(), pn.dpiv, x.ipid, x.next, x.owner)
}

// moveKey is what a panel's list of moves depends on besides its DPIV.
type moveKey struct {
	ia, jb, nb, p, prow int
	real                bool // the lists that steer only data are computed too
}

func (pn *panel) moveKey() moveKey {
	s := pn.s
	return moveKey{ia: pn.ia, jb: pn.jb, nb: s.nb, p: s.g.p, prow: pn.prow, real: s.real}
}

// computeMoves returns the list of moves src → dst that the pivots dpiv of
// the panel k imply (pipid), where each row finally goes (nextOf, real mode
// only) and the process row owning each entry of the list, in the arrays of
// ipid, next and owner when they are large enough.
func computeMoves(sc *swapScratch, k moveKey, dpiv []float64, ipid, next, owner []int) ([]int, []int, []int) {
	ipid = sc.pipid(k.ia, k.jb, dpiv, ipid)
	next = next[:0]
	if k.real { // where each row finally goes matters only to data, absent in model mode
		next = sc.nextOf(ipid, next)
	}
	// The panel's own rows normally lie in one block, owned by its process
	// row: then only the pivot rows below need a division.
	oneBlock := k.ia%k.nb+k.jb <= k.nb
	owner = owner[:0]
	if cap(owner) < len(ipid) { // once, at its final size: a new panel's lists would grow by doubling
		owner = make([]int, 0, len(ipid))
	}
	for _, r := range ipid {
		p := k.prow
		if !oneBlock || r-k.ia >= k.jb {
			p = g2p(r, k.nb, k.p)
		}
		owner = append(owner, p)
	}
	return ipid, next, owner
}

// pipid is HPL_pipid: the list of moves src → dst implied by the pivots dpiv
// of the panel of width jb at row ia (hpl.md §7.1). HPL searches the list
// linearly; sources and destinations are each distinct (the moves are a
// permutation), so an index from row to position finds the same entries in
// O(1) and the list comes out identical. The index is a dense array over the
// rows the moves can name (number); beside the list, the scratch keeps each
// entry's row id, so no row is looked up twice. The list reuses ipid's array.
func (sc *swapScratch) pipid(ia, jb int, dpiv []float64, ipid []int) []int {
	dstID, nid := sc.number(ia, jb, dpiv)
	if cap(sc.at) < 2*jb { // room for the most ids a panel can have
		sc.at = make([]int, 0, 2*jb)
	}
	at := filled(sc.at, nid, -1) // dst row's id → its index (odd) in ipid
	sc.at = at
	ipid, ids := ipid[:0], sc.ids[:0]
	// the most entries a panel's list can have (a pair per distinct row, at most
	// jb sources and jb destinations), allocated at once rather than by doubling
	if cap(ipid) < 4*jb {
		ipid = make([]int, 0, 4*jb)
	}
	if cap(ids) < 4*jb {
		ids = make([]int, 0, 4*jb)
	}
	add := func(row, id, placeholder int) { // a new move from row, its dst to come
		ipid = append(ipid, row, placeholder)
		ids = append(ids, id, -1)
	}
	put := func(j, v, id int) { // write a dst entry, keeping the index
		if k := ids[j]; k >= 0 && at[k] == j {
			at[k] = -1
		}
		ipid[j], ids[j] = v, id
		at[id] = j
	}
	src, dst := ia, int(dpiv[0])
	add(dst, dstID[0], 0)
	put(1, src, 0)
	if src != dst {
		add(src, 0, 0)
		put(3, dst, dstID[0])
	}
	for i := 1; i < jb; i++ {
		src, dst = ia+i, int(dpiv[i])
		sid, did := i, dstID[i]
		K := len(ipid)
		var lst int
		if src == dst {
			if fnds := at[sid]; fnds >= 0 {
				lst = fnds - 1
			} else {
				lst = K
				add(src, sid, -1)
			}
			put(lst+1, dst, did)
		} else {
			fnds, fndd := at[sid], at[did]
			off := 0
			if fnds < 0 {
				add(src, sid, -1)
				put(K+1, dst, did)
				off = 2
			} else {
				put(fnds, dst, did)
			}
			if fndd < 0 {
				lst = K + off
				add(dst, did, -1)
			} else {
				lst = fndd - 1
			}
			put(lst+1, src, sid)
		}
		if j := i << 1; lst != j {
			ipid[j], ipid[lst] = ipid[lst], ipid[j]
			ids[j], ids[lst] = ids[lst], ids[j]
			ipid[j+1], ipid[lst+1] = ipid[lst+1], ipid[j+1]
			ids[j+1], ids[lst+1] = ids[lst+1], ids[j+1]
			at[ids[j+1]], at[ids[lst+1]] = j+1, lst+1
		}
	}
	sc.ids = ids
	return ipid
}

// nextOf returns, for each move src → dst, the dst of the move whose src is
// that dst: the U slot the row now sitting at dst will finally occupy (as an
// absolute row). HPL searches the list for it; when no source matches it ends
// on the last move's dst. ipid must be the list pipid just returned for this
// panel: the row ids it left in the scratch index the search. The result
// reuses next's array.
func (sc *swapScratch) nextOf(ipid, next []int) []int {
	ids := sc.ids[:len(ipid)]
	bySrc := filled(sc.bySrc, len(sc.at), -1)
	sc.bySrc = bySrc
	for i := len(ipid) - 2; i >= 0; i -= 2 { // backwards: the first match wins
		bySrc[ids[i]] = ipid[i+1]
	}
	next = next[:0]
	for i := 1; i < len(ipid); i += 2 {
		d := bySrc[ids[i]]
		if d < 0 { // rows are ≥ 0: no move starts at this dst
			d = ipid[len(ipid)-1]
		}
		next = append(next, d)
	}
	return next
}

// plindx0 is HPL_plindx0: the binary-exchange arrays. They depend on the
// panel's list of moves and the rank's process row only, so with a Shared
// the first rank of each process row computes them into the list and the
// others read them from there (read-only, like the list).
func (pn *panel) plindx0() {
	x := &pn.swp
	myrow := pn.s.g.myrow
	l := x.list
	if l == nil {
		x.llen, x.lindxA, x.lindxAU = pn.binaryIndex(myrow, x.llen, x.lindxA, x.lindxAU)
		return
	}
	if l.rows == nil {
		l.rows = make([]*rowIndex, pn.s.g.p)
	}
	r := l.rows[myrow]
	if r == nil {
		sc := &pn.s.swap
		r = new(rowIndex)
		sc.llen, r.lindxA, r.lindxAU = pn.binaryIndex(myrow, sc.llen, nil, nil)
		if l.llen == nil {
			l.llen = slices.Clone(sc.llen)
		}
		l.rows[myrow] = r
	}
	x.llen, x.lindxA, x.lindxAU = l.llen, r.lindxA, r.lindxAU
}

// binaryIndex computes HPL_plindx0's arrays for the ranks of process row
// myrow into the arrays of llen, lindxA and lindxAU: the rows each process
// row sends (llen), and for each move from myrow the local row it takes
// (lindxA) and where it goes (lindxAU: a row of U, or minus a local row).
func (pn *panel) binaryIndex(myrow int, llen, lindxA, lindxAU []int) ([]int, []int, []int) {
	s := pn.s
	nb, P := s.nb, s.g.p
	icur, jb, ia, iroff := pn.prow, pn.jb, pn.ia, pn.ii
	x := &pn.swp
	llen = zeroed(llen, P)
	for i := 0; i < len(x.owner); i += 2 {
		llen[x.owner[i]]++
	}
	// at their final size at once: a row's new arrays (with a Shared) would grow by doubling
	if n := llen[myrow]; cap(lindxA) < n || cap(lindxAU) < n {
		lindxA, lindxAU = make([]int, 0, n), make([]int, 0, n)
	}
	lindxA, lindxAU = lindxA[:0], lindxAU[:0]
	for i := 0; i < len(x.ipid); i += 2 {
		src := x.ipid[i]
		if x.owner[i] != myrow {
			continue
		}
		lindxA = append(lindxA, g2l(src, nb, P)-iroff)
		dst := x.ipid[i+1]
		var au int
		if myrow == icur {
			if x.owner[i+1] == icur {
				if dst-ia < jb {
					au = dst - ia
				} else {
					au = iroff - g2l(dst, nb, P)
				}
			} else if s.real { // the slot only steers data
				au = x.next[i/2] - ia
			}
		} else {
			au = dst - ia
		}
		lindxAU = append(lindxAU, au)
	}
	return llen, lindxA, lindxAU
}

// spreadIndex is what HPL_plindx1 computes for one panel, for the ranks of
// every process row at once: the ranks of a process column compute the same
// offsets, positions and final interchanges of U, and the ranks of one
// process row the same local rows, so with a Shared the first rank that
// needs them computes them into the panel's list and the others read them
// (read-only, like the list).
type spreadIndex struct {
	off     []int   // P+1 offsets of the positions' pieces of U (HPL_plindx10's IPLEN)
	ipmap   []int   // position → process row
	ipmapm1 []int   // process row → position
	permU   []int   // final row interchanges of U (zero in model mode)
	lindxA  [][]int // per process row: on prow its source rows, elsewhere the rows its slice swaps with
	lindxU  []int   // prow's: where each of its source rows goes (a U slot, or minus a local row)
	eq      equilPlan
	ints    []int // the array the others are cut from
}

// plindx1 is HPL_plindx1: the spread-roll arrays, this rank's share of the
// panel's spreadIndex. IPLEN is the rank's own copy, since equilibration
// rewrites it; swapSpreadRoll copies the offsets in again before each swap,
// which is what HPL's recomputation (HPL_plindx10) gives.
func (pn *panel) plindx1() {
	x := &pn.swp
	sp := pn.spreadIndex()
	x.sp = sp
	myrow := pn.s.g.myrow
	x.lindxA1, x.lindxU1, x.ipA = sp.lindxA[myrow], nil, 0
	if myrow == pn.prow {
		x.lindxU1, x.ipA = sp.lindxU, len(x.lindxA1)
	}
	x.ipmap, x.ipmapm1, x.permU = sp.ipmap, sp.ipmapm1, sp.permU
}

// spreadIndex returns the panel's spreadIndex: the list's when the moves
// came from a Shared (computed by the first rank that asks), else the
// panel's own, computed now.
func (pn *panel) spreadIndex() *spreadIndex {
	x := &pn.swp
	if l := x.list; l != nil {
		if l.spread == nil {
			l.spread = new(spreadIndex)
			pn.buildSpread(l.spread, -1)
		}
		return l.spread
	}
	if x.own == nil {
		x.own = new(spreadIndex)
	}
	pn.buildSpread(x.own, pn.s.g.myrow)
	return x.own
}

// buildSpread computes the panel's spreadIndex into sp, reusing its arrays:
// HPL_plindx10's counts and logarithmic sort, then HPL_plindx1's pass over the
// moves, for process row row alone or, when row < 0, for every one.
func (pn *panel) buildSpread(sp *spreadIndex, row int) {
	s := pn.s
	nb, P := s.nb, s.g.p
	icur, jb, ia := pn.prow, pn.jb, pn.ia
	x := &pn.swp
	sc := &s.swap
	sp.eq.built = false
	// Every array is cut from one, at its final size: a Shared makes a new
	// spreadIndex a panel, whose arrays would otherwise grow by doubling.
	// A rank alone reuses its own index: its rows get room for every move,
	// which saves it the count.
	diag := row < 0 || row == icur // the diagonal process row's arrays are wanted
	rows := zeroed(sc.rows1, P)    // room for each process row's lindxA
	if row < 0 {
		for i := 0; i < len(x.ipid); i += 2 {
			if drow := x.owner[i+1]; drow != icur {
				rows[drow]++
			}
			if x.owner[i] == icur {
				rows[icur]++
			}
		}
	} else {
		rows[row] = len(x.ipid) / 2
		if diag {
			rows[icur] = len(x.ipid) / 2
		}
	}
	sc.rows1 = rows
	n := 3*P + 1 + jb + rows[icur]
	for _, k := range rows {
		n += k
	}
	if cap(sp.ints) < n {
		sp.ints = make([]int, n)
	}
	b := sp.ints[:n]
	cut := func(k int) []int {
		part := b[:0:k]
		b = b[k:]
		return part
	}
	sp.off, sp.ipmap, sp.ipmapm1, sp.permU, sp.lindxU = cut(P+1), cut(P), cut(P), cut(jb), cut(rows[icur])
	if cap(sp.lindxA) < P {
		sp.lindxA = make([][]int, P)
	}
	sp.lindxA = sp.lindxA[:P]
	for r := range sp.lindxA {
		sp.lindxA[r] = cut(rows[r])
	}
	// HPL_plindx10: the pieces' sizes per process row, then their positions.
	sp.off = zeroed(sp.off, P+1)
	for i := 0; i < len(x.ipid); i += 2 {
		if x.owner[i] != icur {
			continue
		}
		dst := x.ipid[i+1]
		drow := x.owner[i+1]
		if drow != icur || dst-ia < jb {
			sp.off[drow+1]++
		}
	}
	sp.ipmap, sp.ipmapm1 = logsort(P, icur, sp.off, sp.ipmap, sp.ipmapm1)
	// HPL_plindx1: each U row's slot, as the next free one of its piece.
	next := append(sc.next[:0], sp.off[:P]...) // next free slot of each position's piece
	sc.next = next
	rowOffs := zeroed(sc.rowOffs, P) // the process rows' local offsets of the panel (their panel.ii)
	for r := range P {
		if row < 0 || r == row || r == icur {
			rowOffs[r] = numroc(ia, nb, r, P)
		}
	}
	sc.rowOffs = rowOffs
	rowOff := rowOffs[icur]
	lindxU, permU, slot := sp.lindxU[:0], sc.permU[:0], sc.slot[:0]
	take := func(drow int) int {
		il := sp.ipmapm1[drow]
		j := next[il]
		next[il]++
		return j
	}
	for i := 0; i < len(x.ipid); i += 2 {
		src, dst := x.ipid[i], x.ipid[i+1]
		srow, drow := x.owner[i], x.owner[i+1]
		if drow != icur && (row < 0 || row == drow) {
			sp.lindxA[drow] = append(sp.lindxA[drow], g2l(dst, nb, P)-rowOffs[drow])
		}
		if srow != icur {
			continue
		}
		var au int
		switch {
		case drow == icur && dst-ia < jb:
			permU = append(permU, dst-ia)
			au = take(drow)
			slot = append(slot, au)
		case drow != icur:
			final := 0 // the U row only steers data: none in model mode
			if s.real {
				final = x.next[i/2] - ia
			}
			permU = append(permU, final)
			au = take(drow)
			slot = append(slot, au)
		case diag:
			au = rowOff - g2l(dst, nb, P)
		}
		if diag {
			sp.lindxA[icur] = append(sp.lindxA[icur], g2l(src, nb, P)-rowOff)
			lindxU = append(lindxU, au)
		}
	}
	sp.lindxU = lindxU
	sc.permU, sc.slot = permU, slot
	if s.real {
		sp.permU = sc.perm(sp.permU, jb, slot, permU)
	} else { // laswpU moves no data in model mode, only charges its jb rows
		sp.permU = zeroed(sp.permU, jb)
	}
}

// logsort is HPL_logsort: position j starts with process (j + icur) mod P; the
// counts in iplen[1..P] are sorted so that positions of smaller binary weight
// (nearer the root of the spread tree) hold larger pieces; iplen becomes the
// offsets. The maps reuse the arrays of the ipmap and ipmapm1 passed in.
func logsort(P, icur int, iplen, ipmap, ipmapm1 []int) ([]int, []int) {
	ipmap = zeroed(ipmap, P)
	ipmapm1 = zeroed(ipmapm1, P) // weights first, then the inverse map
	dist := 0
	for j := range P {
		ipmap[j] = modAdd(j, icur, P)
		w := 0
		for ip := j; ip != 0; ip >>= 1 {
			w += ip & 1
		}
		ipmapm1[j] = w
		dist = max(dist, w)
	}
	for range icur {
		t := iplen[1]
		for i := 2; i <= P; i++ {
			iplen[i-1] = iplen[i]
		}
		iplen[P] = t
	}
	for k := 1; k <= dist; k++ {
		for j := 1; j < P; j++ {
			if ipmapm1[j] != k {
				continue
			}
			for i := 2; i < P; i++ {
				if k < ipmapm1[i] && iplen[j+1] < iplen[i+1] {
					iplen[j+1], iplen[i+1] = iplen[i+1], iplen[j+1]
					ipmap[j], ipmap[i] = ipmap[i], ipmap[j]
				}
			}
		}
	}
	iplen[0] = 0
	for i := range P {
		ipmapm1[ipmap[i]] = i
		iplen[i+1] += iplen[i]
	}
	return ipmap, ipmapm1
}

// perm is HPL_perm: turn "slot[i] holds final row permU[i]" into a sequence of
// n row interchanges (row i with row out[i]) that puts every row in place. HPL
// finds positions by linear search; both arrays are permutations, so inverse
// arrays give the same answers in O(n). The result reuses out's array; the
// work arrays are the scratch's.
func (sc *swapScratch) perm(out []int, n int, slot, permU []int) []int {
	iwork := zeroed(sc.iwork, n)
	lindxA := zeroed(sc.lindxA, n)
	for i := range n {
		iwork[slot[i]] = i
	}
	where := zeroed(sc.where, n) // where[v]: index j with lindxA[j] == v
	for i := range n {
		lindxA[i] = permU[iwork[i]]
		where[lindxA[i]] = i
	}
	inv := zeroed(sc.inv, n) // inv[v]: index k with iwork[k] == v
	sc.iwork, sc.lindxA, sc.where, sc.inv = iwork, lindxA, where, inv
	for i := range n {
		iwork[i], inv[i] = i, i
	}
	out = zeroed(out, n)
	for i := range n {
		j := where[i]
		k := inv[j]
		a, b := iwork[i], iwork[k]
		iwork[i], iwork[k] = b, a
		inv[b], inv[a] = i, k
		out[i] = k
	}
	return out
}
