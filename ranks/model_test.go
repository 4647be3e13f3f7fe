package ranks

import (
	"runtime"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestCrossTrafficOnSharedDuplex: with SMPI's 5% cross-traffic and cables
// that carry both directions on one Shared link (SimGrid SHARED), an
// isolated flow loads each of its links at 1 + 0.05 (forward + its own ACK
// stream), so its rate is B/1.05 (reference §2.1, §2.4). With split-duplex
// cables the ACKs use the other direction and cost nothing.
func TestCrossTrafficOnSharedDuplex(t *testing.T) {
	const bw, lat, size = 1e9, 1e-6, 1 << 20
	cfg := preset(t, "cm02")
	cfg.CrossTraffic = SMPICrossTraffic
	for _, tc := range []struct {
		policy fluid.LinkPolicy
		rate   float64
	}{{fluid.SharedDuplex, bw / 1.05}, {fluid.SplitDuplex, bw}} {
		topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: bw, Latency: lat, Policy: tc.policy}})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := NewWorld(cfg, topo, []int{0, 1}, 1)
		var got float64
		if err := w.Run(func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 0, Msg{Bytes: size})
			} else {
				r.World().Recv(0, 0)
				got = r.Now()
			}
		}); err != nil {
			t.Fatal(err)
		}
		if want := 2*lat + (size+16)/tc.rate; !near(got, want) {
			t.Errorf("policy %d: %.12g s, want %.12g s", tc.policy, got, want)
		}
	}
}

// TestPenaltySharing: two equal messages from hosts 0 and 1 to host 2 share
// host 2's down link (capacity B). Routes have latencies L0 = 2 µs and
// L1 = 6 µs (host 1's up link is slower to answer), and with weight-S = 0
// a flow's penalty is its route latency, so on the shared link the rates are
// x_i = B·(1/L_i)/(1/L0 + 1/L1): x0 = 0.75·B, x1 = 0.25·B (§1.1, §2.5).
//
// Timeline (s' = S + 16 bytes each): flow 0 runs alone at B from L0 to L1,
// moving B·(L1−L0); then both share until flow 0 ends at
// t0 = L1 + (s' − B·(L1−L0))/(0.75·B); flow 1 has moved 0.25·B·(t0−L1) and
// finishes alone at t1 = t0 + (s' − 0.25·B·(t0−L1))/B.
func TestPenaltySharing(t *testing.T) {
	const bw, lat, size = 1e9, 1e-6, 100000
	topo := newCrossbar(3, bw, lat).withUpLatency(1, 5*lat)
	cfg := preset(t, "cm02")
	ends := make([]float64, 2)
	run(t, cfg, topo, 3, func(r *Rank) {
		c := r.World()
		if r.ID() < 2 {
			c.Send(2, 0, Msg{Bytes: size}) // rendezvous: returns at arrival
			ends[r.ID()] = r.Now()
			return
		}
		a, b := c.Irecv(0, 0), c.Irecv(1, 0)
		Waitall(a, b)
	})
	s := float64(size + 16)
	L0, L1 := 2*lat, 6*lat
	t0 := L1 + (s-bw*(L1-L0))/(0.75*bw)
	t1 := t0 + (s-0.25*bw*(t0-L1))/bw
	if !near(ends[0], t0) || !near(ends[1], t1) {
		t.Fatalf("flows end at %.12g and %.12g, want %.12g and %.12g", ends[0], ends[1], t0, t1)
	}
}

// TestIdleRankMemory: a rank blocked in a receive holds under 16 KiB (its
// goroutine stack, its Rank and its first request) — the design target.
func TestIdleRankMemory(t *testing.T) {
	const n, budget = 4096, 16 << 10 // ranks, bytes per rank
	cfg := preset(t, "cm02")
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w, _ := NewWorld(cfg, newCrossbar(1, 1e9, 1e-6), make([]int, n), 1)
	_ = w.Run(func(r *Rank) {
		if r.ID() == n-1 {
			runtime.GC()
			runtime.ReadMemStats(&during)
		}
		r.World().Recv(AnySource, 0)
	})
	used := float64(during.HeapInuse+during.StackInuse) - float64(before.HeapInuse+before.StackInuse)
	if perRank := used / n; perRank > budget || perRank <= 0 {
		t.Fatalf("%.0f bytes per idle rank, budget %d", perRank, budget)
	} else {
		t.Logf("%.0f bytes per idle rank", perRank)
	}
}
