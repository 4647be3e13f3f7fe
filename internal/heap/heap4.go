package heap

import "cmp"

// Heap4 is Heap with four children per node: half the depth, and a
// node's children share one or two cache lines, which pays with tens of
// thousands of entries (the max-min solver's queue of links). Its zero
// value is empty.
type Heap4[K cmp.Ordered, I ID] struct {
	entries[K, I]
}

// Push adds e.
func (h *Heap4[K, I]) Push(e Entry[K, I]) { h.s = push[[4]struct{}](h.s, e) }

// Pop removes and returns the least entry; the heap must not be empty.
// The last entry moves to the root and can only go down.
func (h *Heap4[K, I]) Pop() Entry[K, I] {
	return down[[4]struct{}](&h.s, 0, true)
}

// FixTop gives the least entry the key k, not less than its own, and
// moves it down.
func (h *Heap4[K, I]) FixTop(k K) {
	h.s[0].Key = k
	down[[4]struct{}](&h.s, 0, false)
}

// Reset is Heap.Reset.
func (h *Heap4[K, I]) Reset(s []Entry[K, I]) {
	h.s = s
	for i := (len(s) - 2) >> 2; i >= 0; i-- { // −1 when len(s) < 2
		down[[4]struct{}](&h.s, i, false)
	}
}
