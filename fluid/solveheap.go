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

func (h *levelHeap) pop() {
	q := *h
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(q) {
			break
		}
		if r := c + 1; r < len(q) && q.less(r, c) {
			c = r
		}
		if !q.less(c, i) {
			break
		}
		q[i], q[c] = q[c], q[i]
		i = c
	}
	*h = q
}
