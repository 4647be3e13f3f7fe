package fluid

import "github.com/emu-hpc/emu/internal/heap"

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

// maxTie is the largest tie an entry holds: 32 bits, above the slot
// (flow ids are checked by System.add, SimGrid stamps by newTie).
const maxTie = 1<<32 - 1

// entry is f's entry in the heap.
func (f *flow) entry() heap.Entry[float64, uint64] {
	return heap.Entry[float64, uint64]{Key: f.finish, ID: f.tie<<32 | uint64(uint32(f.slot))}
}

func (h *flowHeap) push(f *flow) { h.Push(f.entry()) }

func (h *flowHeap) remove(f *flow) { h.Delete(uint64(f.slot)) }

// fix restores the heap after f's finish time (or tie) changed.
func (h *flowHeap) fix(f *flow) { h.Fix(f.entry()) }
