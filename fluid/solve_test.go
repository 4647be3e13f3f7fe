package fluid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStampWrap runs the same starts and ends on two Systems, one whose
// 32-bit solve counter wraps midway (restamp): the rates must be the
// same floats, since a stale stamp matching a new one would pull flows
// into a re-solve or hide them from it.
func TestStampWrap(t *testing.T) {
	links := shared(10, 7, 5, 3, 11)
	a, b := NewSystem(links), NewSystem(links)
	b.mm().fill.stamp = math.MaxUint32 - 1 // wraps at the first re-solve
	rng := rand.New(rand.NewPCG(3, 3))
	var ids []FlowID
	for step := range 40 {
		if len(ids) > 0 && step%3 == 2 {
			k := rng.IntN(len(ids))
			a.Finish(0, ids[k])
			b.Finish(0, ids[k])
			ids = slices.Delete(ids, k, k+1)
		} else {
			spec := FlowSpec{Links: []LinkID{LinkID(rng.IntN(5)), LinkID(rng.IntN(5))}, Bytes: 1, Weight: 1 + rng.Float64()}
			id := a.Start(0, spec)
			if b.Start(0, spec) != id {
				t.Fatalf("step %d: ids differ", step)
			}
			ids = append(ids, id)
		}
		for _, id := range ids {
			if a.Rate(id) != b.Rate(id) {
				t.Fatalf("step %d: flow %d at %v, %v after the counter wrapped", step, id, a.Rate(id), b.Rate(id))
			}
		}
	}
	if b.mm().fill.stamp > 100 {
		t.Fatalf("the counter did not wrap (stamp %d)", b.mm().fill.stamp)
	}
}

// TestLevelQueueOrder drives a levelQueue as the solver does — the top
// entry is either taken out or its key raised — over keys with many ties,
// and checks each top against a plain scan for the least (key, link) of
// the entries left.
func TestLevelQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{1, 10, minPartition - 1, minPartition, 3000} {
		key := make(map[LinkID]float64, n) // the reference: current key per link
		q := newLevelQueue()
		for l := range n {
			k := float64(rng.IntN(n/4 + 1)) // ties
			key[LinkID(l)] = k
			q.add(linkAt(k, LinkID(l)))
		}
		q.order()
		for len(key) > 0 {
			if q.heap.Len() == 0 {
				q.order()
			}
			top := q.heap.Top()
			want := linkAt(math.Inf(1), 0)
			for l, k := range key {
				if k < want.Key || (k == want.Key && l < want.ID) {
					want = linkAt(k, l)
				}
			}
			if top != want {
				t.Fatalf("n=%d: top %+v, want %+v", n, top, want)
			}
			if rng.IntN(3) == 0 {
				delete(key, top.ID)
				q.heap.Pop()
				continue
			}
			level := top.Key + float64(rng.IntN(n/8+1)) // keys only grow
			if level == want.Key {
				level = math.Nextafter(level, math.Inf(1))
			}
			key[top.ID] = level
			q.raiseTop(level)
		}
		if q.heap.Len()+len(q.parked) != 0 {
			t.Fatalf("n=%d: %d entries left", n, q.heap.Len()+len(q.parked))
		}
	}
}

// TestSmallFillMatchesHeap runs random flow starts, completions and
// cancellations twice, once with the re-solves of at most smallQueue links
// ranked by the tournament tree (fillTree) and once all through the level
// heap, and wants every rate after every event to be the same float. The links' capacities,
// the weights and the bounds take few values, so that links saturate at
// tied levels (broken by link) and bounds tie with links.
func TestSmallFillMatchesHeap(t *testing.T) {
	run := func(seed uint64, small int) []float64 {
		old := smallQueue
		smallQueue = small
		defer func() { smallQueue = old }()
		rng := rand.New(rand.NewPCG(seed, 9))
		nl := 2 + rng.IntN(12)
		bws := make([]float64, nl)
		for i := range bws {
			bws[i] = []float64{10, 20, 30, 7}[rng.IntN(4)]
		}
		s := NewSystem(shared(bws...))
		var ids []FlowID
		var rates []float64
		now := 0.0
		for step := range 300 {
			switch r := rng.IntN(10); {
			case r < 5 || len(ids) == 0:
				route := []LinkID{LinkID(rng.IntN(nl))}
				if rng.IntN(3) > 0 {
					route = append(route, LinkID(rng.IntN(nl)))
				}
				spec := FlowSpec{Links: route, Bytes: float64(1 + rng.IntN(50)), Weight: []float64{1, 1, 2, 0.5}[rng.IntN(4)]}
				if rng.IntN(4) == 0 {
					spec.Bound = []float64{2, 5, 10}[rng.IntN(3)]
				}
				ids = append(ids, s.Start(now, spec))
			default:
				now, ids = endOne(s, rng, r < 8, now, ids)
			}
			if step%7 == 0 {
				now += 0.25
			}
			for _, id := range ids {
				rates = append(rates, s.Rate(id))
			}
		}
		return rates
	}
	for seed := uint64(1); seed <= 200; seed++ {
		scan, heap := run(seed, 1<<30), run(seed, -1)
		if len(scan) != len(heap) {
			t.Fatalf("seed %d: %d rates with scans, %d through the heap", seed, len(scan), len(heap))
		}
		for i := range scan {
			if math.Float64bits(scan[i]) != math.Float64bits(heap[i]) {
				t.Fatalf("seed %d: rate %d is %v with scans, %v through the heap", seed, i, scan[i], heap[i])
			}
		}
	}
}

// endOne ends a flow of ids: with finish the next to complete (the clock
// moved to its completion), else one drawn and cancelled. It returns the
// clock and the flows left.
func endOne(s *System, rng *rand.Rand, finish bool, now float64, ids []FlowID) (float64, []FlowID) {
	if finish {
		if tc, id, ok := s.NextCompletion(); ok {
			now = max(now, tc)
			s.Finish(now, id)
			ids = slices.DeleteFunc(ids, func(x FlowID) bool { return x == id })
		}
		return now, ids
	}
	k := rng.IntN(len(ids))
	s.Cancel(now, ids[k])
	return now, slices.Delete(ids, k, k+1)
}
