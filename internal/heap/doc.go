// Package heap is emu's one priority queue: min-heaps of small entries,
// each an ordering key and the integer name (ID) of an element that lives
// in the caller's own tables. It owns only the order; what an entry
// stands for (a flow, a rank, an op, a link) is the caller's.
//
// Entries come out by (Key, ID): the ID breaks ties, so the order is
// total and does not depend on the heap's shape. A caller whose ties
// follow something else than the name keeps it in the ID's high bits
// (fluid's flow heap: a tie above, the flow's slot below).
//
// Three types share the entries and the sift code's form: Heap (binary),
// Heap4 (4-ary: half the depth, and a node's children share one or two
// cache lines, which pays for the max-min solver's tens of thousands of
// links) and Indexed (binary, keeping each entry's position by the low
// 32 bits of its ID, so that an element's key can change (Fix) or the
// element leave (Delete) in O(log n)). They are types, not options, so
// that no heap tests at every level for what it is not.
//
// Why entries and not an element type with a Less method: Go calls a
// method of a type parameter through the instantiation's dictionary and
// never inlines it, so every comparison would be a call (BenchmarkHeap
// compares these heaps with the textbook one they replaced). Key and ID
// are ordered types, so their comparisons compile to machine compares;
// entries hold no pointer, so the garbage collector never scans a heap's
// array. A Push or a Pop costs one call, as a hand-written heap's does
// (sift.go says how, and how the sifts keep their loops as tight).
//
// The zero value of each type is an empty heap. A heap allocates only to
// grow; in steady state its operations allocate nothing. Misuse (Pop of
// an empty heap, an index out of range, an ID that is not in an indexed
// heap) panics: those are programming errors.
//
// Imports: nothing of ours (standard library only).
package heap
