package emu

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestQueueMatchesReference: random pushes (few distinct delays, so lanes
// take them and the heap holds many timers of one instant; or more delays
// than the lanes, so most go to the heap) interleaved with pops come out
// exactly in
// (time, seq) order, as a plain sort of the same timers says.
func TestQueueMatchesReference(t *testing.T) {
	type ref struct {
		at  float64
		seq uint64
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		q := newTimerQueue()
		var pending []ref
		var seq, fired uint64
		now := 0.0
		times := []int{4, 40}[trial%2]
		for step := 0; step < 300; step++ {
			if rng.IntN(3) > 0 || len(pending) == 0 {
				seq++
				d := float64(rng.IntN(times)) // delays and times repeat often
				at := now + d
				s := seq
				q.push(d, at, seq, action{fn: func() { fired = s }})
				pending = append(pending, ref{at, seq})
				continue
			}
			sort.Slice(pending, func(i, j int) bool {
				if pending[i].at != pending[j].at {
					return pending[i].at < pending[j].at
				}
				return pending[i].seq < pending[j].seq
			})
			want := pending[0]
			pending = pending[1:]
			if at, ok := q.peek(); !ok || at != want.at {
				t.Fatalf("trial %d: peek %v, want %v", trial, at, want.at)
			}
			at, a := q.pop()
			if a.fn(); at != want.at || fired != want.seq {
				t.Fatalf("trial %d: popped (%v, %d), want %v", trial, at, fired, want)
			}
			now = at
			if q.n != len(pending) {
				t.Fatalf("trial %d: %d queued, want %d", trial, q.n, len(pending))
			}
		}
	}
}

// TestSameInstantKeepsInsertionOrder names each timer by its seq: those at
// one instant fire in insertion order even when another instant's timers
// were queued between them.
func TestSameInstantKeepsInsertionOrder(t *testing.T) {
	e := NewEngine(nil)
	var got []int
	for i, d := range []float64{1, 2, 1, 1, 2, 0, 1} {
		i := i
		e.After(d, func() { got = append(got, i) })
	}
	for e.Step() {
	}
	want := []int{5, 0, 2, 3, 6, 1, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("fired %v, want %v", got, want)
		}
	}
}

// TestNegativeZeroIsTimeZero: a timer due at −0 (AtHandler accepts it at
// time 0) is due at 0, ordered by insertion among the timers due at 0 and
// before every later one; the heap keys a time by its bits, where −0 would
// otherwise sort after every positive time.
func TestNegativeZeroIsTimeZero(t *testing.T) {
	e := NewEngine(nil)
	var got []int
	fire := func(i int) Handler { return handlerFunc(func() { got = append(got, i) }) }
	e.AtHandler(1e-9, fire(0))
	e.AtHandler(math.Copysign(0, -1), fire(1))
	e.AfterHandler(0, fire(2))
	e.AtHandler(0, fire(3))
	e.AtHandler(math.Copysign(0, -1), fire(4))
	for e.Step() {
	}
	want := []int{1, 2, 3, 4, 0}
	if len(got) != len(want) {
		t.Fatalf("fired %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("fired %v, want %v", got, want)
		}
	}
}

// TestLaneForFindsItsLane: once delays hold lanes, every push of one of
// them finds its own lane, also when several lanes' delays share a recall
// slot (the lanes' table then names only one of them), and a delay that
// holds none finds none until it has come back laneHits times.
func TestLaneForFindsItsLane(t *testing.T) {
	// Delays two by two in one slot, and one alone.
	bySlot := map[uint64][]float64{}
	var delays []float64
	for k := 1; len(delays) < lanes; k++ {
		d := float64(k) * 1e-7
		s := recallSlot(d)
		bySlot[s] = append(bySlot[s], d)
		if len(bySlot[s]) == 2 {
			delays = append(delays, bySlot[s]...)
		}
	}
	delays = delays[:lanes]
	q := newTimerQueue()
	var seq uint64
	for _, d := range delays {
		for range laneHits {
			seq++
			q.push(d, d, seq, action{})
		}
	}
	for i, d := range delays {
		if got := q.laneFor(d); got < 0 || q.laneD[got] != d {
			t.Fatalf("delay %d (%g): lane %d, want the lane holding it (lanes hold %v)", i, d, got, q.laneD)
		}
	}
	for _, d := range []float64{3.3e-3, 0.1234567} {
		for n := 1; n < laneHits; n++ {
			if got := q.laneFor(d); got >= 0 {
				t.Fatalf("delay %g pushed %d times: lane %d, want none (lanes hold %v)", d, n, got, q.laneD)
			}
		}
	}
}
