package fluid

import (
	"cmp"
	"math"
	"math/bits"
)

// linkTree ranks the links of a re-solve of at most maxTreeLinks links
// by (key, link), as the level heap does (solveheap.go), for fillTree.
// It is a tournament tree of losers: each leaf is a link's entry, each
// inner node holds the leaf that lost the match played there (the greater
// of the two least entries below it), and the winner is kept apart. Only
// the winner's key changes (raised, or taken out), so a change replays the
// winner's path: at each node it meets the loser kept there, log₂ of the
// leaves comparisons that do not branch on the keys, the winner carried in
// registers. The heap's sifts branch on every comparison, and
// mispredicting them was most of their cost on Dahu's re-solves of 10 to
// 64 links, whose order they cannot learn. (BenchmarkFlatReSolves: the
// tree takes 0.77 of the heap's time on Dahu's network; the replayed solver
// of a Dahu run 0.82 of main's, docs/evidence/fluidspeed.md.) The same
// holds for the hundreds of links of a flat cluster's large components,
// where the tree halves the solver's mispredicted branches
// (BenchmarkStencilHalos, docs/evidence/flatfill.md).
//
// A key is kept as its float64's bits: the keys fillTree accepts are
// non-negative and not NaN, whose bits order as the floats do, so that
// (key bits, link) compares as one 128-bit integer, by a subtraction's
// borrow. A leaf taken out holds treeGone, above every such key.
type linkTree struct {
	key  [maxTreeLinks]uint64 // the leaves' keys, as float64 bits, or treeGone
	link [maxTreeLinks]LinkID // the leaves' links
	lost [maxTreeLinks]leaf   // lost[n], n = 1 … p−1: the leaf that lost at inner node n (children 2n, 2n+1; leaf i is node p+i)
	won  [maxTreeLinks]leaf   // build's scratch: the winner of each inner node
	win  leaf                 // the winning leaf: the least entry
	p    int                  // leaves, a power of two ≥ 2
}

// maxTreeLinks is the most links a linkTree holds, a power of two: a
// whole flat cluster of 2,048 hosts with SplitDuplex cables (Dahu's 32
// hosts queue at most 64). Its arrays take 64 KiB a System; a re-solve
// touches those of its p leaves. Larger re-solves (mostly links whose
// flows other links fix first) go to the level heap, which parks and
// drops such links in O(1) each where the tree would replay a path.
const maxTreeLinks = 4096

// leaf numbers a linkTree's leaf (and its inner nodes).
type leaf = uint16

// treeGone is the key of a leaf without an entry: no float64 bits of a
// key fillTree accepts (at most +Inf's, 0x7FF0…) reach it.
const treeGone = math.MaxUint64

// treeKeys reports whether every entry's key is non-negative and not NaN
// (−0 is out too: its bits would not order as the float does), so that
// the bits order the keys.
func treeKeys(entries []levelEntry) bool {
	for _, e := range entries {
		if math.Float64bits(e.Key) > math.Float64bits(math.Inf(1)) {
			return false
		}
	}
	return true
}

// build makes the tree of entries (at most maxTreeLinks, keys passing
// treeKeys).
func (t *linkTree) build(entries []levelEntry) {
	p := 2
	for p < len(entries) {
		p <<= 1
	}
	t.p = p
	for i, e := range entries {
		t.key[i], t.link[i] = math.Float64bits(e.Key), e.ID
	}
	for i := len(entries); i < p; i++ {
		t.key[i], t.link[i] = treeGone, 0
	}
	won := &t.won
	play := func(n int, a, b leaf) {
		mask := leaf(-lessBits(t.key[a], t.link[a], t.key[b], t.link[b])) // a wins
		won[n], t.lost[n] = b^(a^b)&mask, a^(a^b)&mask
	}
	for n := p - 1; n >= p/2; n-- { // the matches of two leaves
		play(n, leaf(2*n-p), leaf(2*n-p+1))
	}
	for n := p/2 - 1; n >= 1; n-- {
		play(n, won[2*n], won[2*n+1])
	}
	t.win = won[1]
}

// lessBits is 1 if (ka, la) < (kb, lb), else 0: (ka, la) − (kb, lb) as
// 128-bit integers borrows exactly then. Links are ≥ 0.
func lessBits(ka uint64, la LinkID, kb uint64, lb LinkID) uint64 {
	_, borrow := bits.Sub64(uint64(uint32(la)), uint64(uint32(lb)), 0)
	_, borrow = bits.Sub64(ka, kb, borrow)
	return borrow
}

// top returns the winning leaf; its key is treeGone when no entry is left.
func (t *linkTree) top() leaf { return t.win }

// setTop gives the winning leaf the key bits k, not less than its key
// (treeGone takes its entry out), and replays its path to the root.
func (t *linkTree) setTop(k uint64) {
	w := t.win
	t.key[w] = k
	wk, wl := k, t.link[w]
	for n := uint(t.p+int(w)) >> 1; n >= 1; n >>= 1 {
		// The masks cost less than bounds checks: n < p and l < p.
		l := t.lost[n&(maxTreeLinks-1)]
		lk, ll := t.key[l&(maxTreeLinks-1)], t.link[l&(maxTreeLinks-1)]
		// The loser kept here wins if it is the lesser: then the two
		// swap, without a branch on the keys.
		mask := -lessBits(lk, ll, wk, wl)
		t.lost[n&(maxTreeLinks-1)] = l ^ (l^w)&leaf(mask) // the one that loses now
		w ^= (w ^ l) & leaf(mask)
		wk ^= (wk ^ lk) & mask
		wl ^= (wl ^ ll) & LinkID(mask)
	}
	t.win = w
}

// fillTree is progressiveFill over the links scanLinks left in
// sv.queue.parked (at most maxTreeLinks, keys passing treeKeys), ranked
// by a linkTree instead of the level heap. Each lowestLink is the tree's
// winner: the least entry by (key, link), taken out if its link has no
// unfixed flow left, its key raised to its level while the level is above
// it. That is the order in which the lazy heap gives the links up (its
// keys are a total order, so its shape never matters, and an entry
// without unfixed flows never comes out of it), hence the same fixes in
// the same order, and the same rates to the bit.
func (m *maxmin) fillTree() {
	sv := &m.fill
	t := &sv.tree
	t.build(sv.queue.parked)
	work := sv.work
	sv.left = len(sv.flows)
	next := 0 // first bounded flow not yet looked at
	for sv.left > 0 {
		var boundLevel float64
		next, boundLevel = m.nextBound(next)
		linkLevel, at := math.Inf(1), -1
		for {
			i := t.top()
			if t.key[i] == treeGone {
				break
			}
			w := &work[t.link[i]]
			if w.unfixed == 0 { // all its flows fixed: take it out
				t.setTop(treeGone)
				continue
			}
			if level := w.remaining / w.usage; level > math.Float64frombits(t.key[i]) {
				t.setTop(math.Float64bits(level))
				continue
			} else {
				linkLevel, at = level, int(i)
			}
			break
		}
		switch {
		case at < 0 && math.IsInf(boundLevel, 1):
			return
		case boundLevel <= linkLevel:
			f := sv.bounded[next]
			m.fix(f.slot, f.bound)
		default:
			top := t.link[at]
			t.setTop(treeGone)
			m.fixMembers(top, linkLevel)
		}
	}
}

// fillFew is fillTree for a re-solve of one flow or two (a quarter and
// another quarter of a Dahu run's re-solves), where progressiveFill would
// call fillTree. It reports false, having done nothing, where fillTree
// would not run or a flow's first link to bind is not at a finite level
// (fillTree's own case, left to it).
//
// One flow, rising alone, stops at the least key of its links (each is
// its link's remaining/usage, which fillTree's winner finds unchanged) or
// at its bound level if that is not above it, and is fixed there as
// fillTree fixes it; only the ranking of the links, whose ties would all
// give the same level, is left out. Two flows: fillTwo.
//
// It stays a call, reached from a line progressiveFill had already: PGO
// names hot call sites by their line in the function, and lines added
// there, or an inlined fix, moved what it inlines (+0.25% instructions).
//
//go:noinline
func (m *maxmin) fillFew() bool {
	sv := &m.fill
	q := &sv.queue
	if len(q.parked) > min(smallQueue, maxTreeLinks) || q.heap.Len() > 0 {
		return false
	}
	if len(sv.flows) == 2 {
		return m.fillTwo()
	}
	level := math.Inf(1)
	for _, e := range q.parked {
		if math.Float64bits(e.Key) > math.Float64bits(math.Inf(1)) {
			return false // not a key fillTree takes (treeKeys)
		}
		level = min(level, e.Key)
	}
	if math.IsInf(level, 1) {
		return false
	}
	slot := sv.flows[0]
	sv.left = 1
	if len(sv.bounded) > 0 { // the flow itself
		if f := sv.bounded[0]; f.bound*f.weight <= level {
			m.fix(slot, f.bound)
			return true
		}
	}
	m.fix(slot, level/m.hot[slot].weight)
	return true
}

// fillTwo is fillTree for a re-solve of two flows, with the tree's
// rounds written out. The first round takes the least entry by (key,
// link): nothing is fixed yet, so its level is its key, and the first
// bounded flow (by bound level, then id, as progressiveFill sorts them)
// or that link's members are fixed as fillTree fixes them. If one flow is
// left, the second round takes, among the entries whose links still carry
// an unfixed flow (the left flow's links), the one fillTree's winner
// would come to: fillTree raises an entry that surfaces with a level
// above its key to that level and lets it surface again, so the entry it
// accepts is the least by (level if above the key, else key; link), at
// its level. Entries without unfixed flows never win there, and no entry
// was raised in the first round, so that is exact. The link fixMembers
// took in the first round has no unfixed flow left; one passed over for a
// bound stays in.
func (m *maxmin) fillTwo() bool {
	sv := &m.fill
	parked, work := sv.queue.parked, sv.work
	// The least entry by (key, link), chosen by masks as linkTree's
	// matches are: a branch on the keys would mispredict.
	fk, fl := uint64(treeGone), LinkID(0)
	for _, e := range parked {
		k := math.Float64bits(e.Key)
		if k > math.Float64bits(math.Inf(1)) {
			return false // not a key fillTree takes (treeKeys)
		}
		mask := -lessBits(k, e.ID, fk, fl)
		fk ^= (fk ^ k) & mask
		fl ^= (fl ^ e.ID) & LinkID(mask)
	}
	if fk >= math.Float64bits(math.Inf(1)) { // no entry, or +Inf: fillTree's own case
		return false
	}
	if b := sv.bounded; len(b) == 2 && boundAfter(b[0], b[1]) {
		b[0], b[1] = b[1], b[0]
	}
	sv.left = 2
	w := &work[fl]
	level := w.remaining / w.usage
	next, boundLevel := m.nextBound(0)
	if boundLevel <= level {
		f := sv.bounded[next]
		m.fix(f.slot, f.bound)
	} else {
		m.fixMembers(fl, level) // fl is left with no unfixed flow: out of round two
	}
	if sv.left == 0 {
		return true
	}
	// Round two, by masks too: an entry whose link has no unfixed flow
	// left is keyed treeGone, after every live one.
	ak, al, lv := uint64(treeGone), LinkID(0), math.Float64bits(math.Inf(1))
	for _, e := range parked {
		w := &work[e.ID]
		level := w.remaining / w.usage
		k, lb := math.Float64bits(e.Key), math.Float64bits(level)
		k ^= (k ^ lb) & -b2u(level > e.Key) // the raise
		k |= -b2u(w.unfixed == 0)
		mask := -lessBits(k, e.ID, ak, al)
		ak ^= (ak ^ k) & mask
		al ^= (al ^ e.ID) & LinkID(mask)
		lv ^= (lv ^ lb) & mask
	}
	linkLevel := math.Float64frombits(lv)
	next, boundLevel = m.nextBound(next)
	switch {
	case ak == treeGone && math.IsInf(boundLevel, 1):
	case boundLevel <= linkLevel:
		f := sv.bounded[next]
		m.fix(f.slot, f.bound)
	default:
		m.fixMembers(al, linkLevel)
	}
	return true
}

// b2u is 1 for true, 0 for false (a SETcc, not a branch).
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// boundAfter reports whether bounded flow a sorts after b in
// progressiveFill's order: by bound level, then by id.
func boundAfter(a, b *flow) bool {
	if c := cmp.Compare(a.bound*a.weight, b.bound*b.weight); c != 0 {
		return c > 0
	}
	return a.id > b.id
}
