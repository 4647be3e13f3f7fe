package fluid

// flowHeap orders running flows by (projected finish time, id): a binary
// min-heap whose entries carry their keys, so that comparisons read the
// heap's own array instead of chasing a pointer into each flow (those
// cache misses were a tenth of a small message's cost with 1,024 flows in
// flight). Each flow knows its index, so a rate change re-positions it in
// O(log n). Sifts move a hole instead of swapping: one write per level.
type flowHeap []heapEntry

type heapEntry struct {
	finish float64 // the flow's projected finish time, s (copy of f.finish)
	tie    uint64  // tie-breaker: the flow's id, or its SimGrid heap stamp
	id     FlowID
	f      *flow
}

func (a *heapEntry) before(b *heapEntry) bool {
	if a.finish != b.finish {
		return a.finish < b.finish
	}
	return a.tie < b.tie
}

// set puts e at index i and tells its flow.
func (h flowHeap) set(i int, e heapEntry) {
	h[i] = e
	e.f.heapIdx = int32(i)
}

func (h *flowHeap) push(f *flow) {
	*h = append(*h, heapEntry{finish: f.finish, tie: f.tie, id: f.id, f: f})
	h.up(len(*h)-1, (*h)[len(*h)-1])
}

func (h *flowHeap) remove(f *flow) {
	i := int(f.heapIdx)
	q := *h
	last := len(q) - 1
	moved := q[last]
	q[last] = heapEntry{}
	*h = q[:last]
	f.heapIdx = -1
	if i != last {
		h.place(i, moved)
	}
}

// fix restores the heap after f's finish time changed.
func (h flowHeap) fix(f *flow) {
	i := int(f.heapIdx)
	h.place(i, heapEntry{finish: f.finish, tie: f.tie, id: f.id, f: f})
}

// place puts e, whose key may differ from what was at i, where it belongs
// on the path through i.
func (h flowHeap) place(i int, e heapEntry) {
	if i > 0 && e.before(&h[(i-1)/2]) {
		h.up(i, e)
	} else {
		h.down(i, e)
	}
}

// up moves e from hole i towards the root.
func (h flowHeap) up(i int, e heapEntry) {
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(&h[p]) {
			break
		}
		h.set(i, h[p])
		i = p
	}
	h.set(i, e)
}

// down moves e from hole i towards the leaves.
func (h flowHeap) down(i int, e heapEntry) {
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h[r].before(&h[c]) {
			c = r
		}
		if !h[c].before(&e) {
			break
		}
		h.set(i, h[c])
		i = c
	}
	h.set(i, e)
}
