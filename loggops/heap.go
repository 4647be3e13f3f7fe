package loggops

import "github.com/emu-hpc/emu/internal/heap"

// The event queue orders events by (t, ts). Schedules of symmetric ranks
// put many events at the same time (the 32×32 stencil: 2.2 M entries over
// 1301 distinct times), so the queue is two-level: a small heap of the
// distinct pending times, and per time a bucket. Most pushes into a bucket
// come with increasing ts (new entries get the next number); those go to a
// FIFO, the others (entries that keep an old ts) to a small heap by ts,
// and a pop takes the smaller head of the two.
type eventQueue struct {
	n       int             // events queued
	times   minHeap         // bucket numbers (IDs) by their time
	buckets []bucket        // bucket pool
	free    []int32         // unused bucket numbers
	byTime  map[int64]int32 // time → bucket number, for pending times
	lastT   int64           // the last pushed time and its bucket, a cache for byTime
	lastB   int32
}

// bucket holds the events of one time: fifo[head:] in increasing ts, and
// h, a heap by ts (ID the op) of those pushed out of order.
type bucket struct {
	t    int64
	fifo []tsOp
	head int
	h    minHeap
}

// minHeap is the replay's heap: of bucket numbers by time, of a bucket's
// ops by ts, of ops parked on a resource by ts (park.go). Its times are
// distinct, and an op's ts is its own, so equal keys are rare: a token
// beside one that carries the same ts, which is obsolete and dropped when
// it comes up, whatever their order. The ID breaks such ties; the order
// is that of the untied heaps it replaced (the package's golden replays
// are unchanged).
type minHeap = heap.Heap[int64, int32]

// tsOp is an event of a bucket: Key its ts, ID its op.
type tsOp = heap.Entry[int64, int32]

func (q *eventQueue) init() {
	q.byTime = make(map[int64]int32)
	q.lastB = -1
}

func (e *Engine) push(ev event) { e.q.push(ev) }
func (e *Engine) pop() event    { return e.q.pop() }

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
	e := tsOp{Key: ev.ts, ID: ev.op}
	if n := len(bk.fifo); n == bk.head || bk.fifo[n-1].Key < ev.ts {
		bk.fifo = append(bk.fifo, e)
		return
	}
	bk.h.Push(e)
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
	q.times.Push(tsOp{Key: t, ID: b}) // times are distinct: never tied
	return b
}

func (q *eventQueue) pop() event {
	b := q.times.Top().ID
	bk := &q.buckets[b]
	q.n--
	var top tsOp
	if bk.head < len(bk.fifo) && (bk.h.Len() == 0 || bk.fifo[bk.head].Key < bk.h.Top().Key) {
		top = bk.fifo[bk.head]
		bk.head++
	} else {
		top = bk.h.Pop()
	}
	ev := event{t: bk.t, ts: top.Key, op: top.ID}
	if bk.head == len(bk.fifo) && bk.h.Len() == 0 {
		bk.fifo, bk.head = bk.fifo[:0], 0
		q.dropTop(b)
	}
	return ev
}

// dropTop removes the emptied bucket b at the top of the heap of times.
func (q *eventQueue) dropTop(b int32) {
	delete(q.byTime, q.buckets[b].t)
	if q.lastB == b {
		q.lastB = -1
	}
	q.free = append(q.free, b)
	q.times.Pop()
}
