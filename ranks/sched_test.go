package ranks

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestDeadlockReport: two ranks both receive first; nothing is pending, so
// Run returns a *DeadlockError naming both with their call, peer and tag.
func TestDeadlockReport(t *testing.T) {
	w, err := NewWorld(preset(t, "cm02"), newCrossbar(3, 1e9, 1e-6), identity(3), 1)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Run(func(r *Rank) {
		c := r.World()
		switch r.ID() {
		case 0:
			c.Recv(1, 4)
		case 1:
			c.Recv(AnySource, AnyTag)
		case 2:
			r.Compute(2, "work") // finishes: not listed
		}
	})
	var d *DeadlockError
	if !errors.As(err, &d) {
		t.Fatalf("Run returned %v, want a *DeadlockError", err)
	}
	want := []BlockedRank{{Rank: 0, Call: "Recv", Peer: 1, Tag: 4}, {Rank: 1, Call: "Recv", Peer: AnySource, Tag: AnyTag}}
	if fmt.Sprint(d.Blocked) != fmt.Sprint(want) || d.Time != 2 {
		t.Fatalf("report %+v at t=%g, want %+v at t=2", d.Blocked, d.Time, want)
	}
	for _, s := range []string{"rank 0 in Recv peer 1 tag 4", "rank 1 in Recv from any source any tag"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message %q lacks %q", err, s)
		}
	}
}

// TestPanicBecomesError: a panic in rank 2 comes back as a *PanicError naming
// it while the other ranks are blocked or ready.
func TestPanicBecomesError(t *testing.T) {
	w, _ := NewWorld(preset(t, "cm02"), newCrossbar(4, 1e9, 1e-6), identity(4), 1)
	err := w.Run(func(r *Rank) {
		if r.ID() == 2 {
			r.Compute(1, "x")
			panic("boom")
		}
		r.World().Recv(AnySource, 0)
	})
	var p *PanicError
	if !errors.As(err, &p) || p.Rank != 2 || !strings.Contains(err.Error(), "rank 2 panicked: boom") {
		t.Fatalf("Run returned %v, want rank 2's panic", err)
	}
}

// TestMisuseBecomesError: sending to a rank out of range is reported as the
// rank's panic, not a crash.
func TestMisuseBecomesError(t *testing.T) {
	w, _ := NewWorld(preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	err := w.Run(func(r *Rank) {
		if r.ID() == 1 {
			r.World().Send(5, 0, Msg{})
		}
	})
	if err == nil || !strings.Contains(err.Error(), "rank 1") || !strings.Contains(err.Error(), "rank 5") {
		t.Fatalf("Run returned %v", err)
	}
}

// TestNoGoroutineLeak: after normal ends, deadlocks and panics, every rank
// goroutine has exited.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	mains := map[string]func(r *Rank){
		"ok":       func(r *Rank) { r.World().Barrier() },
		"deadlock": func(r *Rank) { r.World().Recv(AnySource, 0) },
		"panic": func(r *Rank) {
			if r.ID() == 7 {
				panic("x")
			}
			r.World().Barrier()
		},
		"deferred-mpi": func(r *Rank) {
			defer func() { recover() }()
			r.World().Recv(AnySource, 0)
		},
	}
	for name, main := range mains {
		w, _ := NewWorld(preset(t, "cm02"), newCrossbar(16, 1e9, 1e-6), identity(16), 1)
		err := w.Run(main)
		if (err == nil) != (name == "ok") {
			t.Errorf("%s: Run returned %v", name, err)
		}
	}
	// Exited goroutines are reaped asynchronously: allow the runtime a moment.
	for i := 0; i < 100 && runtime.NumGoroutine() > before; i++ {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines before, %d after", before, n)
	}
}

// TestSimultaneousWakeUpsInRankOrder: four ranks sleep until the same
// instant; they run in rank order whatever order they went to sleep in.
func TestSimultaneousWakeUpsInRankOrder(t *testing.T) {
	var order []int
	run(t, preset(t, "cm02"), newCrossbar(4, 1e9, 1e-6), 4, func(r *Rank) {
		r.Compute(float64(4-r.ID()), "a") // wake at 4, 3, 2, 1
		r.Compute(float64(r.ID()+1), "b") // ... all next wake at 5
		order = append(order, r.ID())
	})
	if fmt.Sprint(order) != "[0 1 2 3]" {
		t.Fatalf("order %v, want [0 1 2 3]", order)
	}
}

// TestWaitanyTestany: rank 0 posts receives from ranks 1..3, which send at
// t = 3, 1, 2 ms; Waitany returns them in arrival order, Testany finds
// nothing before the first arrival and charges its cost.
func TestWaitanyTestany(t *testing.T) {
	cfg := preset(t, "cm02")
	cfg.TestCost = 1e-4
	var got []int
	var ok0 bool
	var tAfterTest float64
	run(t, cfg, newCrossbar(4, 1e9, 1e-6), 4, func(r *Rank) {
		c := r.World()
		if r.ID() > 0 {
			r.Compute([]float64{0, 3e-3, 1e-3, 2e-3}[r.ID()], "w")
			c.Send(0, 0, Msg{Data: []float64{float64(r.ID())}})
			return
		}
		reqs := []*Request{c.Irecv(1, 0), c.Irecv(2, 0), c.Irecv(3, 0)}
		_, ok0, _, _ = Testany(reqs)
		tAfterTest = r.Now()
		for k := 0; k < 3; k++ {
			i, m, st := Waitany(reqs)
			if reqs[i] != nil || st.Source != i+1 || int(m.Data[0]) != i+1 {
				t.Errorf("Waitany gave index %d, status %+v", i, st)
			}
			got = append(got, i)
		}
		if i, _, _ := Waitany(reqs); i != -1 {
			t.Errorf("Waitany on all-nil requests gave %d, want -1", i)
		}
		if i, ok, _, _ := Testany(reqs); i != -1 || !ok {
			t.Errorf("Testany on all-nil requests gave %d, %v", i, ok)
		}
	})
	if ok0 || tAfterTest != 1e-4 {
		t.Errorf("first Testany: ok=%v at t=%g, want false at 1e-4", ok0, tAfterTest)
	}
	if fmt.Sprint(got) != "[1 2 0]" {
		t.Fatalf("Waitany order %v, want [1 2 0]", got)
	}
}

// TestWaitallOrder: rank 0 waits on two eager receives, from rank 1 (sent
// after 3 ms of work) and from rank 2 (sent at once), with a 1 ms receive
// overhead (smpi/or, charged when a completion is taken). In rank order
// Waitall takes them one after the other: rank 1's message, then its
// overhead, then rank 2's, at arrival + 2 ms. Under WakeSimGrid it is
// SMPI's waitall, a loop of waitany: rank 2's message is taken (and its
// overhead paid) while rank 1 computes, so the call ends 1 ms sooner.
// Both arrivals are the same in either order (no shared link), so the
// difference is exactly one overhead; took sees the completion order.
func TestWaitallOrder(t *testing.T) {
	const or = 1e-3
	ends := map[bool]float64{}
	for _, tc := range []struct {
		simgrid bool
		took    string
	}{{false, "[0 1]"}, {true, "[1 0]"}} {
		cfg := preset(t, "cm02")
		cfg.RecvOverhead = ConstTable(or)
		if tc.simgrid {
			cfg.WakeOrder = WakeSimGrid
		}
		var took []int
		var arrived, end float64
		run(t, cfg, newCrossbar(3, 1e9, 1e-6), 3, func(r *Rank) {
			c := r.World()
			switch r.ID() {
			case 0:
				reqs := []*Request{c.Irecv(1, 0), c.Irecv(2, 0)}
				WaitallFunc(reqs, func(i int) {
					took = append(took, i)
					if i == 0 {
						arrived = r.Now()
					}
				})
				end = r.Now()
				if reqs[0] == nil || reqs[1] == nil {
					t.Errorf("simgrid=%v: WaitallFunc cleared the caller's requests", tc.simgrid)
				}
			case 1:
				r.Compute(3e-3, "k")
				c.Send(0, 0, Msg{Bytes: 8})
			default:
				c.Send(0, 0, Msg{Bytes: 8})
			}
		})
		if fmt.Sprint(took) != tc.took {
			t.Errorf("simgrid=%v: took %v, want %s", tc.simgrid, took, tc.took)
		}
		if arrived < 3e-3 {
			t.Fatalf("simgrid=%v: rank 1's message taken at %g, before it was sent", tc.simgrid, arrived)
		}
		ends[tc.simgrid] = end
	}
	if d := ends[false] - ends[true]; math.Abs(d-or) > 1e-15 {
		t.Errorf("Waitall ends at %v in rank order, %v under WakeSimGrid: %g apart, want one overhead (%g)", ends[false], ends[true], d, or)
	}
}

// TestIprobeCostGrowth: SimGrid charges IprobeCost·n before each probe, n a
// simulation-wide counter that grows on failure and resets on success. A
// rank polling for a message sent at t = 1 ms with cost 1e-4 s probes at
// (cumulative) 1e-4·(1+2+...+k): 1e-4, 3e-4, 6e-4, 1e-3 (found? the send is
// posted at exactly 1e-3, the probe at 1e-3 runs after the sender, being a
// higher rank woken at the same instant → found at the 4th probe).
func TestIprobeCostGrowth(t *testing.T) {
	for _, tc := range []struct {
		name     string
		noGrowth bool
		cost     float64
		want     []float64 // times at which the probes return
	}{
		{"growing", false, 1e-4, []float64{1e-4, 3e-4, 6e-4, 1e-3}},
		{"flat", true, 1e-4, []float64{1e-4, 2e-4, 3e-4, 4e-4, 5e-4, 6e-4, 7e-4, 8e-4, 9e-4, 1e-3}},
		{"free", false, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := preset(t, "cm02")
			cfg.IprobeCost, cfg.NoGrowth = tc.cost, tc.noGrowth
			var times []float64
			var polls int
			w := run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
				c := r.World()
				if r.ID() == 0 {
					r.Compute(1e-3, "w")
					c.Send(1, 3, Msg{Bytes: 8})
					return
				}
				for {
					polls++
					ok, st := c.Iprobe(0, AnyTag)
					if tc.cost > 0 {
						times = append(times, r.Now())
					}
					if ok {
						if st.Tag != 3 || st.Bytes != 8 {
							t.Errorf("status %+v", st)
						}
						break
					}
					if tc.cost == 0 {
						r.Compute(1e-4, "poll")
					}
				}
				c.Recv(0, 3)
			})
			if tc.cost == 0 {
				if polls != 11 {
					t.Errorf("free probes: %d polls, want 11", polls)
				}
				return
			}
			if len(times) != len(tc.want) {
				t.Fatalf("probes at %v, want %v", times, tc.want)
			}
			for i := range times {
				if !near(times[i], tc.want[i]) {
					t.Fatalf("probes at %v, want %v", times, tc.want)
				}
			}
			if w.iprobeN != 1 {
				t.Errorf("counter %d after a success, want 1", w.iprobeN)
			}
		})
	}
}

// TestProbeBlocks: with a zero Iprobe cost, Probe waits for the send without
// spinning and reports its status; Recv then takes the message.
func TestProbeBlocks(t *testing.T) {
	cfg := preset(t, "cm02")
	cfg.IprobeCost = 0
	run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		c := r.World()
		if r.ID() == 0 {
			r.Compute(5e-3, "w")
			c.Send(1, 2, Msg{Bytes: 80})
			return
		}
		st := c.Probe(AnySource, AnyTag)
		if st.Source != 0 || st.Tag != 2 || st.Bytes != 80 || r.Now() != 5e-3 {
			t.Errorf("Probe: %+v at %g", st, r.Now())
		}
		c.Recv(st.Source, st.Tag)
	})
}

// TestDeterministicEvents: the same program twice gives the same hook
// event sequence, bit for bit.
func TestDeterministicEvents(t *testing.T) {
	trace := func() string {
		var b strings.Builder
		w, _ := NewWorld(preset(t, "smpi"), newCrossbar(8, 1e9, 1e-6), identity(8), 42)
		w.AddHook(func(e *Event) {
			fmt.Fprintf(&b, "%v %d %d %d %d %.17g %.17g\n", e.Kind, e.Rank, e.Peer, e.MsgID, e.Bytes, e.Time, e.Transfer)
		})
		err := w.Run(func(r *Rank) {
			c := r.World()
			rng := r.Rand()
			for i := 0; i < 20; i++ {
				dst := rng.IntN(8)
				c.Isend(dst, 1, Msg{Bytes: rng.IntN(200000)})
			}
			c.Barrier()
			for {
				ok, st := c.Iprobe(AnySource, 1)
				if !ok {
					break
				}
				c.Recv(st.Source, st.Tag)
			}
			c.Allreduce(Msg{Data: []float64{float64(r.ID())}}, Sum)
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a, b := trace(), trace()
	if a != b || len(a) == 0 {
		t.Fatalf("traces differ or are empty (%d and %d bytes)", len(a), len(b))
	}
}

// TestFreePollingLetsTimePass: with zero Iprobe and Test costs a spin loop
// cannot advance time by itself; the rank is parked after spinLimit failed
// polls and released when the others are blocked and the next instant's
// events have fired, so the message sent at t = 1 ms is found at 1 ms.
// A spin with nothing left to happen is a deadlock naming the call.
func TestFreePollingLetsTimePass(t *testing.T) {
	cfg := preset(t, "cm02")
	cfg.IprobeCost, cfg.TestCost = 0, 0
	var foundAt, testAt float64
	run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		c := r.World()
		if r.ID() == 0 {
			r.Compute(1e-3, "w")
			c.Send(1, 0, Msg{Bytes: 8})
			c.Send(1, 1, Msg{Bytes: 8})
			return
		}
		for {
			if ok, _ := c.Iprobe(0, 0); ok {
				break
			}
		}
		foundAt = r.Now()
		c.Recv(0, 0)
		q := c.Irecv(0, 1)
		for {
			if ok, _, _ := q.Test(); ok {
				break
			}
		}
		testAt = r.Now()
	})
	if foundAt != 1e-3 {
		t.Errorf("Iprobe spin found the message at %g, want 1e-3", foundAt)
	}
	if want := 1e-3 + 2e-6 + 24/1e9 + 2e-6 + 24/1e9; !(testAt >= 1e-3 && testAt <= want) {
		t.Errorf("Test spin completed at %g", testAt)
	}

	w, _ := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	err := w.Run(func(r *Rank) {
		for {
			if ok, _ := r.World().Iprobe(AnySource, 5); ok {
				return
			}
		}
	})
	var d *DeadlockError
	if !errors.As(err, &d) || len(d.Blocked) != 2 || d.Blocked[0].Call != "Iprobe" || d.Blocked[1].Tag != 5 {
		t.Fatalf("spinning on nothing: %v", err)
	}
}

// TestGoexitInRankIsAnError: a rank leaving through runtime.Goexit (what
// t.FailNow does) ends the run with an error naming it, not a silent nil.
func TestGoexitInRankIsAnError(t *testing.T) {
	w, _ := NewWorld(preset(t, "cm02"), newCrossbar(3, 1e9, 1e-6), identity(3), 1)
	err := w.Run(func(r *Rank) {
		if r.ID() == 1 {
			runtime.Goexit()
		}
		r.World().Barrier()
	})
	var p *PanicError
	if !errors.As(err, &p) || p.Rank != 1 {
		t.Fatalf("Run returned %v, want rank 1's exit", err)
	}
}

// TestWakeOrderFIFO: rank 0 goes to sleep for t = 1 after ranks 1..3 did
// (it first sleeps until 0.5). All wake at t = 1: in rank order by
// default, in the order they were queued (1, 2, 3, 0) with WakeFIFO.
func TestWakeOrderFIFO(t *testing.T) {
	for _, tc := range []struct {
		fifo bool
		want string
	}{{false, "[0 1 2 3]"}, {true, "[1 2 3 0]"}} {
		cfg := preset(t, "cm02")
		if tc.fifo {
			cfg.WakeOrder = WakeFIFO
		}
		var order []int
		w, _ := NewWorld(cfg, newCrossbar(4, 1e9, 1e-6), identity(4), 1)
		err := w.Run(func(r *Rank) {
			if r.ID() == 0 {
				r.Compute(0.5, "a")
				r.Compute(0.5, "b")
			} else {
				r.Compute(1, "a")
			}
			order = append(order, r.ID())
		})
		if err != nil || fmt.Sprint(order) != tc.want {
			t.Errorf("fifo=%v: order %v (%v), want %s", tc.fifo, order, err, tc.want)
		}
	}
}

// TestSimGridOrderProbeCounter: rank 0 probes for a message that never comes
// while rank 1 computes for as long as that first probe costs (1 s), then
// probes too. In SMPI 3.32 both finish at t = 1; rank 1's execution started
// one simcall earlier (an Iprobe's execution has set_bound before start), so
// the CPU model hands it back first, and rank 1 reads the shared counter
// (1) before rank 0's failed probe raises it (after its mailbox probe is
// answered, one sub-round later): rank 1's probe ends at t = 2. Rank order
// and plain FIFO both let rank 0 raise the counter first (t = 3).
func TestSimGridOrderProbeCounter(t *testing.T) {
	for _, tc := range []struct {
		simgrid, fifo bool
		want          float64
	}{{false, false, 3}, {false, true, 3}, {true, false, 2}} {
		cfg := preset(t, "cm02")
		cfg.IprobeCost = 1
		switch {
		case tc.simgrid:
			cfg.WakeOrder = WakeSimGrid
		case tc.fifo:
			cfg.WakeOrder = WakeFIFO
		}
		w, _ := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
		var end float64
		err := w.Run(func(r *Rank) {
			if r.ID() == 0 {
				r.World().Iprobe(1, 5)
				return
			}
			r.Compute(1, "k")
			r.World().Iprobe(0, 5)
			end = r.Now()
		})
		if err != nil || end != tc.want {
			t.Errorf("simgrid=%v fifo=%v: rank 1's probe ends at %v (%v), want %v", tc.simgrid, tc.fifo, end, err, tc.want)
		}
	}
}

// TestSimGridOrderInstant: under SimGridOrder, events less than
// SimGridPrecision apart are one instant at the first one's time, and a rank
// woken by a timer runs before one woken by a message at that instant.
// Rank 1 receives a message from rank 0 (sent at 0 over a 1 µs latency,
// 8 bytes at 1e9 B/s with 16 bytes of envelope: it lands at 1.024e-6 s);
// rank 2 computes until 0.4 ns later. Both wake at 1.024e-6 s: rank 2 first.
func TestSimGridOrderInstant(t *testing.T) {
	for _, tc := range []struct {
		simgrid bool
		want    string
	}{{false, "[1@1.024e-06 2@1.0244e-06]"}, {true, "[2@1.024e-06 1@1.024e-06]"}} {
		cfg := preset(t, "cm02")
		if tc.simgrid {
			cfg.WakeOrder = WakeSimGrid
		}
		w, _ := NewWorld(cfg, newCrossbar(3, 1e9, 0.5e-6), identity(3), 1)
		var order []string
		arrive := 1e-6 + 24/1e9
		err := w.Run(func(r *Rank) {
			switch r.ID() {
			case 0:
				r.World().Send(1, 0, Msg{Bytes: 8})
				return
			case 1:
				r.World().Recv(0, 0)
			case 2:
				r.Compute(arrive+0.4e-9, "k")
			}
			order = append(order, fmt.Sprintf("%d@%.5g", r.ID(), r.Now()))
		})
		if err != nil || fmt.Sprint(order) != tc.want {
			t.Errorf("simgrid=%v: %v (%v), want %s", tc.simgrid, order, err, tc.want)
		}
	}
}
