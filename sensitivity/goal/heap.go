package goal

// The event queue is a binary min-heap on (t, ts), written out rather than
// through container/heap to avoid an interface call per comparison: the
// replay pushes and pops one entry per op and two per message.

func (a event) before(b event) bool { return a.t < b.t || (a.t == b.t && a.ts < b.ts) }

func (e *engine) push(ev event) {
	h := append(e.heap, ev)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
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
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].before(h[c]) {
			c++
		}
		if !h[c].before(last) {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = last
	}
	e.heap = h
	return top
}
