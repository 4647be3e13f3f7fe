package emu

// A Handler is an event target that needs no closure: drivers that schedule
// millions of events implement it on a struct they already have, which
// saves an allocation per event compared with After's func().
type Handler interface{ Handle() }

// action is what a timer runs: a func or a Handler.
type action struct {
	fn func()
	h  Handler
}

// bucket holds timers due at the same instant, in insertion order. The
// queue orders buckets by (at, seq of their first timer).
//
// Why buckets: SPMD programs schedule many timers for the same instant (all
// ranks' messages of one round have the same latency). Appending to the
// bucket last used costs O(1) instead of an O(log n) insertion. A bucket
// accepts appends only while it is the last one used, so a later bucket
// for the same instant holds only later timers, and ordering buckets by
// (at, first seq) still fires timers in (at, seq) order.
type bucket struct {
	at    float64 // s
	seq   uint64  // seq of the first timer
	items []action
	head  int // items[:head] have fired
}

// bucketRef is a heap entry: a bucket with its key copied beside it, so
// that comparisons read the heap's own array.
type bucketRef struct {
	at  float64
	seq uint64
	b   *bucket
}

func (x *bucketRef) before(y *bucketRef) bool {
	if x.at != y.at {
		return x.at < y.at
	}
	return x.seq < y.seq
}

// timerQueue is the engine's (time, seq)-ordered queue of timers: a binary
// min-heap of buckets.
//
// Why not the left-leaning red-black tree (GoLLRB) the kernel started with:
// the queue only ever needs its minimum, and the tree allocated a node per
// bucket and chased pointers on every insertion — 10–12% of an HPL run's
// CPU. The heap reuses one array and its buckets, and pops in the same
// (time, seq) order, so every event fires exactly as before.
type timerQueue struct {
	heap  []bucketRef
	last  *bucket   // the bucket of the latest insertion, if still queued
	n     int       // timers queued
	spare []*bucket // emptied buckets, reused
}

func newTimerQueue() timerQueue { return timerQueue{} }

// push queues a for time at; seq is its unique, increasing insertion number.
func (q *timerQueue) push(at float64, seq uint64, a action) {
	q.n++
	if b := q.last; b != nil && b.at == at {
		b.items = append(b.items, a)
		return
	}
	var b *bucket
	if k := len(q.spare); k > 0 {
		b, q.spare = q.spare[k-1], q.spare[:k-1]
	} else {
		b = new(bucket)
	}
	b.at, b.seq, b.head = at, seq, 0
	b.items = append(b.items[:0], a)
	q.last = b
	// Sift a hole up from the end.
	e := bucketRef{at: at, seq: seq, b: b}
	q.heap = append(q.heap, e)
	h := q.heap
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// peek returns the due time of the earliest timer.
func (q *timerQueue) peek() (float64, bool) {
	if len(q.heap) == 0 {
		return 0, false
	}
	return q.heap[0].at, true
}

// pop removes and returns the earliest timer.
func (q *timerQueue) pop() (float64, action) {
	b := q.heap[0].b
	a := b.items[b.head]
	b.items[b.head] = action{}
	b.head++
	q.n--
	if b.head == len(b.items) {
		q.popBucket()
		if q.last == b {
			q.last = nil
		}
		b.items = b.items[:0]
		q.spare = append(q.spare, b)
	}
	return b.at, a
}

// popBucket removes the heap's top, sifting the last entry down a hole.
func (q *timerQueue) popBucket() {
	h := q.heap
	last := len(h) - 1
	e := h[last]
	h[last] = bucketRef{}
	h = h[:last]
	q.heap = h
	if last == 0 {
		return
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= last {
			break
		}
		if r := c + 1; r < last && h[r].before(&h[c]) {
			c = r
		}
		if !h[c].before(&e) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = e
}
