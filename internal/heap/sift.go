package heap

import "cmp"

// The sifts do the heaps' work so that a Push or a Pop costs one call,
// as a hand-written heap's: Pop is inlined into its caller and calls
// down; push is inlined into Push, which is not (inlined, it made its
// callers' code slower than the call). They are functions of the
// heap's slice rather than methods, so that writes to the entries do not
// make the compiler reload h.s at every level; they move a hole, one
// write per level instead of a swap.
//
// Their comparisons write less out: a call, even inlined, would load
// the instantiation's dictionary at every level. Each bounds a loop by
// len of the slice it indexes, which lets the compiler drop the checks.

// arity is the number of children of a node, as the length of an array
// type: binary or 4-ary. Each is a shape of its own, so Go compiles the
// sifts once per arity with len(*new(A)) a constant: the child
// arithmetic is a shift, and the binary heap's choice of child has no
// loop. (Measured: as fast as the two hand-specialised copies it
// replaced; cachegrind, ranks' Ring1024 and goal's stencil8x8.)
type arity interface{ [2]struct{} | [4]struct{} }

// push appends e to heap s and moves it towards the root.
func push[A arity, K cmp.Ordered, I ID](s []Entry[K, I], e Entry[K, I]) []Entry[K, I] {
	s = append(s, e)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / len(*new(A))
		if q := &s[p]; !(e.Key < q.Key || e.Key == q.Key && e.ID < q.ID) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
	return s
}

// down moves the entry at i of heap *sp towards the leaves and returns
// it; with pop, the last entry leaves the heap instead, to take the
// place of the one at i. Of equal children the first wins.
func down[A arity, K cmp.Ordered, I ID](sp *[]Entry[K, I], i int, pop bool) Entry[K, I] {
	d := len(*new(A))
	s := *sp
	old, e := s[i], s[i]
	if pop {
		n := len(s) - 1
		e, s = s[n], s[:n]
		*sp = s
		if n == 0 {
			return old
		}
	}
	for {
		c := d*i + 1
		if c >= len(s) {
			break
		}
		if d == 2 {
			if r := c + 1; r < len(s) {
				if a, b := &s[r], &s[c]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
					c = r
				}
			}
		} else if c+3 < len(s) {
			// All four children: a knockout of three comparisons on one
			// bounds check, where the scan below tests the loop and both
			// indices at each child. A tie keeps the left one at each
			// round, and the left pair precedes the right, so of equal
			// children the first still wins.
			q := s[c : c+4 : c+4]
			l, r := 0, 2
			if a, b := &q[1], &q[0]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
				l = 1
			}
			if a, b := &q[3], &q[2]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
				r = 3
			}
			if a, b := &q[r], &q[l]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
				l = r
			}
			c += l
		} else {
			m := c
			for j := c + 1; j < len(s); j++ { // fewer than four: the last node's
				if a, b := &s[j], &s[m]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
					m = j
				}
			}
			c = m
		}
		if q := &s[c]; !(q.Key < e.Key || q.Key == e.Key && q.ID < e.ID) {
			break
		}
		s[i] = s[c]
		i = c
	}
	s[i] = e
	return old
}
