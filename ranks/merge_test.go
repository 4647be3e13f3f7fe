package ranks

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMergedSleepsMatchEachSleep runs random programs whose ranks chain
// kernel calls (Compute) between MPI calls of every kind — point to point,
// Iprobe and Test loops, Probe, tasks, a WaitSet, collectives, Sleep,
// Free — once with their kernel sleeps merged (World.lazy) and once each
// slept in turn, and wants the same hook events (all but the compute
// events, whose listener turns merging off) in the same order at the same
// times, the same clock readings (Rank.Now) between the calls, the same
// end, to the bit. Durations come from a few values so that wake-ups tie,
// and from random floats so that sums round. It fails if merging did not
// happen (the merged runs fire fewer events).
func TestMergedSleepsMatchEachSleep(t *testing.T) {
	fewer := 0
	for seed := uint64(1); seed <= 60; seed++ {
		merged, firedM := runMergeProgram(t, seed, true)
		each, firedE := runMergeProgram(t, seed, false)
		sameEvents(t, seed, "merged", merged, "each", each)
		if firedM < firedE {
			fewer++
		}
	}
	if fewer < 50 {
		t.Errorf("merged runs fired fewer events than the others in %d of 60 programs: kernel sleeps did not merge", fewer)
	}
}

func runMergeProgram(t *testing.T, seed uint64, merge bool) (string, uint64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	n := 2 + rng.IntN(12)
	cfg := preset(t, []string{"cm02", "smpi"}[rng.IntN(2)])
	cfg.IprobeCost, cfg.TestCost = 1e-7, 3e-7
	switch seed % 4 {
	case 1:
		cfg.SendOverhead = MustParseTable("0:3e-7:1e-10;8133:4e-6:1e-10;65536:0")
		cfg.RecvOverhead = ConstTable(1e-6)
	case 2:
		cfg.IsendOverhead = ConstTable(2e-6)
	}
	w, err := NewWorld(cfg, newCrossbar(n, 1e9, 1e-6), identity(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	if merge {
		w.MergeKernelSleeps()
	}
	w.noSkip = seed%5 == 0
	var b strings.Builder
	w.AddListener(Listener{Kinds: AllKinds &^ KindsOf(ComputeStart, ComputeEnd), Hook: func(e *Event) {
		fmt.Fprintf(&b, "%v r%d p%d t%d %dB id%d/%d %s %.17g\n", e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.MsgID, e.RecvID, e.Kernel, e.Time)
	}})
	steps := 3 + rng.IntN(6)
	ops := make([]int, steps)
	kernels := make([][][]float64, steps) // step → rank → durations
	for s := range ops {
		ops[s] = rng.IntN(9)
		kernels[s] = make([][]float64, n)
		for me := range n {
			for range rng.IntN(4) {
				d := []float64{0, 1e-6, 2e-6, 1e-6 / 3, rng.Float64() * 5e-6}[rng.IntN(5)]
				kernels[s][me] = append(kernels[s][me], d)
			}
		}
	}
	sizes := []int{8, 4000, 70000}
	size := sizes[rng.IntN(len(sizes))]
	clocks := make([][]float64, n)
	err = w.Run(func(r *Rank) {
		c := r.World()
		me, right, left := c.Rank(), (c.Rank()+1)%n, (c.Rank()+n-1)%n
		for s, op := range ops {
			for _, d := range kernels[s][me] {
				r.Compute(d, "work")
				clocks[me] = append(clocks[me], r.Now())
			}
			switch op {
			case 0: // a ring shift
				q := c.Irecv(left, s)
				Waitall(c.Isend(right, s, Msg{Bytes: size}), q)
			case 1: // a probe loop, then the receive
				c.Send(right, s, Msg{Bytes: 8})
				for ok := false; !ok; ok, _ = c.Iprobe(left, s) {
				}
				c.Recv(left, s)
			case 2: // a test loop, then Free
				q := c.Irecv(left, s)
				c.Isend(right, s, Msg{Bytes: size}).Free()
				for ok := false; !ok; ok, _, _ = q.Test() {
				}
				q.Free()
			case 3:
				q := c.Isend(right, s, Msg{Bytes: size})
				c.Probe(left, s)
				c.Recv(left, s)
				q.Wait()
				q.Free()
			case 4:
				r.Sleep(1e-6 * float64(me%3))
			case 5: // a WaitSet
				ws := r.NewWaitSet()
				ws.Add(c.Irecv(left, s), 1)
				ws.Add(c.Isend(right, s, Msg{Bytes: size}), 2)
				clocks[me] = append(clocks[me], float64(ws.Done()))
				for ws.Len() > 0 {
					q, _, _, _ := ws.Next()
					q.Free()
				}
			case 6:
				c.Allreduce(Msg{Data: []float64{r.Now()}}, Max)
			case 7: // a task
				x := &ringRoll{me: me, n: n, pieces: []int{size, 8, size, 8, size, 8, size, 8, size, 8, size, 8, size, 8}[:n]}
				c.Exchanges(n-1, 7, x)
			default: // a kernel call and the end of main: nothing after
			}
			clocks[me] = append(clocks[me], r.Now())
		}
	})
	if err != nil {
		t.Fatalf("seed %d (merge %v): %v", seed, merge, err)
	}
	if w.lazy != merge {
		t.Fatalf("seed %d: merging is %v, want %v", seed, w.lazy, merge)
	}
	fmt.Fprintf(&b, "end %.17g\nclocks %v\n", w.End(), clocks)
	return b.String(), w.eng.Fired()
}

// TestMergingNeedsAllItsConditions: kernel sleeps merge only when asked,
// under the rank wake order, with no listener of compute events and no
// free poll.
func TestMergingNeedsAllItsConditions(t *testing.T) {
	base := preset(t, "smpi")
	base.IprobeCost, base.TestCost = 1e-7, 1e-7
	cases := []struct {
		name string
		edit func(*Config)
		hear KindSet
		ask  bool
		want bool
	}{
		{"all met", func(*Config) {}, KindsOf(SendPost, CallStart), true, true},
		{"not asked", func(*Config) {}, 0, false, false},
		{"fifo", func(c *Config) { c.WakeOrder = WakeFIFO }, 0, true, false},
		{"simgrid", func(c *Config) { c.WakeOrder = WakeSimGrid }, 0, true, false},
		{"compute heard", func(*Config) {}, KindsOf(ComputeEnd), true, false},
		{"free probes", func(c *Config) { c.IprobeCost = 0 }, 0, true, false},
		{"free tests", func(c *Config) { c.TestCost = 0 }, 0, true, false},
	}
	for _, tc := range cases {
		cfg := base
		tc.edit(&cfg)
		w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
		if err != nil {
			t.Fatal(err)
		}
		if tc.ask {
			w.MergeKernelSleeps()
		}
		if tc.hear != 0 {
			w.AddListener(Listener{Kinds: tc.hear, Hook: func(*Event) {}})
		}
		if err := w.Run(func(r *Rank) { r.Compute(1e-6, "work") }); err != nil {
			t.Fatal(err)
		}
		if w.lazy != tc.want {
			t.Errorf("%s: merging %v, want %v", tc.name, w.lazy, tc.want)
		}
	}
}
