// Package heap is emu's one priority queue: a d-ary min-heap of small
// entries, each an ordering key, a tie-breaker and the int32 name of an
// element that lives in the caller's own tables. It owns only the order;
// what an entry stands for (a flow's slot, a rank, an op, a link) is the
// caller's.
//
// Entries come out by (Key, Tie). Entries equal in both come out in an
// order fixed by the sequence of operations alone, as in any binary heap;
// callers that must reproduce another program's order (LogGOPSim's event
// queue) rely on that, callers that need a total order make Tie unique.
//
// Why entries and not an element type with a Less method: Go calls a
// method of a type parameter through the instantiation's dictionary and
// never inlines it. A heap so written, measured while this one was
// designed (go1.26, pop-and-push of the least entry), took 174 ns per
// operation against 114 for the hand-written flow heap (10,000 entries)
// and 78 against 18 for the ranks' ready queue (1,024 ids). Key and Tie
// are cmp.Ordered, so their comparisons compile to machine compares;
// entries hold no pointer, so the garbage collector never scans a heap's
// array.
//
// A heap may index its entries by ID (Options.Indexed): it then keeps each
// ID's position, so an element's key can change (Fix) or the element leave
// (Remove) in O(log n) without the caller tracking positions.
//
// Arity is an option because the max-min solver's queue of tens of
// thousands of links is faster 4-ary (four 16-byte entries share one or
// two cache lines; see fluid/solveheap.go); every other heap is binary.
//
// The zero Heap is an empty binary heap without index. A Heap allocates
// only to grow; in steady state its operations allocate nothing. Misuse
// (Pop of an empty heap, an index out of range, an ID that is not in an
// indexed heap) panics: those are programming errors.
//
// Imports: nothing of ours (standard library only).
package heap
