package ranks

// readyQueue holds the ranks ready to run. In rank order (the default) it
// is a binary min-heap of rank ids; with fifo it is a queue in the order
// ranks became ready (SimGrid's order). Both are deterministic.
//
// The heap holds the ids themselves, not *Rank: its comparisons then read
// one contiguous int32 array instead of chasing a pointer into each Rank
// (with 1,024 ranks those cache misses were 13% of a ring message's cost).
type readyQueue struct {
	fifo  bool
	ranks []*Rank // Rank.gid → rank, to hand back what pop takes out
	ids   []int32
	head  int // fifo: ids[:head] have been popped
}

func (q *readyQueue) empty() bool { return len(q.ids) == q.head }

func (q *readyQueue) push(r *Rank) {
	if q.fifo && q.head > 64 && 2*q.head > len(q.ids) {
		// Never drained for long: slide the live part down.
		n := copy(q.ids, q.ids[q.head:])
		q.ids, q.head = q.ids[:n], 0
	}
	id := r.gid
	q.ids = append(q.ids, id)
	if q.fifo {
		return
	}
	s := q.ids
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p] <= id {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = id
}

func (q *readyQueue) pop() *Rank {
	if q.empty() {
		return nil
	}
	if q.fifo {
		id := q.ids[q.head]
		q.head++
		if q.head == len(q.ids) { // drained: reuse the array from the start
			q.ids, q.head = q.ids[:0], 0
		}
		return q.ranks[id]
	}
	s := q.ids
	top := s[0]
	last := len(s) - 1
	x := s[last]
	s = s[:last]
	// Sift the former last element down from the root.
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r] < s[l] {
			m = r
		}
		if x <= s[m] {
			break
		}
		s[i] = s[m]
		i = m
	}
	if last > 0 {
		s[i] = x
	}
	q.ids = s
	return q.ranks[top]
}
