package emu

import "github.com/petar/GoLLRB/llrb"

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
// tree orders buckets by (at, seq of their first timer).
//
// Why buckets: SPMD programs schedule many timers for the same instant (all
// ranks' messages of one round have the same latency). Appending to the
// bucket last used costs O(1) instead of an O(log n) tree insertion. A
// bucket accepts appends only while it is the last one used, so a later
// bucket for the same instant holds only later timers, and ordering
// buckets by (at, first seq) still fires timers in (at, seq) order.
type bucket struct {
	at    float64 // s
	seq   uint64  // seq of the first timer
	items []action
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

// timerQueue is the engine's (time, seq)-ordered queue of timers.
type timerQueue struct {
	tree  *llrb.LLRB
	min   *bucket   // the tree's minimum, cached (nil when empty)
	last  *bucket   // the bucket of the latest insertion, if still queued
	n     int       // timers queued
	spare []*bucket // emptied buckets, reused
}

func newTimerQueue() timerQueue { return timerQueue{tree: llrb.New()} }

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
	q.tree.InsertNoReplace(b)
	q.last = b
	if q.min == nil || b.Less(q.min) {
		q.min = b
	}
}

// peek returns the due time of the earliest timer.
func (q *timerQueue) peek() (float64, bool) {
	if q.min == nil {
		return 0, false
	}
	return q.min.at, true
}

// pop removes and returns the earliest timer.
func (q *timerQueue) pop() (float64, action) {
	b := q.min
	a := b.items[b.head]
	b.items[b.head] = action{}
	b.head++
	q.n--
	if b.head == len(b.items) {
		q.tree.DeleteMin()
		if q.last == b {
			q.last = nil
		}
		q.min = nil
		if m := q.tree.Min(); m != nil {
			q.min = m.(*bucket)
		}
		b.items = b.items[:0]
		q.spare = append(q.spare, b)
	}
	return b.at, a
}
