package heap

import "cmp"

// Indexed is a binary min-heap by (Key, ID) that keeps the position of
// each entry, named by the low 32 bits of its ID (Pos), so that an entry
// can change key (Fix) or leave (Remove) in O(log n). The index is a
// slice as long as the largest name pushed, so names should be dense;
// the bits above them may carry a tie-breaker (fluid keeps its flows'
// tie there). It is a type of its own, not an option of Heap, so that
// heaps without index pay no test for one. Its zero value is empty.
type Indexed[K cmp.Ordered, I ID] struct {
	s   []Entry[K, I]
	pos []int32 // pos[name] is the index of the entry in s, −1 if none
}

// Len is the number of entries.
func (h *Indexed[K, I]) Len() int { return len(h.s) }

// Top is the least entry; the heap must not be empty.
func (h *Indexed[K, I]) Top() Entry[K, I] { return h.s[0] }

// Entries are the heap's entries, Top first, the others in no useful
// order; valid until the next change, and not to be written.
func (h *Indexed[K, I]) Entries() []Entry[K, I] { return h.s }

// Pos is the index in Entries of the entry named by the low 32 bits of
// id, −1 if there is none.
func (h *Indexed[K, I]) Pos(id I) int {
	if n := uint32(id); int(n) < len(h.pos) {
		return int(h.pos[n])
	}
	return -1
}

// Push adds e, whose name must not be in the heap.
func (h *Indexed[K, I]) Push(e Entry[K, I]) {
	for int(uint32(e.ID)) >= len(h.pos) {
		h.pos = append(h.pos, -1)
	}
	h.s = append(h.s, e)
	place(h.s, h.pos, uint(len(h.s)-1), e)
}

// Pop removes and returns the least entry; the heap must not be empty.
func (h *Indexed[K, I]) Pop() Entry[K, I] { return remove(&h.s, h.pos, 0) }

// Delete removes the entry named by the low 32 bits of id, which must be
// in the heap.
func (h *Indexed[K, I]) Delete(id I) { remove(&h.s, h.pos, uint(h.pos[uint32(id)])) }

// Fix replaces the entry of e's name, which must be in the heap, by e,
// and moves it where its key puts it.
func (h *Indexed[K, I]) Fix(e Entry[K, I]) { place(h.s, h.pos, uint(h.pos[uint32(e.ID)]), e) }

// remove removes and returns the entry at i of indexed heap *sp: the
// last entry takes its place.
func remove[K cmp.Ordered, I ID](sp *[]Entry[K, I], pos []int32, i uint) Entry[K, I] {
	s := *sp
	last := uint(len(s) - 1)
	e := s[i]
	pos[uint32(e.ID)] = -1
	*sp = s[:last]
	if i != last {
		place(s[:last], pos, i, s[last])
	}
	return e
}

// place puts e, whose key may differ from what was at i, where it belongs
// on the path through i, and records in pos the entries it moves. Both
// directions are in one function, so that Fix and Delete cost one call.
// Its comparisons are written out, as the sifts' (sift.go); its indices
// are unsigned, which here (not in the sifts) saved 6% of its
// instructions (cachegrind, ranks' BenchmarkRing1024).
func place[K cmp.Ordered, I ID](s []Entry[K, I], pos []int32, i uint, e Entry[K, I]) {
	up := false
	if i > 0 {
		q := &s[(i-1)/2]
		up = e.Key < q.Key || e.Key == q.Key && e.ID < q.ID
	}
	if up {
		for i > 0 {
			p := (i - 1) / 2
			if q := &s[p]; !(e.Key < q.Key || e.Key == q.Key && e.ID < q.ID) {
				break
			}
			s[i] = s[p]
			pos[uint32(s[i].ID)] = int32(i)
			i = p
		}
	} else {
		n := uint(len(s))
		for {
			c := 2*i + 1
			if c >= n {
				break
			}
			if r := c + 1; r < n && (s[r].Key < s[c].Key || s[r].Key == s[c].Key && s[r].ID < s[c].ID) {
				c = r
			}
			if q := &s[c]; !(q.Key < e.Key || q.Key == e.Key && q.ID < e.ID) {
				break
			}
			s[i] = s[c]
			pos[uint32(s[i].ID)] = int32(i)
			i = c
		}
	}
	s[i] = e
	pos[uint32(e.ID)] = int32(i)
}
