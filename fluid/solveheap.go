package fluid

import (
	"math"
	"slices"
)

// levelHeap is the solver's queue of links by (saturation level, id). It
// is lazy: fixing a flow never re-positions the links it crosses, because
// in progressive filling a link's level only grows — fixing flow f at
// level m ≤ L (the link's level) turns L = R/U into (R − m·c)/(U − c)
// with c = coefficient/weight, which is ≥ L exactly when L ≥ m. So every
// key in the heap is a lower bound of its link's level, and the top entry
// is the true minimum as soon as its key is up to date; the solver
// refreshes stale tops when it meets them. One entry per link.
//
// The heap is 4-ary: half the depth of a binary heap, and a node's four
// children (16 bytes each) share one or two cache lines, which matters
// with tens of thousands of links queued. Sifts move a hole instead of
// swapping. Keys are a total order, so the entries come out in the same
// order whatever the heap's shape.
type levelHeap []levelEntry

type levelEntry struct {
	level float64 // lower bound of the link's level when pushed
	link  LinkID
}

func (a levelEntry) before(b levelEntry) bool {
	return a.level < b.level || (a.level == b.level && a.link < b.link)
}

// init orders an unordered slice into a heap in O(n).
func (h levelHeap) init() {
	if len(h) < 2 {
		return
	}
	for i := (len(h) - 2) / 4; i >= 0; i-- {
		h.down(i, h[i])
	}
}

// pop removes the top entry.
func (h *levelHeap) pop() {
	q := *h
	last := len(q) - 1
	e := q[last]
	*h = q[:last]
	if last > 0 {
		q[:last].down(0, e)
	}
}

// replaceTop puts e in place of the top entry (a key that grew).
func (h levelHeap) replaceTop(e levelEntry) { h.down(0, e) }

// down moves e from hole i towards the leaves.
func (h levelHeap) down(i int, e levelEntry) {
	n := len(h)
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < c+4 && j < n; j++ {
			if h[j].before(h[m]) {
				m = j
			}
		}
		if !h[m].before(e) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = e
}

// levelQueue is the level heap with a parking lot in front of it. In a
// large component most links end with all their flows fixed by other
// links before their own level is reached, and a refreshed key mostly
// sinks to the bottom of the heap, paying a full sift for an entry that
// will never come out alive. So entries whose keys exceed limit wait
// unordered in parked, and are heapified (O(n)) only once every heap
// entry has come out. Every heap key is ≤ limit < every parked key, so
// the top of the heap is the least entry of both and the links come out
// in the very order of a single heap.
type levelQueue struct {
	heap   levelHeap
	parked []levelEntry // keys > limit, in no order
	limit  float64
}

// minPartition is the fewest entries worth a partition: below it, all
// go into the heap.
const minPartition = 256

// order moves the parked entries into the heap, chooses a new limit so
// that about a quarter of the entries stay in the heap, parks the others
// and heapifies.
func (q *levelQueue) order() {
	q.heap = append(q.heap, q.parked...)
	q.parked = q.parked[:0]
	n := len(q.heap)
	if n < minPartition {
		q.limit = math.Inf(1)
		q.heap.init()
		return
	}
	// The limit is the lower quartile of an even sample of the keys (it
	// only sets how much work is deferred, never the order of links).
	var sample [31]float64
	for i := range sample {
		sample[i] = q.heap[i*(n-1)/(len(sample)-1)].level
	}
	slices.Sort(sample[:])
	q.limit = sample[len(sample)/4]
	kept := q.heap[:0]
	for _, e := range q.heap {
		if e.level <= q.limit {
			kept = append(kept, e)
		} else {
			q.parked = append(q.parked, e)
		}
	}
	q.heap = kept
	q.heap.init()
}

// raiseTop gives the top entry its grown key e.level: back into the heap
// if it is within limit, parked otherwise.
func (q *levelQueue) raiseTop(e levelEntry) {
	if e.level <= q.limit {
		q.heap.replaceTop(e)
		return
	}
	q.heap.pop()
	q.parked = append(q.parked, e)
}
