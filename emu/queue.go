package emu

import (
	"math"
	"math/bits"
)

// A Handler is an event target that needs no closure: drivers that schedule
// millions of events implement it on a struct they already have, which
// saves an allocation per event compared with After's func().
type Handler interface{ Handle() }

// action is what a timer runs: a func or a Handler.
type action struct {
	fn func()
	h  Handler
}

// timer is a queued action and its key: due time, then insertion number.
type timer struct {
	at  float64 // s
	seq uint64
	a   action
}

// before orders timers by (at, seq).
func (t *timer) before(at float64, seq uint64) bool {
	return t.at < at || t.at == at && t.seq < seq
}

// A lane holds the timers pushed with one delay d. The clock never goes
// back, so their due times now+d come in order: a FIFO keeps them sorted,
// at O(1) a timer where the heap costs O(log n) moves to pop. A message's
// latency phase is such a timer: one delay per route length and size
// range, over and over.
type lane struct {
	items []timer
	head  int // items[:head] have fired
}

func (l *lane) empty() bool { return l.head == len(l.items) }

// The timer queue's lanes, and how many delays of heap timers it
// remembers (a table indexed by a hash of the delay, one delay a slot): a
// delay pushed again while remembered gets an empty lane. A run whose
// ranks sleep noisy kernel times and growing probe costs pushes a delay
// of its own between two of a message overhead's, so the overhead's
// delays are found again only in a table this wide.
const (
	lanes          = 8
	laneRecallBits = 6
	laneRecall     = 1 << laneRecallBits
)

// timerQueue.busy has a bit a lane: this fails to compile if lanes > 8.
const _ = uint8(1 << (lanes - 1))

// timerQueue is the engine's (time, seq)-ordered queue of timers: a binary
// min-heap and a few lanes, merged at the front.
//
// The heap holds the timers themselves (no node, no pointer to chase), in an
// array that stays in the cache at a thousand ranks' few thousand timers: a
// push whose time is not before its parent's (most: a later instant than the
// earliest) costs one comparison, a pop log2(n) levels of two. It is not
// internal/heap's: those entries are a key and an ID, and a timer's action
// would then sit in a side table looked up at every pop; here it moves with
// its key (BenchmarkNoisyTimers measures this traffic; a 4-ary heap of the
// same timers measured no faster there).
type timerQueue struct {
	heap []timer // by (at, seq): heap[0] is the least
	n    int     // timers queued, lanes and heap

	// laneD[i] is lane i's delay (s; NaN for none), apart from the lanes
	// so that the search of every push reads one cache line.
	laneD  [lanes]float64
	lane   [lanes]lane
	busy   uint8              // bit i set: lane i holds timers
	recent [laneRecall]recall // delays of timers the heap took, by recallSlot
	// front is the earliest timer's place: -1 the heap's least, i ≥ 0 lane
	// i, and frontAt, frontSeq its key; valid says whether they are known
	// (a pop forgets them). The engine peeks several times an event (Skip,
	// Next, Step), and a cached key spares each peek a trip to the timer
	// itself.
	front    int
	frontAt  float64
	frontSeq uint64
	valid    bool
}

func newTimerQueue() timerQueue {
	var q timerQueue
	for i := range q.lane {
		q.laneD[i] = math.NaN() // no lane yet: NaN equals no delay
	}
	for i := range q.recent {
		q.recent[i].d = math.NaN()
	}
	return q
}

// push queues a for time at = now + d; seq is its unique, increasing
// insertion number. Timers of one delay must be pushed with nondecreasing
// times (now never goes back).
func (q *timerQueue) push(d, at float64, seq uint64, a action) {
	q.n++
	t := timer{at: at, seq: seq, a: a}
	if l := q.laneFor(d); l >= 0 {
		q.lane[l].items = append(q.lane[l].items, t)
		q.busy |= 1 << l
		if q.valid && !q.frontBefore(at, seq) {
			q.front, q.frontAt, q.frontSeq = l, at, seq
		}
		return
	}
	q.heapPush(t)
	if q.valid && !q.frontBefore(at, seq) {
		q.front, q.frontAt, q.frontSeq = -1, at, seq
	}
}

// pushAt queues a for time at in the heap, off the lanes: a time that is
// not now plus one of the lanes' delays.
func (q *timerQueue) pushAt(at float64, seq uint64, a action) {
	q.n++
	q.heapPush(timer{at: at, seq: seq, a: a})
	if q.valid && !q.frontBefore(at, seq) {
		q.front, q.frontAt, q.frontSeq = -1, at, seq
	}
}

// heapPush adds t to the heap: up from the end while it is before its
// parent, moving the parents down into the hole.
func (q *timerQueue) heapPush(t timer) {
	h := append(q.heap, timer{})
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) >> 1
		if !t.before(h[p].at, h[p].seq) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = t
	q.heap = h
}

// heapPop removes and returns the heap's least timer; the heap must not be
// empty. The last timer goes down from the root into the hole the least
// leaves, past the lesser child at each level.
func (q *timerQueue) heapPop() timer {
	h := q.heap
	top := h[0]
	last := len(h) - 1
	t := h[last]
	h[last] = timer{} // drop the action's references
	h = h[:last]
	if last > 0 {
		i := 0
		for {
			c := 2*i + 1
			if c >= last {
				break
			}
			if r := c + 1; r < last && h[r].before(h[c].at, h[c].seq) {
				c = r
			}
			if !h[c].before(t.at, t.seq) {
				break
			}
			h[i] = h[c]
			i = c
		}
		h[i] = t
	}
	q.heap = h
	return top
}

// laneFor returns the lane of delay d, giving it an empty lane if d is
// remembered from a heap timer, or −1.
func (q *timerQueue) laneFor(d float64) int {
	for i := range q.laneD {
		if q.laneD[i] == d {
			return i
		}
	}
	r := &q.recent[recallSlot(d)]
	if r.d != d {
		r.d, r.n = d, 1
		return -1
	}
	if r.n++; r.n < laneHits {
		return -1
	}
	for i := range q.lane {
		if l := &q.lane[i]; l.empty() {
			q.laneD[i], l.items, l.head = d, l.items[:0], 0
			return i
		}
	}
	return -1
}

// recall is a delay the heap took and how many times in a row its slot
// saw it.
type recall struct {
	d float64 // NaN for none
	n int
}

// laneHits is how many times a delay must come back to its slot before it
// may take an empty lane: the delays of one kernel call's noise or one
// probe count come back a few times, a message overhead's all the time.
const laneHits = 8

// recallSlot is delay d's slot in timerQueue.recent: the top bits of a
// multiplicative hash of its bits.
func recallSlot(d float64) uint64 {
	return (math.Float64bits(d) * 0x9e3779b97f4a7c15) >> (64 - laneRecallBits)
}

// frontBefore reports whether the earliest timer, which must be known
// (valid), comes before a timer of key (at, seq).
func (q *timerQueue) frontBefore(at float64, seq uint64) bool {
	return q.frontAt < at || q.frontAt == at && q.frontSeq < seq
}

// earliest returns the first timer of place i (see front); it must hold one.
func (q *timerQueue) earliest(i int) *timer {
	if i < 0 {
		return &q.heap[0]
	}
	l := &q.lane[i]
	return &l.items[l.head]
}

// first finds the earliest timer's place; ok is false when none is queued.
func (q *timerQueue) first() (int, bool) {
	if q.n == 0 {
		return 0, false
	}
	if !q.valid {
		best := -2
		var bt *timer
		if len(q.heap) > 0 {
			best, bt = -1, q.earliest(-1)
		}
		for m := q.busy; m != 0; m &= m - 1 { // the lanes that hold timers, in order
			i := bits.TrailingZeros8(m)
			l := &q.lane[i]
			if t := &l.items[l.head]; bt == nil || t.before(bt.at, bt.seq) {
				best, bt = i, t
			}
		}
		q.front, q.frontAt, q.frontSeq, q.valid = best, bt.at, bt.seq, true
	}
	return q.front, true
}

// peek returns the due time of the earliest timer.
func (q *timerQueue) peek() (float64, bool) {
	if _, ok := q.first(); !ok {
		return 0, false
	}
	return q.frontAt, true
}

// pop removes and returns the earliest timer.
func (q *timerQueue) pop() (float64, action) {
	i, _ := q.first()
	q.n--
	q.valid = false
	if i >= 0 {
		l := &q.lane[i]
		t := l.items[l.head]
		l.items[l.head] = timer{}
		l.head++
		switch {
		case l.empty():
			l.items, l.head = l.items[:0], 0
			q.busy &^= 1 << i
		case l.head >= 1024 && l.head >= len(l.items)/2: // slide the queued tail down: one array per lane
			n := copy(l.items, l.items[l.head:])
			clear(l.items[n:])
			l.items, l.head = l.items[:n], 0
		}
		return t.at, t.a
	}
	t := q.heapPop()
	return t.at, t.a
}
