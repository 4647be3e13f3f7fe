package heap

import "cmp"

// The sifts do the heaps' work so that their methods are one call each,
// small enough to be inlined into the callers. They are functions of the
// heap's slice rather than methods, so that writes to the entries do not
// make the compiler reload h.s at every level; they move a hole, one
// write per level instead of a swap. Each arity has its own, so that the
// child arithmetic is constant.
//
// Their comparisons write less out: a call, even inlined, would load
// the instantiation's dictionary at every level. Each bounds a loop by
// len of the slice it indexes, which lets the compiler drop the checks.

// push2 appends e to binary heap s and moves it towards the root.
func push2[K cmp.Ordered, I ID](s []Entry[K, I], e Entry[K, I]) []Entry[K, I] {
	s = append(s, e)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q := &s[p]; !(e.Key < q.Key || e.Key == q.Key && e.ID < q.ID) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
	return s
}

// down2 moves the entry at i of binary heap *sp towards the leaves and
// returns it; with pop, the last entry leaves the heap instead, to take
// the place of the one at i. Of equal children the first wins.
func down2[K cmp.Ordered, I ID](sp *[]Entry[K, I], i int, pop bool) Entry[K, I] {
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
		c := 2*i + 1
		if c >= len(s) {
			break
		}
		if r := c + 1; r < len(s) {
			if a, b := &s[r], &s[c]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
				c = r
			}
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

// push4 is push2 for a 4-ary heap.
func push4[K cmp.Ordered, I ID](s []Entry[K, I], e Entry[K, I]) []Entry[K, I] {
	s = append(s, e)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 4
		if q := &s[p]; !(e.Key < q.Key || e.Key == q.Key && e.ID < q.ID) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
	return s
}

// down4 is down2 for a 4-ary heap.
func down4[K cmp.Ordered, I ID](sp *[]Entry[K, I], i int, pop bool) Entry[K, I] {
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
		c := 4*i + 1
		if c >= len(s) {
			break
		}
		m := c
		for j := c + 1; j < min(c+4, len(s)); j++ {
			if a, b := &s[j], &s[m]; a.Key < b.Key || a.Key == b.Key && a.ID < b.ID {
				m = j
			}
		}
		if q := &s[m]; !(q.Key < e.Key || q.Key == e.Key && q.ID < e.ID) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = e
	return old
}
