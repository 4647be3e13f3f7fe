package fluid

// levelHeap is the solver's queue of links by (saturation level, id). It
// is lazy: fixing a flow never re-positions the links it crosses, because
// in progressive filling a link's level only grows — fixing flow f at
// level m ≤ L (the link's level) turns L = R/U into (R − m·c)/(U − c)
// with c = coefficient/weight, which is ≥ L exactly when L ≥ m. So every
// key in the heap is a lower bound of its link's level, and the top entry
// is the true minimum as soon as its key is up to date; the solver
// refreshes stale tops when it meets them. One entry per link.
type levelHeap []levelEntry

type levelEntry struct {
	level float64 // lower bound of the link's level when pushed
	link  LinkID
}

func (h levelHeap) less(i, j int) bool {
	if h[i].level != h[j].level {
		return h[i].level < h[j].level
	}
	return h[i].link < h[j].link
}

func (h *levelHeap) push(e levelEntry) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

// init orders an unordered slice into a heap in O(n).
func (h levelHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop removes the top entry.
func (h *levelHeap) pop() {
	q := *h
	last := len(q) - 1
	q[0] = q[last]
	*h = q[:last]
	h.down(0)
}

// replaceTop puts e in place of the top entry (a key that grew).
func (h levelHeap) replaceTop(e levelEntry) {
	h[0] = e
	h.down(0)
}

func (h levelHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
