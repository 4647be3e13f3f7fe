package ranks

import (
	"fmt"
	"math"
	"math/bits"
	"testing"
)

// algoConfigs lists one config per selectable algorithm set.
func algoConfigs(t *testing.T) map[string]Config {
	base := preset(t, "cm02")
	out := map[string]Config{"default": base}
	lin := base
	lin.BcastAlgo, lin.ReduceAlgo, lin.GatherAlgo, lin.ScatterAlgo = AlgoLinear, AlgoLinear, AlgoLinear, AlgoLinear
	lin.AlltoallAlgo, lin.BarrierAlgo, lin.AllreduceAlgo, lin.AllgatherAlgo = AlgoLinear, AlgoLinear, AlgoRing, AlgoRing
	out["linear+ring"] = lin
	rb := base
	rb.AllreduceAlgo = AlgoReduceBcast
	out["reduce_bcast"] = rb
	smpi := lin // SMPI's default selector's algorithms
	smpi.BcastAlgo, smpi.AllreduceAlgo, smpi.AllgatherAlgo = AlgoBinomial, AlgoReduceBcast, AlgoLinear
	smpi.AlltoallAlgo = AlgoOMPI
	out["smpi"] = smpi
	bruck := base
	bruck.AlltoallAlgo = AlgoBruck
	out["bruck"] = bruck
	eager := base
	eager.EagerThreshold = 0 // every internal message rendezvous
	out["rendezvous"] = eager
	return out
}

// TestCollectivesResults checks every collective's data against its
// definition for sizes 1..9 (powers of two and not) and every algorithm,
// with roots 0 and p−1. Rank i contributes values derived from i.
func TestCollectivesResults(t *testing.T) {
	for name, cfg := range algoConfigs(t) {
		for p := 1; p <= 9; p++ {
			t.Run(fmt.Sprintf("%s/p=%d", name, p), func(t *testing.T) {
				run(t, cfg, newCrossbar(p, 1e9, 1e-6), p, func(r *Rank) { checkCollectives(t, r.World()) })
			})
		}
	}
}

func checkCollectives(t *testing.T, c *Comm) {
	p, me := c.Size(), c.Rank()
	fail := func(what string, got, want any) {
		t.Errorf("rank %d: %s = %v, want %v", me, what, got, want)
	}
	for _, root := range []int{0, p - 1} {
		var in Msg
		if me == root {
			in = Msg{Data: []float64{7, float64(root)}}
		}
		if got := c.Bcast(root, in); fmt.Sprint(got.Data) != fmt.Sprint([]float64{7, float64(root)}) || got.Bytes != 16 {
			fail("Bcast", got, "[7 root] 16 B")
		}
		red := c.Reduce(root, Msg{Data: []float64{float64(me), 1}}, Sum)
		if me == root && fmt.Sprint(red.Data) != fmt.Sprint([]float64{float64(p * (p - 1) / 2), float64(p)}) {
			fail("Reduce", red.Data, p*(p-1)/2)
		}
		g := c.Gather(root, Msg{Data: []float64{float64(10 * me)}})
		if me == root {
			for i := 0; i < p; i++ {
				if g[i].Data[0] != float64(10*i) {
					fail("Gather", g, "10·i")
					break
				}
			}
		} else if g != nil {
			fail("Gather off root", g, nil)
		}
		var parts []Msg
		if me == root {
			for i := 0; i < p; i++ {
				parts = append(parts, Msg{Data: []float64{float64(100 + i)}})
			}
		}
		if s := c.Scatter(root, parts); s.Data[0] != float64(100+me) {
			fail("Scatter", s.Data, 100+me)
		}
	}
	data := make([]float64, 5) // 5 elements: not a multiple of most p (ring segments)
	for i := range data {
		data[i] = float64(me*10 + i)
	}
	for _, op := range []Op{Sum, Max, Min} {
		got := c.Allreduce(Msg{Data: data}, op)
		for i, v := range got.Data {
			want := 0.0
			switch op {
			case Sum:
				want = float64(10*p*(p-1)/2 + p*i)
			case Max:
				want = float64(10*(p-1) + i)
			case Min:
				want = float64(i)
			}
			if v != want {
				fail("Allreduce "+op.String(), got.Data, want)
				break
			}
		}
		if got.Bytes != 40 {
			fail("Allreduce bytes", got.Bytes, 40)
		}
	}
	ag := c.Allgather(Msg{Data: []float64{float64(me)}})
	for i := 0; i < p; i++ {
		if ag[i].Data[0] != float64(i) {
			fail("Allgather", ag, "i")
			break
		}
	}
	var a2a []Msg
	for i := 0; i < p; i++ {
		a2a = append(a2a, Msg{Data: []float64{float64(me*100 + i)}})
	}
	out := c.Alltoall(a2a)
	for i := 0; i < p; i++ {
		if out[i].Data[0] != float64(i*100+me) {
			fail("Alltoall", out, "src·100+me")
			break
		}
	}
	c.Barrier()
}

// TestBarrierHoldsEveryone: rank k enters at t = k ms; nobody leaves before
// the last one has entered (p−1 ms).
func TestBarrierHoldsEveryone(t *testing.T) {
	for name, cfg := range algoConfigs(t) {
		for _, p := range []int{2, 5, 8} {
			run(t, cfg, newCrossbar(p, 1e9, 1e-6), p, func(r *Rank) {
				r.Compute(float64(r.ID())*1e-3, "w")
				r.World().Barrier()
				if r.Now() < float64(p-1)*1e-3 {
					t.Errorf("%s p=%d: rank %d left the barrier at %g", name, p, r.ID(), r.Now())
				}
			})
		}
	}
}

// TestBinomialBcastTime: on a contention-free crossbar with rendezvous
// messages (each send waits for its transfer, so a node's sends never
// overlap), the binomial tree's depth is ceil(log2 p) and every rank
// receives by ceil(log2 p)·T, T = L + s'/B the one-hop time; the last rank
// (p−1 relative to root 0, all its bits set on the longest path) at exactly
// that time when p is a power of two.
func TestBinomialBcastTime(t *testing.T) {
	const (
		bw, lat = 1e9, 1e-6
		size    = 1 << 20
	)
	hop := 2*lat + float64(size+16)/bw
	for _, p := range []int{2, 3, 4, 7, 8, 16, 33} {
		depth := bits.Len(uint(p - 1)) // ceil(log2 p)
		latest := 0.0
		run(t, preset(t, "cm02"), newCrossbar(p, bw, lat), p, func(r *Rank) {
			r.World().Bcast(0, Msg{Bytes: size})
			latest = math.Max(latest, r.Now())
		})
		// The root's last send completes when its last child has the data;
		// every rank returns from Bcast once its own sends are done, and
		// the critical path is depth hops.
		if want := float64(depth) * hop; !near(latest, want) {
			t.Errorf("p=%d: Bcast done at %.12g, want %d·%.6g = %.12g", p, latest, depth, hop, want)
		}
	}
}

// TestSplit: ranks split by parity, keyed in reverse order; each new
// communicator has the right size and order and carries its own traffic.
func TestSplit(t *testing.T) {
	run(t, preset(t, "cm02"), newCrossbar(7, 1e9, 1e-6), 7, func(r *Rank) {
		w := r.World()
		color := r.ID() % 2
		if r.ID() == 6 {
			color = Undefined
		}
		c := w.Split(color, -r.ID())
		if r.ID() == 6 {
			if c != nil {
				t.Errorf("Undefined color gave a communicator")
			}
			return
		}
		wantSize := map[int]int{0: 3, 1: 3}[color]
		if c.Size() != wantSize {
			t.Errorf("rank %d: size %d, want %d", r.ID(), c.Size(), wantSize)
		}
		// Reverse key order: the highest world rank of each color is rank 0.
		members := map[int][]int{0: {4, 2, 0}, 1: {5, 3, 1}}[color]
		if c.WorldRank(c.Rank()) != r.ID() || members[c.Rank()] != r.ID() {
			t.Errorf("rank %d got comm rank %d", r.ID(), c.Rank())
		}
		sum := c.Allreduce(Msg{Data: []float64{float64(r.ID())}}, Sum)
		if want := map[int]float64{0: 6, 1: 9}[color]; sum.Data[0] != want {
			t.Errorf("rank %d: sum over its communicator %v, want %v", r.ID(), sum.Data[0], want)
		}
		// A second split of the new communicator: everyone alone.
		solo := c.Split(c.Rank(), 0)
		if solo.Size() != 1 || solo.Rank() != 0 {
			t.Errorf("solo split: size %d rank %d", solo.Size(), solo.Rank())
		}
	})
}
