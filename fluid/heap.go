package fluid

// flowHeap orders running flows by (projected finish time, id): a binary
// min-heap whose entries know their index, so a rate change re-positions a
// flow in O(log n).
type flowHeap []*flow

func (h flowHeap) less(i, j int) bool {
	a, b := h[i], h[j]
	if a.finish != b.finish {
		return a.finish < b.finish
	}
	return a.id < b.id
}

func (h flowHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx = int32(i)
	h[j].heapIdx = int32(j)
}

func (h *flowHeap) push(f *flow) {
	f.heapIdx = int32(len(*h))
	*h = append(*h, f)
	h.up(len(*h) - 1)
}

func (h *flowHeap) remove(f *flow) {
	i := int(f.heapIdx)
	last := len(*h) - 1
	if i != last {
		h.swap(i, last)
	}
	(*h)[last] = nil
	*h = (*h)[:last]
	f.heapIdx = -1
	if i != last {
		h.fix1(i)
	}
}

// fix restores the heap after f's finish time changed.
func (h flowHeap) fix(f *flow) { h.fix1(int(f.heapIdx)) }

func (h flowHeap) fix1(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

func (h flowHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h flowHeap) down(i int) bool {
	start := i
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			break
		}
		h.swap(i, c)
		i = c
	}
	return i > start
}
