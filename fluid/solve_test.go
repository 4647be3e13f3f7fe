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
