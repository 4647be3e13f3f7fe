package ranks

import "github.com/emu-hpc/emu/internal/heap"

// readyQueue holds the ranks ready to run. In rank order (the default) it
// is a min-heap of rank ids; with fifo it is a queue in the order ranks
// became ready (SimGrid's order). Both are deterministic.
//
// The heap holds the ids themselves, not *Rank: its comparisons then read
// one contiguous array instead of chasing a pointer into each Rank (with
// 1,024 ranks those cache misses were 13% of a ring message's cost).
type readyQueue struct {
	fifo  bool
	ranks []*Rank                 // Rank.gid → rank, to hand back what pop takes out
	byID  heap.Heap[int32, int32] // rank order: keyed by gid (unique, so never tied)
	ids   []int32                 // fifo: ids[head:] in the order they became ready
	head  int                     // fifo: ids[:head] have been popped
}

func (q *readyQueue) empty() bool { return q.byID.Len() == 0 && len(q.ids) == q.head }

func (q *readyQueue) push(r *Rank) {
	id := r.gid
	if !q.fifo {
		q.byID.Push(heap.Entry[int32, int32]{Key: id, ID: id})
		return
	}
	if q.head > 64 && 2*q.head > len(q.ids) {
		// Never drained for long: slide the live part down.
		n := copy(q.ids, q.ids[q.head:])
		q.ids, q.head = q.ids[:n], 0
	}
	q.ids = append(q.ids, id)
}

func (q *readyQueue) pop() *Rank {
	if q.empty() {
		return nil
	}
	if !q.fifo {
		return q.ranks[q.byID.Pop().ID]
	}
	id := q.ids[q.head]
	q.head++
	if q.head == len(q.ids) { // drained: reuse the array from the start
		q.ids, q.head = q.ids[:0], 0
	}
	return q.ranks[id]
}
