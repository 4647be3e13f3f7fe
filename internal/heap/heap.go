package heap

import "cmp"

// Entry is one element of a heap.
type Entry[K cmp.Ordered, I ID] struct {
	Key K // ordered first
	ID  I // the caller's name for the element; orders entries of equal Key
}

// ID is the type of an entry's name: a signed or unsigned integer.
type ID interface {
	~int32 | ~uint32 | ~int64 | ~uint64
}

// less is the heaps' order, which the sifts write out (sift.go). The
// second test runs only on equal keys, which most callers never have.
func (a *Entry[K, I]) less(b *Entry[K, I]) bool {
	return a.Key < b.Key || (a.Key == b.Key && a.ID < b.ID)
}

// entries is what every heap type holds and reads alike.
type entries[K cmp.Ordered, I ID] struct {
	s []Entry[K, I]
}

// Len is the number of entries.
func (h *entries[K, I]) Len() int { return len(h.s) }

// Top is the least entry; the heap must not be empty.
func (h *entries[K, I]) Top() Entry[K, I] { return h.s[0] }

// Entries are the heap's entries, Top first, the others in no useful
// order. The slice is the heap's own: valid until the next change, and
// not to be written except to hand it back to Reset.
func (h *entries[K, I]) Entries() []Entry[K, I] { return h.s }

// Heap is a binary min-heap of entries by (Key, ID). Its zero value is
// empty. Its work is in the sift functions (sift.go).
type Heap[K cmp.Ordered, I ID] struct {
	entries[K, I]
}

// Push adds e.
func (h *Heap[K, I]) Push(e Entry[K, I]) { h.s = push[[2]struct{}](h.s, e) }

// Pop removes and returns the least entry; the heap must not be empty.
// The last entry moves to the root and can only go down.
func (h *Heap[K, I]) Pop() Entry[K, I] {
	return down[[2]struct{}](&h.s, 0, true)
}

// Reset makes s the heap's contents, ordering them in O(len(s)); the heap
// owns s from then on. s may share the array of Entries (Reset(Entries()[:0])
// empties the heap and keeps its array).
func (h *Heap[K, I]) Reset(s []Entry[K, I]) {
	h.s = s
	for i := (len(s) - 2) >> 1; i >= 0; i-- { // −1 when len(s) < 2
		down[[2]struct{}](&h.s, i, false)
	}
}
