package ranks

// readyQueue holds the ranks ready to run. In rank order (the default) it
// is a binary min-heap on the rank id; with fifo it is a queue in the order
// ranks became ready (SimGrid's order). Both are deterministic.
type readyQueue struct {
	fifo  bool
	items []*Rank
	head  int // fifo: items[:head] have been popped
}

func (q *readyQueue) empty() bool { return len(q.items) == q.head }

func (q *readyQueue) push(r *Rank) {
	if q.fifo && q.head > 64 && 2*q.head > len(q.items) {
		// Never drained for long: slide the live part down.
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.items = append(q.items, r)
	if q.fifo {
		return
	}
	s := q.items
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].id <= s[i].id {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (q *readyQueue) pop() *Rank {
	if q.empty() {
		return nil
	}
	if q.fifo {
		r := q.items[q.head]
		q.items[q.head] = nil
		q.head++
		if q.head == len(q.items) { // drained: reuse the array from the start
			q.items, q.head = q.items[:0], 0
		}
		return r
	}
	s := q.items
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = nil
	s = s[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(s) && s[l].id < s[m].id {
			m = l
		}
		if l+1 < len(s) && s[l+1].id < s[m].id {
			m = l + 1
		}
		if m == i {
			break
		}
		s[m], s[i] = s[i], s[m]
		i = m
	}
	q.items = s
	return top
}
