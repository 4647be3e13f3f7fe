package ranks

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRandomTrafficDelivery: random plans of messages (random peers, sizes
// across the detached/rendezvous threshold, tags, wildcards, Isend or Send,
// Irecv+Waitany or Recv) on random topologies and models. Checks: every
// message arrives exactly once with its payload; messages of one (sender,
// tag) arrive in sending order (non-overtaking); the run is deterministic.
func TestRandomTrafficDelivery(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		a, b := runRandomPlan(t, seed), runRandomPlan(t, seed)
		if a != b {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

type plannedMsg struct {
	dst, tag, size int
	blocking       bool
}

func runRandomPlan(t *testing.T, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 99))
	n := 2 + rng.IntN(6)
	model := []string{"cm02", "smpi"}[rng.IntN(2)]
	cfg := preset(t, model)
	cfg.IprobeCost = []float64{0, 1e-6, 1e-4}[rng.IntN(3)]
	cfg.AsyncThreshold = []int{0, 512}[rng.IntN(2)]
	cfg.WakeOrder = []WakeOrder{WakeRank, WakeFIFO}[rng.IntN(2)]
	if seed%3 == 0 {
		cfg.WakeOrder = WakeSimGrid
	}
	plans := make([][]plannedMsg, n)
	incoming := make([]int, n)
	for src := range plans {
		for k := rng.IntN(12); k > 0; k-- {
			m := plannedMsg{dst: rng.IntN(n), tag: rng.IntN(3), size: []int{0, 8, 1000, 70000, 200000}[rng.IntN(5)], blocking: rng.IntN(2) == 0}
			if m.size >= cfg.EagerThreshold {
				m.blocking = false // blocking rendezvous sends before receiving can deadlock, as in MPI
			}
			plans[src] = append(plans[src], m)
			incoming[m.dst]++
		}
	}
	type got struct{ src, tag, seq int }
	received := make([][]got, n)
	w, err := NewWorld(cfg, newCrossbar(n, 1e9, 1e-6), identity(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	var trace []string
	w.AddHook(func(e *Event) {
		if e.Kind == RecvDone {
			trace = append(trace, fmt.Sprintf("%d>%d@%.17g", e.Peer, e.Rank, e.Time))
		}
	})
	err = w.Run(func(r *Rank) {
		c := r.World()
		me := r.ID()
		rr := r.Rand()
		// Post some receives up front (wildcards), the rest after sending.
		early := rr.IntN(incoming[me] + 1)
		var reqs []*Request
		for i := 0; i < early; i++ {
			reqs = append(reqs, c.Irecv(AnySource, AnyTag))
		}
		var sends []*Request
		for seq, m := range plans[me] {
			// Bytes is the size on the wire (0: the 24 payload bytes).
			msg := Msg{Bytes: m.size, Data: []float64{float64(me), float64(m.tag), float64(seq)}}
			if m.blocking {
				c.Send(m.dst, m.tag, msg)
			} else {
				sends = append(sends, c.Isend(m.dst, m.tag, msg))
			}
		}
		record := func(msg Msg, st Status) {
			if int(msg.Data[0]) != st.Source || int(msg.Data[1]) != st.Tag {
				t.Errorf("seed %d: payload %v does not match status %+v", seed, msg.Data, st)
			}
			received[me] = append(received[me], got{st.Source, st.Tag, int(msg.Data[2])})
		}
		// Completion order may differ from matching order (a small message
		// overtakes a large one in flight); MPI orders the matching, so
		// record the early receives in posting order once all are done.
		posted := append([]*Request(nil), reqs...)
		for len(reqs) > 0 {
			Waitany(reqs)
			reqs = compact(reqs)
		}
		for _, q := range posted {
			record(q.Wait())
		}
		for i := early; i < incoming[me]; i++ {
			record(c.Recv(AnySource, AnyTag))
		}
		Waitall(sends...)
	})
	if err != nil {
		t.Fatalf("seed %d (%d ranks, %s): %v", seed, n, model, err)
	}
	for dst := range received {
		if len(received[dst]) != incoming[dst] {
			t.Fatalf("seed %d: rank %d got %d messages, want %d", seed, dst, len(received[dst]), incoming[dst])
		}
		last := map[[2]int]int{}
		for _, g := range received[dst] {
			k := [2]int{g.src, g.tag}
			if prev, ok := last[k]; ok && g.seq <= prev {
				t.Fatalf("seed %d: rank %d got message %d of (src %d, tag %d) after %d", seed, dst, g.seq, g.src, g.tag, prev)
			}
			last[k] = g.seq
		}
	}
	return fmt.Sprint(trace)
}

// compact drops the nil entries Waitany leaves.
func compact(reqs []*Request) []*Request {
	out := reqs[:0]
	for _, q := range reqs {
		if q != nil {
			out = append(out, q)
		}
	}
	return out
}
