package goal

// The event queue orders events by (t, ts). Schedules of symmetric ranks
// put many events at the same time (the 32×32 stencil: 2.2 M entries over
// 1301 distinct times), so the queue is two-level: a small heap of the
// distinct pending times, and per time a bucket. Most pushes into a bucket
// come with increasing ts (new entries get the next number); those go to a
// FIFO, the others (entries that keep an old ts) to a small heap by ts,
// and a pop takes the smaller head of the two.
type eventQueue struct {
	n       int             // events queued
	times   []int32         // heap of bucket numbers by their time
	buckets []bucket        // bucket pool
	free    []int32         // unused bucket numbers
	byTime  map[int64]int32 // time → bucket number, for pending times
	lastT   int64           // the last pushed time and its bucket, a cache for byTime
	lastB   int32
}

// bucket holds the events of one time: fifo[head:] in increasing ts, and
// h, a heap by ts of those pushed out of order.
type bucket struct {
	t    int64
	fifo []tsOp
	head int
	h    []tsOp
}

type tsOp struct {
	ts int64
	op int32
}

func (q *eventQueue) init() {
	q.byTime = make(map[int64]int32)
	q.lastB = -1
}

func (e *engine) push(ev event) { e.q.push(ev) }
func (e *engine) pop() event    { return e.q.pop() }

func (q *eventQueue) push(ev event) {
	var b int32
	if q.lastB >= 0 && q.lastT == ev.t {
		b = q.lastB
	} else if v, ok := q.byTime[ev.t]; ok {
		b = v
	} else {
		b = q.newBucket(ev.t)
	}
	q.lastT, q.lastB = ev.t, b
	q.n++
	bk := &q.buckets[b]
	if n := len(bk.fifo); n == bk.head || bk.fifo[n-1].ts < ev.ts {
		bk.fifo = append(bk.fifo, tsOp{ev.ts, ev.op})
		return
	}
	h := append(bk.h, tsOp{ev.ts, ev.op})
	i := len(h) - 1
	x := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if h[p].ts <= x.ts {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
	bk.h = h
}

func (q *eventQueue) newBucket(t int64) int32 {
	var b int32
	if k := len(q.free); k > 0 {
		b = q.free[k-1]
		q.free = q.free[:k-1]
	} else {
		b = int32(len(q.buckets))
		q.buckets = append(q.buckets, bucket{})
	}
	q.buckets[b].t = t
	q.byTime[t] = b
	// sift up in the heap of times
	q.times = append(q.times, b)
	i := len(q.times) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q.buckets[q.times[p]].t <= t {
			break
		}
		q.times[i] = q.times[p]
		i = p
	}
	q.times[i] = b
	return b
}

func (q *eventQueue) pop() event {
	b := q.times[0]
	bk := &q.buckets[b]
	q.n--
	var top tsOp
	if bk.head < len(bk.fifo) && (len(bk.h) == 0 || bk.fifo[bk.head].ts < bk.h[0].ts) {
		top = bk.fifo[bk.head]
		bk.head++
	} else {
		top = bk.popHeap()
	}
	ev := event{t: bk.t, ts: top.ts, op: top.op}
	if bk.head == len(bk.fifo) && len(bk.h) == 0 {
		bk.fifo, bk.head = bk.fifo[:0], 0
		q.dropTop(b)
	}
	return ev
}

// popHeap removes the least ts of the bucket's heap.
func (bk *bucket) popHeap() tsOp {
	h := bk.h
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
		if c+1 < n && h[c+1].ts < h[c].ts {
			c++
		}
		if h[c].ts >= last.ts {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = last
	}
	bk.h = h
	return top
}

// dropTop removes the emptied bucket b at the top of the heap of times.
func (q *eventQueue) dropTop(b int32) {
	delete(q.byTime, q.buckets[b].t)
	if q.lastB == b {
		q.lastB = -1
	}
	q.free = append(q.free, b)
	n := len(q.times) - 1
	last := q.times[n]
	q.times = q.times[:n]
	if n == 0 {
		return
	}
	t := q.buckets[last].t
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && q.buckets[q.times[c+1]].t < q.buckets[q.times[c]].t {
			c++
		}
		if q.buckets[q.times[c]].t >= t {
			break
		}
		q.times[i] = q.times[c]
		i = c
	}
	q.times[i] = last
}
