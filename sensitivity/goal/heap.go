package goal

// The event queue is a 4-ary min-heap on (t, ts), written out rather than
// through container/heap: the replay pops about twice per event (an op or
// message whose CPU or NIC is busy goes back in at the free time), and a
// 4-ary heap halves the depth of those pops at the same comparisons per
// level in one cache line.

func (a event) before(b event) bool { return a.t < b.t || (a.t == b.t && a.ts < b.ts) }

const heapArity = 4

func (e *engine) push(ev event) {
	h := append(e.heap, ev)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / heapArity
		if !ev.before(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = ev
	e.heap = h
}

func (e *engine) pop() event {
	h := e.heap
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	i := 0
	for {
		c := heapArity*i + 1
		if c >= n {
			break
		}
		best := c
		for k := c + 1; k < c+heapArity && k < n; k++ {
			if h[k].before(h[best]) {
				best = k
			}
		}
		if !h[best].before(last) {
			break
		}
		h[i] = h[best]
		i = best
	}
	if n > 0 {
		h[i] = last
	}
	e.heap = h
	return top
}
