package fluid

import "github.com/emu-hpc/emu/internal/heap"

// flowHeap orders running flows by (projected finish time, tie): an
// indexed min-heap whose entries carry their keys, so that comparisons
// read the heap's own array instead of chasing a pointer into each flow
// (those cache misses were a tenth of a small message's cost with 1,024
// flows in flight). An entry's ID is its flow's slot, which the heap's
// index maps to a position, so a rate change re-positions the flow in
// O(log n) and the moves write a dense array, not the flow structs.
type flowHeap struct {
	heap.Heap[float64, uint64] // Key: flow.finish, Tie: flow.tie, ID: flow.slot
}

func newFlowHeap() flowHeap {
	return flowHeap{heap.New[float64, uint64](heap.Options{Indexed: true})}
}

func (h *flowHeap) push(f *flow) {
	h.Push(heap.Entry[float64, uint64]{Key: f.finish, Tie: f.tie, ID: f.slot})
}

func (h *flowHeap) remove(f *flow) { h.Remove(h.Pos(f.slot)) }

// fix restores the heap after f's finish time (or tie) changed.
func (h *flowHeap) fix(f *flow) { h.Fix(h.Pos(f.slot), f.finish, f.tie) }
