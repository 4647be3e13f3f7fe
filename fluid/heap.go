package fluid

import (
	"cmp"
	"slices"

	"github.com/emu-hpc/emu/internal/heap"
)

// flowHeap orders running flows by (projected finish time, tie): an
// indexed min-heap whose entries carry their keys, so that comparisons
// read the heap's own array instead of chasing a pointer into each flow
// (those cache misses were a tenth of a small message's cost with 1,024
// flows in flight). An entry's ID is the flow's tie in its high 32 bits
// and its slot in the low ones: the heap orders equal finish times by
// tie, and indexes the entry by slot, so a rate change re-positions the
// flow in O(log n) and the moves write a dense array, not the flow
// structs.
type flowHeap struct {
	heap.Indexed[float64, uint64]
}

// maxTie is the largest tie an entry holds: 32 bits, above the slot.
const maxTie = 1<<32 - 1

// tieLimit is the largest tie handed out before System.retie renumbers
// them: maxTie, a variable only so that the tests can renumber often.
var tieLimit uint64 = maxTie

// entry is f's entry in the heap.
func (f *flow) entry() heap.Entry[float64, uint64] {
	return heap.Entry[float64, uint64]{Key: f.finish, ID: f.tie<<32 | uint64(uint32(f.slot))}
}

func (h *flowHeap) push(f *flow) { h.Push(f.entry()) }

func (h *flowHeap) remove(f *flow) { h.Delete(uint64(f.slot)) }

// fix restores the heap after f's finish time (or tie) changed.
func (h *flowHeap) fix(f *flow) { h.Fix(f.entry()) }

// retie renumbers the ties of the running flows (every flow in the heap)
// 1, 2, …, n in their present order, and returns n. Ties only order flows
// finishing at the same date, so keeping their order keeps every outcome;
// the System and lmm call it when their next tie would pass tieLimit,
// then hand out ties from n+1: a run may start any number of flows, and
// lmm stamp any number of updates, where 32 bits once stopped it (a whole
// Stampede run starts 3.2e9 flows, and lmm stamps every rate change).
func (s *System) retie() uint64 {
	entries := slices.Clone(s.done.Entries())
	slices.SortFunc(entries, func(a, b heap.Entry[float64, uint64]) int { return cmp.Compare(a.ID, b.ID) })
	for i, e := range entries {
		f := s.bySlot[uint32(e.ID)]
		f.tie = uint64(i + 1)
		s.done.fix(f) // the order is unchanged: the heap stays valid at every step
	}
	return uint64(len(entries))
}
