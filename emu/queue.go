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

// The lanes' tournament (timerQueue.win) is a complete binary tree over
// them, and timerQueue.laneSlots a bit a recall slot: this fails to
// compile unless lanes is a power of two and there are at most 64 slots.
const (
	_ = uint8(0 - lanes&(lanes-1))
	_ = uint64(1<<laneRecall - 1)
)

// A key is a timer's (time, insertion) order as one 128-bit number: hi the
// bits of its due time, which order as the times do for times ≥ 0 (−0 is
// keyed as +0, which it equals), lo its seq. less is then a subtraction
// with borrow, no branch: the heap's sifts pick a child without a jump the
// processor could mispredict, half the time, at every level.
type key struct{ hi, lo uint64 }

func keyOf(at float64, seq uint64) key {
	if at == 0 {
		at = 0 // −0 sorts as +0
	}
	return key{math.Float64bits(at), seq}
}

// less reports whether k orders before o.
func (k key) less(o key) bool { return borrow(k, o) != 0 }

// borrow is 1 if k orders before o, else 0.
func borrow(k, o key) uint64 {
	_, b := bits.Sub64(k.lo, o.lo, 0)
	_, b = bits.Sub64(k.hi, o.hi, b)
	return b
}

// timeOf is the due time of key k (+0 for a timer pushed at −0: the two
// are one time to the clock).
func timeOf(k key) float64 { return math.Float64frombits(k.hi) }

// A node is a heap timer's key and the index of its action in
// timerQueue.acts: the sifts move 24 bytes without pointers (no write
// barrier), and a thousand ranks' timers stay in the first-level cache.
type node struct {
	k    key
	slot uint32
}

// timerQueue is the engine's (time, seq)-ordered queue of timers: a binary
// min-heap and a few lanes, merged at the front.
//
// The heap's nodes are keys and slot numbers; a timer's action sits in its
// slot, written once at push and read once at pop. A pop moves the hole the
// least leaves down to a leaf along the lesser children (one branchless
// comparison a level), and the last node up from there (it came from the
// bottom, so it seldom climbs): about log2(n) comparisons where a sift of
// the last node from the root makes two a level, one of them unpredictable
// (BenchmarkNoisyTimers measures this traffic; a 4-ary heap of timers
// measured no faster there).
type timerQueue struct {
	heap []node   // by key: heap[0] is the least
	acts []action // by node.slot
	free []uint32 // indexes in acts not in use
	n    int      // timers queued, lanes and heap

	// laneD[i] is lane i's delay (s; NaN for none), apart from the lanes
	// so that a search of them reads one cache line.
	laneD [lanes]float64
	lane  [lanes]lane
	// laneSlots has bit s set when a lane's delay has recallSlot s, and
	// laneOf[s] is the first such lane: most pushes, whether of a lane's
	// delay or of one the heap takes, then find out without a look at
	// every lane's.
	laneSlots uint64
	laneOf    [laneRecall]uint8
	// A tournament over the lanes' first timers: node p (the root is 1,
	// p's children 2p and 2p+1) holds in win[p] the lane of the least head
	// under it and in top[p] that head's key; lane i's leaf lanes+i holds
	// its own (noKey when it is empty). A lane's head changes at its first
	// push and at each of its pops, which replay its path (log2(lanes)
	// comparisons); the merge with the heap is then one comparison, not
	// one a lane.
	top    [2 * lanes]key
	win    [2 * lanes]uint8
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

	// revoked counts the timers withdrawn (Engine.Revoke) and still
	// queued: settle drops one that comes first. 0, one test, where no
	// driver revokes.
	revoked int
}

func newTimerQueue() timerQueue {
	var q timerQueue
	for i := range q.lane {
		q.laneD[i] = math.NaN() // no lane yet: NaN equals no delay
	}
	for i := range q.recent {
		q.recent[i].d = math.NaN()
	}
	for p := range q.top {
		q.top[p] = noKey
		q.win[p] = uint8(p % lanes) // any lane: all are empty
	}
	return q
}

// noKey is an empty lane's head: after every timer's key (a time's bits
// are below it).
var noKey = key{math.MaxUint64, math.MaxUint64}

// setHead makes k lane i's head and replays the lane's path up the
// tournament: at each node the lesser of the key from below and its
// sibling's wins, chosen by masks (no branch).
func (q *timerQueue) setHead(i int, k key) {
	const mask = 2*lanes - 1 // spares the bounds checks
	w := uint8(i)
	p := (lanes + i) & mask
	q.top[p] = k
	for ; p > 1; p >>= 1 {
		s := (p ^ 1) & mask
		sk := q.top[s]
		m := 0 - borrow(sk, k) // all ones when the sibling's is first
		k.hi ^= (k.hi ^ sk.hi) & m
		k.lo ^= (k.lo ^ sk.lo) & m
		w ^= (w ^ q.win[s]) & uint8(m)
		u := (p >> 1) & mask
		q.top[u], q.win[u] = k, w
	}
}

// push queues a for time at = now + d; seq is its unique, increasing
// insertion number. Timers of one delay must be pushed with nondecreasing
// times (now never goes back).
func (q *timerQueue) push(d, at float64, seq uint64, a action) {
	q.n++
	if l := q.laneFor(d); l >= 0 {
		ln := &q.lane[l]
		ln.items = append(ln.items, timer{at: at, seq: seq, a: a})
		if len(ln.items)-ln.head == 1 {
			q.setHead(l, keyOf(at, seq))
		}
		if q.valid && !q.frontBefore(at, seq) {
			q.front, q.frontAt, q.frontSeq = l, at, seq
		}
		return
	}
	q.heapPush(at, seq, a)
	if q.valid && !q.frontBefore(at, seq) {
		q.front, q.frontAt, q.frontSeq = -1, at, seq
	}
}

// pushAt queues a for time at in the heap, off the lanes: a time that is
// not now plus one of the lanes' delays.
func (q *timerQueue) pushAt(at float64, seq uint64, a action) {
	q.n++
	q.heapPush(at, seq, a)
	if q.valid && !q.frontBefore(at, seq) {
		q.front, q.frontAt, q.frontSeq = -1, at, seq
	}
}

// heapPush adds a timer to the heap: its node goes up from the end while
// it is before its parent, moving the parents down into the hole.
func (q *timerQueue) heapPush(at float64, seq uint64, a action) {
	var s uint32
	if f := len(q.free); f > 0 {
		s = q.free[f-1]
		q.free = q.free[:f-1]
		q.acts[s] = a
	} else {
		s = uint32(len(q.acts))
		q.acts = append(q.acts, a)
	}
	h := append(q.heap, node{})
	siftUp(h, len(h)-1, node{k: keyOf(at, seq), slot: s})
	q.heap = h
}

// siftUp puts t in the hole at i of h or above it, moving down each parent
// it comes before.
func siftUp(h []node, i int, t node) {
	for i > 0 {
		p := (i - 1) >> 1
		if !t.k.less(h[p].k) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = t
}

// heapPop removes the heap's least timer and returns its time and action;
// the heap must not be empty.
func (q *timerQueue) heapPop() (float64, action) {
	h := q.heap
	top := h[0]
	last := len(h) - 1
	t := h[last]
	h = h[:last]
	if last > 0 {
		// The hole at the root goes down to a leaf, the lesser child
		// moving up at each level (the right one when it is less: its
		// borrow is the index step)...
		i := 0
		for {
			c := 2*i + 1
			if c+1 < last {
				c += int(borrow(h[c+1].k, h[c].k))
			} else if c >= last {
				break
			}
			h[i] = h[c]
			i = c
		}
		// ... and the last node up from there while it is before its parent.
		siftUp(h, i, t)
	}
	q.heap = h
	a := q.acts[top.slot]
	q.acts[top.slot] = action{} // drop the action's references
	q.free = append(q.free, top.slot)
	return timeOf(top.k), a
}

// laneFor returns the lane of delay d, giving it an empty lane if d is
// remembered from a heap timer, or −1.
func (q *timerQueue) laneFor(d float64) int {
	if d == 0 {
		d = 0 // −0 is 0's delay, and hashes as 0
	}
	slot := recallSlot(d)
	if q.laneSlots>>slot&1 != 0 { // a lane's delay has this slot: which?
		if i := q.laneOf[slot]; q.laneD[i] == d {
			return int(i)
		}
		for i := range q.laneD {
			if q.laneD[i] == d {
				return i
			}
		}
	}
	r := &q.recent[slot]
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
			q.laneSlots = 0
			for j := len(q.laneD) - 1; j >= 0; j-- {
				if dj := q.laneD[j]; dj == dj { // not NaN: lane j has a delay
					s := recallSlot(dj)
					q.laneSlots |= 1 << s
					q.laneOf[s] = uint8(j)
				}
			}
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

// first finds the earliest timer's place; ok is false when none is queued.
func (q *timerQueue) first() (int, bool) {
	if !q.valid && !q.settle() {
		return 0, false
	}
	return q.front, true
}

// settle finds the earliest timer, which it caches as front: the heap's
// least or the lanes' (the tournament's winner), whichever is first. A
// revoked timer found first is dropped, unfired, and the search goes on;
// settle reports whether a timer is left.
func (q *timerQueue) settle() bool {
	for q.n > 0 {
		best, bk := int(q.win[1]), q.top[1]
		if len(q.heap) > 0 && q.heap[0].k.less(bk) {
			best, bk = -1, q.heap[0].k
		}
		q.front, q.frontAt, q.frontSeq, q.valid = best, timeOf(bk), bk.lo, true
		if q.revoked == 0 || !q.frontRevoked() {
			return true
		}
		q.revoked--
		q.pop()
	}
	return false
}

// frontRevoked reports whether the earliest timer (front, known) was
// withdrawn.
func (q *timerQueue) frontRevoked() bool {
	var h Handler
	if i := q.front; i < 0 {
		h = q.acts[q.heap[0].slot].h
	} else {
		l := &q.lane[i]
		h = l.items[l.head].a.h
	}
	v, ok := h.(*Revocable)
	return ok && v.revoked
}

// peek returns the due time of the earliest timer.
func (q *timerQueue) peek() (float64, bool) {
	if !q.valid && !q.settle() {
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
			q.setHead(i, noKey)
		case l.head >= 1024 && l.head >= len(l.items)/2: // slide the queued tail down: one array per lane
			n := copy(l.items, l.items[l.head:])
			clear(l.items[n:])
			l.items, l.head = l.items[:n], 0
			fallthrough
		default:
			h := &l.items[l.head]
			q.setHead(i, keyOf(h.at, h.seq))
		}
		return t.at, t.a
	}
	return q.heapPop()
}
