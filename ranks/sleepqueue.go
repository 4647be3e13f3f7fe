package ranks

import "math"

// sleepQueue holds, in rank order (WakeRank), the ends of the ranks' task
// sleeps (Rank.taskSleep: a message's send and receive overheads) outside
// the engine, beside the probes' (probeQueue), for the same reason and
// under the same rules: a sleep's end only wakes its rank (rankTimer's
// Handle), so it may fire before, among or after the engine's events due
// at the same instant, and the scheduler fires it before them
// (World.endProbes). At N = 10,000 Dahu makes 3.6 M such sleeps, each a
// timer the engine pushed, popped, looked past and fired.
//
// A sleep is a delay from now, and the clock never goes back, so the
// sleeps of one delay end in the order they were made: like the engine's
// lanes, a few FIFOs keyed by delay hold them at O(1) a sleep (HPL's pivot
// search sleeps two delays over and over, the overheads of its message's
// size), and a heap the others. first is the front, kept so that the
// scheduler reads it as it reads the probes' (World.asideFirst).
type sleepQueue struct {
	first float64 // the first end, s; +Inf for none
	from  int     // where it is: a lane's index, or −1 for the heap
	// heads[i] is lane i's first end's key (probeEnd.key), MaxUint64 for
	// none: pop finds the next front in four comparisons.
	heads [sleepLanes]uint64
	lane  [sleepLanes]sleepLane
	heap  probeQueue

	queued uint64 // sleeps pushed (tests)
}

// sleepLanes is how many delays have a FIFO at a time: pop's four
// comparisons are written out.
const sleepLanes = 4

// newSleepQueue returns an empty queue.
func newSleepQueue() sleepQueue {
	q := sleepQueue{first: math.Inf(1), from: -1}
	for i := range q.heads {
		q.heads[i] = math.MaxUint64
	}
	return q
}

// A sleepLane holds sleeps of delay d (0: the lane is free), ends[head:]
// in order.
type sleepLane struct {
	d    float64
	ends []probeEnd
	head int
}

// push adds rank gid's sleep of d > 0 from now: it ends at now + d, as
// Engine.AfterHandler computes it.
func (q *sleepQueue) push(now, d float64, gid int32) {
	end := now + d
	q.queued++
	i := q.laneFor(d)
	if i < 0 {
		q.heap.push(end, gid, false)
	} else {
		l := &q.lane[i]
		if l.head == len(l.ends) {
			q.heads[i] = math.Float64bits(end)
		}
		l.add(probeEnd{key: math.Float64bits(end), gid: gid})
	}
	if end < q.first {
		q.first, q.from = end, i
	}
}

// laneFor returns the lane of delay d, or a free lane, which takes d, or
// −1 for the heap.
func (q *sleepQueue) laneFor(d float64) int {
	switch l := &q.lane; d { // written out, as pop's comparisons
	case l[0].d:
		return 0
	case l[1].d:
		return 1
	case l[2].d:
		return 2
	case l[3].d:
		return 3
	}
	for i := range q.lane {
		if l := &q.lane[i]; l.head == len(l.ends) {
			l.d, l.ends, l.head = d, l.ends[:0], 0
			return i
		}
	}
	return -1
}

// add appends e, first moving the lane's live ends to the front of its
// array when the array is full: the array stays within twice the most
// sleeps of the lane at once.
func (l *sleepLane) add(e probeEnd) {
	if l.head > 0 && len(l.ends) == cap(l.ends) {
		n := copy(l.ends, l.ends[l.head:])
		l.ends, l.head = l.ends[:n], 0
	}
	l.ends = append(l.ends, e)
}

// pop removes a sleep that ends at first (any of those that end then) and
// returns its rank's gid; the queue must not be empty.
func (q *sleepQueue) pop() int32 {
	var gid int32
	if i := q.from; i >= 0 {
		l := &q.lane[i]
		gid = l.ends[l.head].gid
		l.head++
		q.heads[i] = math.MaxUint64
		if l.head < len(l.ends) {
			q.heads[i] = l.ends[l.head].key
		}
	} else {
		gid = q.heap.pop().gid
	}
	next, from := uint64(math.MaxUint64), -1
	if len(q.heap.h) > 0 {
		next = q.heap.h[0].key
	}
	h := &q.heads
	if h[0] < next {
		next, from = h[0], 0
	}
	if h[1] < next {
		next, from = h[1], 1
	}
	if h[2] < next {
		next, from = h[2], 2
	}
	if h[3] < next {
		next, from = h[3], 3
	}
	q.first, q.from = math.Inf(1), from
	if next != math.MaxUint64 {
		q.first = math.Float64frombits(next)
	}
	return gid
}
