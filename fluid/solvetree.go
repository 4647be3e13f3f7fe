package fluid

import (
	"math"
	"math/bits"
)

// linkTree ranks the links of a re-solve of at most maxTreeLinks links
// by (key, link), as the level heap does (solveheap.go), for fillTree.
// It is a tournament tree: each leaf is a link's entry, and each inner
// node holds the leaf that wins (the least entry) among the leaves below
// it. Changing a leaf replays its path to the root, log₂ of the leaves
// comparisons that do not branch on the keys; the heap's sifts branch on
// every comparison, and mispredicting them was most of their cost on
// Dahu's re-solves of 10 to 64 links, whose order they cannot learn.
//
// A key is kept as its float64's bits: the keys fillTree accepts are
// non-negative and not NaN, whose bits order as the floats do, so that
// (key bits, link) compares as one 128-bit integer, by a subtraction's
// borrow. A leaf taken out holds treeGone, above every such key.
type linkTree struct {
	key  [maxTreeLinks]uint64    // the leaves' keys, as float64 bits, or treeGone
	link [maxTreeLinks]LinkID    // the leaves' links
	win  [2 * maxTreeLinks]uint8 // win[n]: the leaf winning node n; nodes 1 … p−1 inner, p … 2p−1 the leaves
	p    int                     // leaves, a power of two ≥ 2
}

// maxTreeLinks is the most links a linkTree holds: enough for a flat
// cluster of 32 hosts with SplitDuplex cables (Dahu), and its leaf
// numbers fit a byte.
const maxTreeLinks = 64

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
	for i := range p {
		t.win[p+i] = uint8(i)
	}
	for n := p - 1; n >= 1; n-- {
		t.win[n] = t.least(t.win[2*n], t.win[2*n+1])
	}
}

// least returns the leaf of a and b with the lesser (key, link); of equal
// ones (two leaves taken out), b.
func (t *linkTree) least(a, b uint8) uint8 {
	// (key[a], link[a]) − (key[b], link[b]) as 128-bit integers borrows
	// exactly when a's entry is the lesser. Links are ≥ 0.
	_, borrow := bits.Sub64(uint64(uint32(t.link[a])), uint64(uint32(t.link[b])), 0)
	_, borrow = bits.Sub64(t.key[a], t.key[b], borrow)
	return b ^ (a^b)&uint8(-borrow)
}

// top returns the winning leaf; its key is treeGone when no entry is left.
func (t *linkTree) top() uint8 { return t.win[1] }

// set gives leaf i the key bits k (treeGone takes its entry out) and
// replays its path to the root.
func (t *linkTree) set(i uint8, k uint64) {
	t.key[i] = k
	for n := (t.p + int(i)) >> 1; n >= 1; n >>= 1 {
		t.win[n] = t.least(t.win[2*n], t.win[2*n+1])
	}
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
		for next < len(sv.bounded) && m.hot[sv.bounded[next].slot].stamp != sv.stamp {
			next++
		}
		boundLevel := math.Inf(1)
		if next < len(sv.bounded) {
			boundLevel = sv.bounded[next].bound * sv.bounded[next].weight
		}
		linkLevel, at := math.Inf(1), -1
		for {
			i := t.top()
			if t.key[i] == treeGone {
				break
			}
			w := &work[t.link[i]]
			if w.unfixed == 0 { // all its flows fixed: take it out
				t.set(i, treeGone)
				continue
			}
			if level := w.remaining / w.usage; level > math.Float64frombits(t.key[i]) {
				t.set(i, math.Float64bits(level))
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
			t.set(uint8(at), treeGone)
			for _, mb := range m.links[top].members {
				if m.hot[mb.slot].stamp == sv.stamp { // re-solved, not fixed yet
					m.fix(mb.slot, linkLevel/m.hot[mb.slot].weight)
				}
			}
		}
	}
}
