package heap

import "cmp"

// Entry is one element of a Heap.
type Entry[K, T cmp.Ordered] struct {
	Key K     // ordered first
	Tie T     // orders entries of equal Key; Untied heaps leave it zero
	ID  int32 // the caller's name for the element; ≥ 0 and unique in an indexed heap
}

// less is the heap's order.
func (a *Entry[K, T]) less(b *Entry[K, T]) bool {
	return a.Key < b.Key || (a.Key == b.Key && a.Tie < b.Tie)
}

// Untied is the Tie type of heaps ordered by Key alone: left zero, it
// never decides, and equal keys come out in the order the heap's
// operations leave them.
type Untied uint8

// Options shapes a Heap.
type Options struct {
	// Arity is the number of children of a node: 2 (the default when 0)
	// or 4.
	Arity int
	// Indexed keeps the position of each ID's entry (Pos), for Fix and
	// Remove by ID. The index is a slice as long as the largest ID pushed,
	// so IDs should be dense.
	Indexed bool
}

// Heap is a min-heap of entries by (Key, Tie).
type Heap[K, T cmp.Ordered] struct {
	s       []Entry[K, T]
	pos     []int32 // Indexed: pos[id] is the index of id's entry in s, −1 if none
	extra   uint8   // log2 of the arity, minus 1 so that the zero Heap is binary
	indexed bool
}

// New returns an empty heap shaped by o.
func New[K, T cmp.Ordered](o Options) Heap[K, T] {
	var h Heap[K, T]
	switch o.Arity {
	case 0, 2:
	case 4:
		h.extra = 1
	default:
		panic("heap: arity must be 2 or 4")
	}
	h.indexed = o.Indexed
	return h
}

// Len is the number of entries.
func (h *Heap[K, T]) Len() int { return len(h.s) }

// Top is the least entry; the heap must not be empty.
func (h *Heap[K, T]) Top() Entry[K, T] { return h.s[0] }

// Entries are the heap's entries, Top first, the others in no useful
// order. The slice is the heap's own: valid until the next change, and
// not to be written except to hand it back to Reset.
func (h *Heap[K, T]) Entries() []Entry[K, T] { return h.s }

// Pos is the index in Entries of id's entry, −1 if id is not in the heap.
// The heap must be indexed.
func (h *Heap[K, T]) Pos(id int32) int {
	if !h.indexed {
		panic("heap: Pos of a heap without index")
	}
	if int(id) >= len(h.pos) {
		return -1
	}
	return int(h.pos[id])
}

// Push adds e. Its index work, as Pop's, is out of line, so that heaps
// without index run little besides the sift.
func (h *Heap[K, T]) Push(e Entry[K, T]) {
	h.s = append(h.s, e)
	i := len(h.s) - 1
	j := up(h.s, h.shift(), i, e)
	if h.indexed {
		h.indexPush(e.ID, i, j)
	}
}

// indexPush records the entries a Push moved.
func (h *Heap[K, T]) indexPush(id int32, i, j int) {
	h.grow(id)
	h.index(i, j)
}

// Pop removes and returns the least entry; the heap must not be empty.
// It is cut(0) without the calls: the last entry can only go down.
func (h *Heap[K, T]) Pop() Entry[K, T] {
	s := h.s
	top, last := s[0], len(s)-1
	h.s = s[:last]
	j := 0
	if last > 0 {
		j = down(h.s, h.shift(), 0, s[last])
	}
	if h.indexed {
		h.indexPop(top.ID, j)
	}
	return top
}

// indexPop forgets id and records the entries a Pop moved, the last one
// now at j.
func (h *Heap[K, T]) indexPop(id int32, j int) {
	h.pos[id] = -1
	if len(h.s) > 0 {
		h.index(j, 0)
	}
}

// Remove removes and returns the entry at index i of Entries.
func (h *Heap[K, T]) Remove(i int) Entry[K, T] {
	e := h.s[i]
	h.cut(i)
	return e
}

// Fix gives the entry at index i of Entries a new key and tie, and moves
// it where they put it.
func (h *Heap[K, T]) Fix(i int, key K, tie T) {
	h.place(i, Entry[K, T]{Key: key, Tie: tie, ID: h.s[i].ID})
}

// Reset makes s the heap's contents, ordering them in O(len(s)); the heap
// owns s from then on. s may share the array of Entries (Reset(Entries()[:0])
// empties the heap and keeps its array). In an indexed heap Reset also
// clears the whole index, O(largest ID).
func (h *Heap[K, T]) Reset(s []Entry[K, T]) {
	h.s = s
	shift := h.shift()
	for i := (len(s) - 2) >> shift; i >= 0; i-- {
		down(s, shift, i, s[i])
	}
	if h.indexed {
		for i := range h.pos { // not by the old h.s: the caller may have rewritten it
			h.pos[i] = -1
		}
		for i, e := range s {
			h.grow(e.ID)
			h.pos[e.ID] = int32(i)
		}
	}
}

// shift is log2 of the arity: the children of node i start at i<<shift + 1.
func (h *Heap[K, T]) shift() uint8 { return h.extra + 1 }

// grow makes room for id in the index.
func (h *Heap[K, T]) grow(id int32) {
	for int(id) >= len(h.pos) {
		h.pos = append(h.pos, -1)
	}
}

// cut removes the entry at index i: the last entry takes its place.
func (h *Heap[K, T]) cut(i int) {
	s := h.s
	if h.indexed {
		h.pos[s[i].ID] = -1
	}
	last := len(s) - 1
	moved := s[last]
	h.s = s[:last]
	if i != last {
		h.place(i, moved)
	}
}

// place puts e, whose key may differ from what was at i, where it belongs
// on the path through i.
func (h *Heap[K, T]) place(i int, e Entry[K, T]) {
	shift := h.shift()
	if i > 0 && e.less(&h.s[(i-1)>>shift]) {
		j := up(h.s, shift, i, e)
		if h.indexed {
			h.index(i, j)
		}
	} else {
		j := down(h.s, shift, i, e)
		if h.indexed {
			h.index(j, i)
		}
	}
}

// index records the positions of the entries on the path from node from
// up to its ancestor to, both included: the only ones a sift between them
// moved. Walking the path again, through entries just touched, is cheaper
// than a test per level in the sifts that every heap without index would
// pay.
func (h *Heap[K, T]) index(from, to int) {
	s, pos, shift := h.s, h.pos, h.shift()&3 // locals: a write to pos would make h's fields be reloaded
	for j := from; ; j = (j - 1) >> shift {
		pos[s[j].ID] = int32(j)
		if j == to {
			return
		}
	}
}

// The sifts are functions of the heap's slice rather than methods, so
// that writes to the entries do not make the compiler reload h.s at every
// level. They move a hole, one write per level instead of a swap, and
// return where e ended. Each masks shift to two bits first, which tells
// the compiler that its shifts need no check for counts ≥ 64.

// up moves e from the hole at i towards the root.
func up[K, T cmp.Ordered](s []Entry[K, T], shift uint8, i int, e Entry[K, T]) int {
	shift &= 3
	for i > 0 {
		p := (i - 1) >> shift
		if !e.less(&s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
	return i
}

// down moves e from the hole at i towards the leaves. Of equal children
// the first wins.
func down[K, T cmp.Ordered](s []Entry[K, T], shift uint8, i int, e Entry[K, T]) int {
	shift &= 3
	n := len(s)
	for {
		c := i<<shift + 1
		if c >= n {
			break
		}
		m := c
		if shift == 1 { // binary, every heap but the solver's link queue
			if r := c + 1; r < n && s[r].less(&s[c]) {
				m = r
			}
		} else {
			for j, end := c+1, min(c+1<<shift, n); j < end; j++ {
				if s[j].less(&s[m]) {
					m = j
				}
			}
		}
		if !s[m].less(&e) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = e
	return i
}
