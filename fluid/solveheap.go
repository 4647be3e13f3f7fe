package fluid

import (
	"math"
	"slices"

	"github.com/emu-hpc/emu/internal/heap"
)

// The solver's queue of links by (saturation level, id) is lazy: fixing
// a flow never re-positions the links it crosses, because in progressive
// filling a link's level only grows — fixing flow f at level m ≤ L (the
// link's level) turns L = R/U into (R − m·c)/(U − c) with c =
// coefficient/weight, which is ≥ L exactly when L ≥ m. So every key in
// the heap is a lower bound of its link's level, and the top entry is the
// true minimum as soon as its key is up to date; the solver refreshes
// stale tops when it meets them. One entry per link.
//
// The heap is 4-ary: half the depth of a binary heap, and a node's four
// children (16 bytes each) share one or two cache lines, which matters
// with tens of thousands of links queued. Keys are a total order (the
// link breaks ties), so the entries come out in the same order whatever
// the heap's shape.

// levelEntry is a link in the queue: Key a lower bound of its level
// when pushed, ID the link (which breaks ties).
type levelEntry = heap.Entry[float64, LinkID]

func linkAt(level float64, l LinkID) levelEntry {
	return levelEntry{Key: level, ID: l}
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
	heap   heap.Heap4[float64, LinkID]
	parked []levelEntry // keys > limit, and new entries before order, in no order
	limit  float64
}

func newLevelQueue() levelQueue {
	return levelQueue{}
}

// clear empties the queue, keeping its arrays.
func (q *levelQueue) clear() {
	q.heap.Reset(q.heap.Entries()[:0])
	q.parked = q.parked[:0]
}

// add queues e unordered, for the next order.
func (q *levelQueue) add(e levelEntry) { q.parked = append(q.parked, e) }

// minPartition is the fewest entries worth a partition: below it, all
// go into the heap.
const minPartition = 256

// order moves the parked entries into the heap, chooses a new limit so
// that about a quarter of the entries stay in the heap, parks the others
// and heapifies.
func (q *levelQueue) order() {
	var all []levelEntry
	if q.heap.Len() == 0 {
		// As at every solve's first order: no copy, the two arrays swap.
		all, q.parked = q.parked, q.heap.Entries()[:0]
	} else {
		all = append(q.heap.Entries(), q.parked...)
		q.parked = q.parked[:0]
	}
	n := len(all)
	if n < minPartition {
		q.limit = math.Inf(1)
		q.heap.Reset(all)
		return
	}
	// The limit is the lower quartile of an even sample of the keys (it
	// only sets how much work is deferred, never the order of links).
	var sample [31]float64
	for i := range sample {
		sample[i] = all[i*(n-1)/(len(sample)-1)].Key
	}
	slices.Sort(sample[:])
	q.limit = sample[len(sample)/4]
	kept := all[:0]
	for _, e := range all {
		if e.Key <= q.limit {
			kept = append(kept, e)
		} else {
			q.parked = append(q.parked, e)
		}
	}
	q.heap.Reset(kept)
}

// raiseTop gives the top entry its grown key level: back into the heap
// if it is within limit, parked otherwise.
func (q *levelQueue) raiseTop(level float64) {
	if level <= q.limit {
		q.heap.FixTop(level)
		return
	}
	e := q.heap.Pop()
	e.Key = level
	q.parked = append(q.parked, e)
}
