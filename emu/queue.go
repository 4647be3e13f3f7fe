package emu

import (
	"math"
	"math/bits"

	"github.com/petar/GoLLRB/llrb"
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

// bucket holds timers due at the same instant, in insertion order. The
// tree orders buckets by (at, seq of their first timer).
//
// Why buckets: SPMD programs schedule many timers for the same instant (all
// ranks' messages of one round have the same latency). Appending to a
// queued bucket costs O(1) instead of an O(log n) tree insertion. A bucket
// accepts appends only while it is the newest bucket of its instant, so a
// later bucket for the same instant holds only later timers, and ordering
// buckets by (at, first seq) still fires timers in (at, seq) order.
type bucket struct {
	at    float64 // s
	seq   uint64  // seq of the first timer
	items []timer
	head  int // items[:head] have fired
}

// Less orders buckets by due time, then by their first timer's seq.
func (b *bucket) Less(than llrb.Item) bool {
	o := than.(*bucket)
	if b.at != o.at {
		return b.at < o.at
	}
	return b.seq < o.seq
}

// A lane holds the timers pushed with one delay d. The clock never goes
// back, so their due times now+d come in order: a FIFO keeps them sorted,
// at O(1) a timer where the tree costs an insertion, an allocation and
// O(log n) comparisons. A message's latency phase is such a timer: one
// delay per route length and size range, over and over.
type lane struct {
	d     float64 // s
	items []timer
	head  int // items[:head] have fired
}

func (l *lane) empty() bool { return l.head == len(l.items) }

// The timer queue's lanes, and how many recent delays of tree timers it
// remembers: a delay pushed again while remembered gets an empty lane.
const (
	lanes      = 8
	laneRecall = 4
)

// timerQueue.busy has a bit a lane: this fails to compile if lanes > 8.
const _ = uint8(1 << (lanes - 1))

// timerQueue is the engine's (time, seq)-ordered queue of timers: a tree of
// buckets and a few lanes, merged at the front.
type timerQueue struct {
	tree *llrb.LLRB
	min  *bucket // the tree's minimum, cached (nil when empty)
	// open holds, in the slot of its due time's hash, the newest queued
	// bucket of that time: the timers of one round interleave a few due
	// times, and each appends to its own bucket. A bucket newer than the
	// slot's for the same time always replaces it there, so a bucket found
	// in its slot is the newest of its time.
	open  [openSlots]*bucket
	n     int       // timers queued
	spare []*bucket // emptied buckets, reused

	lane   [lanes]lane
	busy   uint8               // bit i set: lane i holds timers
	recent [laneRecall]float64 // delays of the last timers the tree took
	next   int                 // where recent takes the next one
	// front is the earliest timer's place: -1 the tree's minimum bucket, i
	// ≥ 0 lane i, and frontAt, frontSeq its key; valid says whether they
	// are known (a pop forgets them). The engine peeks several times an
	// event (Skip, Next, Step), and a cached key spares each peek a trip
	// to the timer itself.
	front    int
	frontAt  float64
	frontSeq uint64
	valid    bool
}

// The size of timerQueue.open: 16 slots.
const (
	openBits  = 4
	openSlots = 1 << openBits
)

func newTimerQueue() timerQueue {
	q := timerQueue{tree: llrb.New()}
	for i := range q.lane {
		q.lane[i].d = math.NaN() // no lane yet: NaN equals no delay
	}
	for i := range q.recent {
		q.recent[i] = math.NaN()
	}
	return q
}

// slot returns the index in timerQueue.open of due time at (Fibonacci hashing
// of its bits).
func slot(at float64) int {
	return int(math.Float64bits(at) * 0x9E3779B97F4A7C15 >> (64 - openBits))
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
	k := slot(at)
	if b := q.open[k]; b != nil && b.at == at {
		b.items = append(b.items, t)
		return
	}
	var b *bucket
	if k := len(q.spare); k > 0 {
		b, q.spare = q.spare[k-1], q.spare[:k-1]
	} else {
		b = new(bucket)
	}
	b.at, b.seq, b.head = at, seq, 0
	b.items = append(b.items[:0], t)
	q.tree.InsertNoReplace(b)
	q.open[k] = b
	if q.min == nil || b.Less(q.min) {
		q.min = b
		if q.valid && !q.frontBefore(at, seq) {
			q.front, q.frontAt, q.frontSeq = -1, at, seq
		}
	}
}

// laneFor returns the lane of delay d, giving it an empty lane if d was
// among the last delays the tree took, or −1.
func (q *timerQueue) laneFor(d float64) int {
	for i := range q.lane {
		if q.lane[i].d == d {
			return i
		}
	}
	for _, r := range q.recent {
		if r != d {
			continue
		}
		for i := range q.lane {
			if l := &q.lane[i]; l.empty() {
				l.d, l.items, l.head = d, l.items[:0], 0
				return i
			}
		}
		break
	}
	q.recent[q.next] = d
	q.next = (q.next + 1) % laneRecall
	return -1
}

// frontBefore reports whether the earliest timer, which must be known
// (valid), comes before a timer of key (at, seq).
func (q *timerQueue) frontBefore(at float64, seq uint64) bool {
	return q.frontAt < at || q.frontAt == at && q.frontSeq < seq
}

// earliest returns the first timer of place i (see front); it must hold one.
func (q *timerQueue) earliest(i int) *timer {
	if i < 0 {
		return &q.min.items[q.min.head]
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
		if q.min != nil {
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
	b := q.min
	t := b.items[b.head]
	b.items[b.head] = timer{}
	b.head++
	if b.head == len(b.items) {
		q.tree.DeleteMin()
		if k := slot(b.at); q.open[k] == b {
			q.open[k] = nil
		}
		q.min = nil
		if m := q.tree.Min(); m != nil {
			q.min = m.(*bucket)
		}
		b.items = b.items[:0]
		q.spare = append(q.spare, b)
	}
	return t.at, t.a
}
