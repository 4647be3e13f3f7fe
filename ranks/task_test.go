package ranks

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// ringRoll is HPL's long-broadcast roll as an Exchanger: at step k a rank
// swaps a piece with its ring neighbour, alternating direction. pieces[p]
// is piece p's size in bytes; a piece of 0 bytes is not sent (Nobody), on
// both sides.
type ringRoll struct {
	me, n  int
	pieces []int
	got    []float64
}

// sides returns the pieces step k sends and receives, and the partner.
func (x *ringRoll) sides(k int) (sp, rp, partner int) {
	l := k >> 1
	if (x.me+k)&1 != 0 {
		return (x.me + l) % x.n, ((x.me-l-1)%x.n + x.n) % x.n, (x.me + x.n - 1) % x.n
	}
	return ((x.me-l)%x.n + x.n) % x.n, (x.me + l + 1) % x.n, (x.me + 1) % x.n
}

func (x *ringRoll) Exchange(k int) (int, Msg, int) {
	sp, rp, p := x.sides(k)
	dst, src := p, p
	if x.pieces[sp] == 0 {
		dst = Nobody
	}
	if x.pieces[rp] == 0 {
		src = Nobody
	}
	return dst, Msg{Bytes: x.pieces[sp], Data: []float64{float64(x.me*1000 + k)}}, src
}

func (x *ringRoll) Received(k int, m Msg) { x.got = append(x.got, m.Data...) }

// cube is a hypercube exchange (HPL's pivot search) among the first 2^d
// ranks: step k with the rank 2^k away, pieces[k] bytes each way (none if 0).
type cube struct {
	ringRoll
}

func (x *cube) Exchange(k int) (int, Msg, int) {
	p := x.me ^ (1 << k)
	if x.pieces[k] == 0 {
		return Nobody, Msg{}, Nobody
	}
	return p, Msg{Bytes: x.pieces[k], Data: []float64{float64(x.me*1000 + k)}}, p
}

// hop is a ring broadcast's receive and forward (RecvSend): rank me takes
// the message from me−1 and, unless it is the last, sends it on to me+1.
type hop struct {
	me, n, bytes int
	got          []float64
}

func (h *hop) Exchange(k int) (int, Msg, int) {
	switch {
	case k == 0:
		return Nobody, Msg{}, h.me - 1
	case h.me+1 == h.n:
		return Nobody, Msg{}, Nobody
	}
	return h.me + 1, Msg{Bytes: h.bytes, Data: h.got[len(h.got)-1:]}, Nobody
}

func (h *hop) Received(_ int, m Msg) { h.got = append(h.got, m.Data...) }

// TestTasksMatchBlockingCalls runs random programs of rolls (Exchanges),
// hypercube exchanges (SendRecvs) and ring broadcasts (RecvSend), with
// compute between them, once as tasks
// and once written out as the blocking calls they stand for, on random
// topologies, models and wake orders, and wants the same hook events in the
// same order at the same times, the same data received and the same end,
// to the bit. Tasks run without the rank's coroutine; under SimGrid's wake
// order (a third of the seeds) they give up the rank's turn at each of the
// simcalls a post or a sleep pays (turnStep), and so do the Computes'
// sleeps (sleeping), which the blocking runs pay on the coroutine
// (World.sleepInline); the cases with overheads
// check the tasks' sleeps (sleepStep), with the clock's jumps or, with
// noSkip, every sleep through a timer.
func TestTasksMatchBlockingCalls(t *testing.T) {
	for seed := uint64(1); seed <= 120; seed++ {
		sameEvents(t, seed, "tasks", runTaskProgram(t, seed, true, taskOpts{}), "blocking calls", runTaskProgram(t, seed, false, taskOpts{}))
	}
}

// TestSkippedStepsMatch runs random programs whose pieces are mostly empty
// as tasks whose Exchangers are StepSkippers, and as the blocking calls,
// and wants the same hook events, data and end, to the bit: an empty step
// skipped (NextStep) is one nothing sees. Some answers of NextStep skip only
// part of the empty steps ahead, as the contract allows; Exchange is never
// asked about a step NextStep said is empty.
func TestSkippedStepsMatch(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		sameEvents(t, seed, "skipping tasks", runTaskProgram(t, seed, true, taskOpts{skip: true, sparse: true}),
			"blocking calls", runTaskProgram(t, seed, false, taskOpts{sparse: true}))
		sameEvents(t, seed, "skipping tasks", runTaskProgram(t, seed, true, taskOpts{skip: true, sparse: true}),
			"tasks", runTaskProgram(t, seed, true, taskOpts{sparse: true}))
	}
}

// taskOpts varies runTaskProgram: skip gives the tasks StepSkippers, sparse
// makes most pieces empty.
type taskOpts struct{ skip, sparse bool }

// skipper is an Exchanger as a StepSkipper: step k is empty when Exchange
// gives Nobody both ways (asked of a copy, so that e's calls are only the
// ones Exchanges makes). Every third answer stops halfway through the
// empty steps ahead. It fails t when Exchange is asked about a step its
// last answer skipped.
type skipper struct {
	t        *testing.T
	e, probe Exchanger
	n, me    int
	next     int // NextStep's last answer
}

func (x *skipper) NextStep(k int) int {
	j := k
	for j < x.n {
		if dst, _, src := x.probe.Exchange(j); dst != Nobody || src != Nobody {
			break
		}
		j++
	}
	if (k+x.me)%3 == 0 {
		j = k + (j-k)/2
	}
	x.next = j
	return j
}

func (x *skipper) Exchange(k int) (int, Msg, int) {
	if k < x.next {
		x.t.Errorf("rank %d: Exchange(%d) after NextStep said steps up to %d are empty", x.me, k, x.next)
	}
	return x.e.Exchange(k)
}

func (x *skipper) Received(k int, m Msg) { x.e.Received(k, m) }

// sameEvents fails the test at the first event where two runs' hook logs
// (one event a line) differ, or where one log is longer.
func sameEvents(t *testing.T, seed uint64, nameA, logA, nameB, logB string) {
	t.Helper()
	if logA == logB {
		return
	}
	a, b := strings.Split(logA, "\n"), strings.Split(logB, "\n")
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("seed %d: first difference at event %d:\n %s: %s\n %s: %s", seed, i, nameA, a[i], nameB, b[i])
		}
	}
	t.Fatalf("seed %d: %d events with %s, %d with %s", seed, len(a), nameA, len(b), nameB)
}

func runTaskProgram(t *testing.T, seed uint64, tasks bool, opt taskOpts) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	n := 2 + rng.IntN(30)
	cfg := preset(t, []string{"cm02", "smpi"}[rng.IntN(2)])
	// A third of the seeds under SimGrid's order, whose simcalls give up a
	// rank's turn inside a task's posts and sleeps, with every overhead case.
	cfg.WakeOrder = []WakeOrder{WakeRank, WakeFIFO, WakeSimGrid}[rng.IntN(3)]
	noSkip := false
	switch seed % 8 {
	case 2: // SMPI-like piecewise overheads, as on Dahu: tasks sleep through them
		cfg.SendOverhead = MustParseTable("0:3e-7:1e-10;8133:4e-6:1e-10;65536:0")
		cfg.IsendOverhead = MustParseTable("0:1e-6:1e-10;8133:2e-6")
		cfg.RecvOverhead = MustParseTable("0:5e-7:2e-10;15831:3e-6")
	case 4:
		cfg.IsendOverhead = ConstTable(2e-6)
		cfg.RecvOverhead = ConstTable(1e-6)
	case 6: // overheads, and every sleep through a timer
		cfg.SendOverhead = ConstTable(1e-6)
		cfg.RecvOverhead = ConstTable(1e-6)
		noSkip = true
	}
	// Half the seeds move small messages before their receive is posted
	// (true eager), so that a receive may be complete when it is waited
	// for: a simcall the rank owes at its receive overhead's sleep.
	cfg.AsyncThreshold = []int{0, cfg.EagerThreshold}[rng.IntN(2)]
	var topo fluid.Topology = newCrossbar(n, 1e9, 1e-6)
	if rng.IntN(2) == 0 {
		ft, err := fluid.NewFatTree(fluid.FatTreeConfig{Levels: 2, Down: []int{4, (n + 3) / 4}, Up: []int{1, 2}, Parallel: []int{1, 1},
			Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
		if err != nil {
			t.Fatal(err)
		}
		topo = ft
	}
	sizes := []int{0, 8, 4000, 70000, 1 << 20}
	if opt.sparse {
		sizes = []int{0, 0, 0, 0, 0, 0, 0, 8, 4000, 70000}
	}
	type phase struct {
		roll    bool
		ring    bool // a ring broadcast from rank 0 of pieces[0] bytes
		steps   int
		pieces  []int // roll: per piece; cube: per step
		compute []float64
	}
	phases := make([]phase, 1+rng.IntN(4))
	ip2 := 1
	for ip2*2 <= n {
		ip2 *= 2
	}
	for i := range phases {
		p := &phases[i]
		p.roll = rng.IntN(2) == 0
		p.ring = !p.roll && rng.IntN(3) == 0
		if p.roll {
			p.steps = n - 1
		} else {
			for d := 1; d < ip2; d *= 2 {
				p.steps++
			}
		}
		// Half the phases skew the ranks by more than a small message
		// takes, so that one may be in before its receive is waited for.
		skew := []float64{1e-6, 2e-5}[rng.IntN(2)]
		for range n {
			p.pieces = append(p.pieces, sizes[rng.IntN(len(sizes))])
			p.compute = append(p.compute, float64(rng.IntN(3))*skew)
		}
	}
	w, err := NewWorld(cfg, topo, identity(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	w.noSkip = noSkip
	w.sleepInline = !tasks // the reference: every sleep's turns on the coroutine
	var b strings.Builder
	w.AddHook(func(e *Event) {
		fmt.Fprintf(&b, "%v r%d p%d t%d %dB id%d/%d %s %.17g\n", e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.MsgID, e.RecvID, e.Kernel, e.Time)
	})
	got := make([][]float64, n)
	err = w.Run(func(r *Rank) {
		c := r.World()
		me := c.Rank()
		for _, p := range phases {
			r.Compute(p.compute[me], "work")
			x := &ringRoll{me: me, n: n, pieces: p.pieces}
			switch {
			case p.ring && me == 0:
				c.Send(1, 9, Msg{Bytes: p.pieces[0], Data: []float64{float64(1000 * len(got[0]))}})
				got[0] = append(got[0], 0)
			case p.ring && tasks:
				h := &hop{me: me, n: n, bytes: p.pieces[0], got: got[me]}
				c.RecvSend(9, h)
				got[me] = h.got
			case p.ring:
				in, _ := c.Recv(me-1, 9)
				got[me] = append(got[me], in.Data...)
				if me+1 < n {
					c.Send(me+1, 9, Msg{Bytes: p.pieces[0], Data: got[me][len(got[me])-1:]})
				}
			case p.roll && tasks && opt.skip:
				c.Exchanges(p.steps, 3, &skipper{t: t, e: x, probe: &ringRoll{me: me, n: n, pieces: p.pieces}, n: p.steps, me: me})
			case p.roll && tasks:
				c.Exchanges(p.steps, 3, x)
			case p.roll:
				for k := range p.steps {
					dst, m, src := x.Exchange(k)
					var s *Request
					if dst != Nobody {
						s = c.Issend(dst, 3, m)
					}
					if src != Nobody {
						in, _ := c.Recv(src, 3)
						x.Received(k, in)
					}
					if s != nil {
						s.Wait()
						s.Free()
					}
				}
			case me >= ip2:
			case tasks:
				y := &cube{*x}
				var ex Exchanger = y
				if opt.skip {
					ex = &skipper{t: t, e: y, probe: &cube{ringRoll{me: me, n: n, pieces: p.pieces}}, n: p.steps, me: me}
				}
				c.SendRecvs(p.steps, 5, ex)
				got[me] = append(got[me], y.got...)
				continue
			default:
				y := &cube{*x}
				for k := range p.steps {
					dst, m, src := y.Exchange(k)
					var q *Request
					if src != Nobody {
						q = c.Irecv(src, 5)
					}
					if dst != Nobody {
						c.Send(dst, 5, m)
					}
					if q != nil {
						in, _ := q.Wait()
						q.Free()
						y.Received(k, in)
					}
				}
				got[me] = append(got[me], y.got...)
				continue
			}
			got[me] = append(got[me], x.got...)
		}
	})
	if err != nil {
		t.Fatalf("seed %d (tasks %v): %v", seed, tasks, err)
	}
	fmt.Fprintf(&b, "end %.17g\nreceived %v\n", w.End(), got)
	return b.String()
}

// panicky panics when it receives its last step's message.
type panicky struct{ ringRoll }

func (x *panicky) Received(k int, m Msg) {
	if k == x.n-2 {
		panic("bad piece")
	}
}

// TestTaskErrorsNameTheirRank: a deadlock inside a task reports the rank
// blocked in it, under the task's call, waiting for its partner; a panic in
// an Exchanger's method is reported as the panic of the task's rank, even
// when another rank's scheduling loop was advancing the task.
func TestTaskErrorsNameTheirRank(t *testing.T) {
	w, err := NewWorld(preset(t, "cm02"), newCrossbar(3, 1e9, 1e-6), identity(3), 1)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Run(func(r *Rank) {
		if r.ID() == 0 { // rank 1 never answers
			r.World().Exchanges(2, 1, &ringRoll{me: 0, n: 2, pieces: []int{8, 8}})
		}
	})
	var d *DeadlockError
	if !errors.As(err, &d) || len(d.Blocked) != 1 || d.Blocked[0] != (BlockedRank{Rank: 0, Call: "Exchanges", Peer: 1, Tag: 1}) {
		t.Errorf("deadlock in a task: got %v, want rank 0 blocked in Exchanges on rank 1, tag 1", err)
	}

	for _, n := range []int{2, 8} {
		w, err := NewWorld(preset(t, "cm02"), newCrossbar(n, 1e9, 1e-6), identity(n), 1)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Run(func(r *Rank) {
			c := r.World()
			pieces := make([]int, n)
			for i := range pieces {
				pieces[i] = 8
			}
			var x Exchanger = &ringRoll{me: c.Rank(), n: n, pieces: pieces}
			if c.Rank() == n-1 {
				x = &panicky{ringRoll{me: c.Rank(), n: n, pieces: pieces}}
			}
			c.Exchanges(n-1, 1, x)
		})
		var p *PanicError
		if !errors.As(err, &p) || p.Rank != n-1 || p.Value != "bad piece" {
			t.Errorf("%d ranks, a panic in rank %d's task: got %v", n, n-1, err)
		}
	}
}

// varied is an Exchanger whose step k sends a payload of k%7*13+1 doubles
// that name the sender and the step, and checks what it receives.
type varied struct {
	me, n int
	t     *testing.T
}

func payload(from, k int) []float64 {
	d := make([]float64, k%7*13+1)
	for i := range d {
		d[i] = float64(from*1e6 + k*1e3 + i)
	}
	return d
}

func (x *varied) Exchange(k int) (int, Msg, int) {
	return (x.me + 1) % x.n, Msg{Data: payload(x.me, k)}, (x.me + x.n - 1) % x.n
}

func (x *varied) Received(k int, m Msg) {
	if want := payload((x.me+x.n-1)%x.n, k); !slices.Equal(m.Data, want) {
		x.t.Errorf("rank %d step %d received %v, want %v", x.me, k, m.Data, want)
	}
}

// TestExchangesReusePayloads: the arrays of payloads an Exchanger has
// consumed carry later messages (the World's pool fills), every step
// still receives exactly what was sent, and a payload received by a plain
// Recv, which the rank keeps, is never reused.
func TestExchangesReusePayloads(t *testing.T) {
	const n = 4
	w, err := NewWorld(preset(t, "cm02"), newCrossbar(n, 1e9, 1e-6), identity(n), 1)
	if err != nil {
		t.Fatal(err)
	}
	kept := make([][]float64, n)
	err = w.Run(func(r *Rank) {
		c := r.World()
		me := c.Rank()
		c.Send((me+1)%n, 1, Msg{Data: payload(me, 99)})
		m, _ := c.Recv((me+n-1)%n, 1)
		kept[me] = m.Data
		for range 3 {
			c.Exchanges(20, 2, &varied{me: me, n: n, t: t})
			c.SendRecvs(20, 3, &varied{me: me, n: n, t: t})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for me, m := range kept {
		if want := payload((me+n-1)%n, 99); !slices.Equal(m, want) {
			t.Errorf("rank %d: the payload it kept became %v, want %v", me, m, want)
		}
	}
	pooled := 0
	for _, free := range w.freeData {
		pooled += len(free)
	}
	if pooled == 0 {
		t.Error("no consumed payload came back to the pool")
	}
}

// blockingProbe is Comm.Probe with a positive IprobeCost as it was before its
// loop became a task (probing): Iprobes on the rank's coroutine.
func blockingProbe(c *Comm, src, tag int) Status {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Probe"))
	for {
		if ok, st := c.Iprobe(src, tag); ok {
			return st
		}
	}
}

// TestProbeTaskMatchesIprobeLoop runs random programs of sends, probes and
// receives with a positive Iprobe cost, once with Comm.Probe (its Iprobes a
// task) and once with the Iprobe loop it stands for on the coroutine
// (blockingProbe) and every sleep's owed turns paid on the coroutine
// (World.sleepInline), under random wake orders, overheads, simulation-wide or
// per-rank counters, with and without timers for every sleep, and with free
// probes (a cost the clock cannot count at 1e10 s, where the rank spins and is
// parked), and wants the same hook events in the same order at the same times
// and the same end, to the bit.
func TestProbeTaskMatchesIprobeLoop(t *testing.T) {
	for seed := uint64(1); seed <= 90; seed++ {
		sameEvents(t, seed, "task", runProbeProgram(t, seed, true), "loop", runProbeProgram(t, seed, false))
	}
}

func runProbeProgram(t *testing.T, seed uint64, task bool) string {
	rng := rand.New(rand.NewPCG(seed, 11))
	n := 2 + rng.IntN(12)
	cfg := preset(t, []string{"cm02", "smpi"}[rng.IntN(2)])
	cfg.WakeOrder = []WakeOrder{WakeRank, WakeFIFO, WakeSimGrid}[rng.IntN(3)]
	cfg.IprobeCost = []float64{1e-7, 1e-6, 2.1e-7}[rng.IntN(3)]
	cfg.PerRankCounters = rng.IntN(3) == 0
	noSkip, start := false, 0.0
	switch seed % 6 {
	case 2:
		cfg.SendOverhead = MustParseTable("0:3e-7:1e-10;8133:4e-6:1e-10;65536:0")
		cfg.RecvOverhead = MustParseTable("0:5e-7:2e-10;15831:3e-6")
	case 3:
		noSkip = true
	case 5: // free probes (a cost below the clock's resolution at 1e10 s, not growing): ranks spin and park
		start, cfg.NoGrowth = 1e10, true
	}
	w, err := NewWorld(cfg, newCrossbar(n, 1e9, 1e-6), identity(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	w.noSkip = noSkip
	w.sleepInline = !task // the reference: every sleep's turns on the coroutine
	var b strings.Builder
	w.AddHook(func(e *Event) {
		fmt.Fprintf(&b, "%v r%d p%d t%d %dB id%d/%d %s %.17g\n", e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.MsgID, e.RecvID, e.Kernel, e.Time)
	})
	rounds := 1 + rng.IntN(4)
	compute := make([][]float64, n)
	sizes := make([][]int, n)
	anySrc := make([]bool, rounds)
	for me := range n {
		for range rounds {
			compute[me] = append(compute[me], float64(rng.IntN(40))*1e-6)
			sizes[me] = append(sizes[me], []int{8, 4000, 70000}[rng.IntN(3)])
		}
	}
	for k := range anySrc {
		anySrc[k] = rng.IntN(2) == 0
	}
	err = w.Run(func(r *Rank) {
		c := r.World()
		me := c.Rank()
		if start > 0 {
			r.Sleep(start)
		}
		for k := range rounds {
			// Rank me sends to me+1 after its compute and probes for the
			// message of me−1, then receives it.
			r.Compute(compute[me][k], "work")
			s := c.Isend((me+1)%n, k, Msg{Bytes: sizes[me][k]})
			src := (me + n - 1) % n
			if anySrc[k] {
				src = AnySource
			}
			var st Status
			if task {
				st = c.Probe(src, k)
			} else {
				st = blockingProbe(c, src, k)
			}
			if _, got := c.Recv(st.Source, st.Tag); got.Bytes != st.Bytes {
				panic(fmt.Sprintf("probed %d B, received %d B", st.Bytes, got.Bytes))
			}
			s.Wait()
		}
	})
	if err != nil {
		t.Fatalf("seed %d (task %v): %v", seed, task, err)
	}
	fmt.Fprintf(&b, "end %.17g\n", w.End())
	return b.String()
}

// badHop is a RecvSend Exchanger whose step 0 also sends.
type badHop struct{ hop }

func (h *badHop) Exchange(k int) (int, Msg, int) {
	_, m, src := h.hop.Exchange(k)
	return 0, m, src
}

// TestRecvSendErrors: a RecvSend whose sender never sends leaves its rank
// blocked in Recv, one whose next rank never receives in Send (a
// rendezvous message), each on its partner; a step 0 that also sends is
// the application's error, reported as its rank's panic.
func TestRecvSendErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		main    func(r *Rank)
		blocked BlockedRank
	}{
		{"no sender", func(r *Rank) {
			if r.ID() == 1 {
				r.World().RecvSend(4, &hop{me: 1, n: 3, bytes: 8})
			}
		}, BlockedRank{Rank: 1, Call: "Recv", Peer: 0, Tag: 4}},
		{"no receiver", func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 4, Msg{Bytes: 8, Data: []float64{1}})
			}
			if r.ID() == 1 {
				r.World().RecvSend(4, &hop{me: 1, n: 3, bytes: 1 << 20})
			}
		}, BlockedRank{Rank: 1, Call: "Send", Peer: 2, Tag: 4}},
	} {
		w, err := NewWorld(preset(t, "cm02"), newCrossbar(3, 1e9, 1e-6), identity(3), 1)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Run(c.main)
		var d *DeadlockError
		if !errors.As(err, &d) || len(d.Blocked) != 1 || d.Blocked[0] != c.blocked {
			t.Errorf("%s: got %v, want %+v", c.name, err, c.blocked)
		}
	}
	w, err := NewWorld(preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Run(func(r *Rank) {
		if r.ID() == 1 {
			r.World().RecvSend(4, &badHop{hop{me: 1, n: 2, bytes: 8}})
		}
	})
	var p *PanicError
	if !errors.As(err, &p) || p.Rank != 1 || !strings.Contains(fmt.Sprint(p.Value), "step 0 only receives") {
		t.Errorf("a RecvSend whose step 0 sends: got %v, want rank 1's panic", err)
	}
}

// farSides is an Exchanger whose step 0 names a rank beyond an int32.
type farSides struct{ hop }

func (h *farSides) Exchange(int) (int, Msg, int) { return Nobody, Msg{}, 1 << 40 }

// TestExchangesFarRank: a side beyond any communicator's size panics as
// checkRank does, not as the rank its low 32 bits name.
func TestExchangesFarRank(t *testing.T) {
	w, err := NewWorld(preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Run(func(r *Rank) {
		if r.ID() == 0 {
			r.World().Exchanges(1, 2, &farSides{})
		}
	})
	var p *PanicError
	if !errors.As(err, &p) || p.Rank != 0 || !strings.Contains(fmt.Sprint(p.Value), "receive to rank 1099511627776") {
		t.Errorf("a side of 2^40: got %v, want rank 0's panic naming it", err)
	}
}

// oneRecv is an Exchanger of one step, a receive from src.
type oneRecv struct{ src int }

func (x oneRecv) Exchange(int) (int, Msg, int) { return Nobody, Msg{}, x.src }
func (x oneRecv) Received(int, Msg)            {}

// sdrvRecv is oneRecv as HPL_sdrv's step: a BlockingReceiver.
type sdrvRecv struct{ oneRecv }

func (sdrvRecv) BlockingRecvs() {}

// TestSendRecvsBlockingReceiver: a SendRecvs step that only receives is an
// Irecv and its Wait, or for a BlockingReceiver (HPL_sdrv with nothing to
// send) a blocking Recv: the same events, calls and times as the calls
// written out, with overheads, a receive posted before and after its
// message is in, small and large messages, and through SendRecvsIprobe.
func TestSendRecvsBlockingReceiver(t *testing.T) {
	for _, bytes := range []int{8, 200000} {
		for _, late := range []bool{false, true} {
			for _, probe := range []bool{false, true} {
				for _, blocking := range []bool{false, true} {
					name := fmt.Sprintf("%dB/late=%v/probe=%v/blocking=%v", bytes, late, probe, blocking)
					run := func(task bool) string {
						cfg := DefaultConfig()
						cfg.SendOverhead = ConstTable(1e-6)
						cfg.RecvOverhead = ConstTable(2e-6)
						w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
						if err != nil {
							t.Fatal(err)
						}
						var b strings.Builder
						w.AddHook(func(e *Event) {
							fmt.Fprintf(&b, "%v r%d p%d t%d %dB %s %.17g\n", e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.Kernel, e.Time)
						})
						err = w.Run(func(r *Rank) {
							c := r.World()
							if c.Rank() == 0 {
								if late {
									r.Compute(1e-3, "work")
								}
								c.Send(1, 5, Msg{Bytes: bytes})
								return
							}
							if !late {
								r.Compute(1e-3, "work")
							}
							var ex Exchanger = oneRecv{0}
							if blocking {
								ex = sdrvRecv{oneRecv{0}}
							}
							switch {
							case task && probe:
								c.SendRecvsIprobe(0, 1, 5, ex, noWork{}, c, 0, 77)
							case task:
								c.SendRecvs(1, 5, ex)
							case blocking:
								c.Recv(0, 5)
							default:
								q := c.Irecv(0, 5)
								q.Wait()
								q.Free()
							}
							if !task && probe {
								c.Iprobe(0, 77)
							}
						})
						if err != nil {
							t.Fatal(err)
						}
						return b.String()
					}
					got, want := run(true), run(false)
					if got != want {
						t.Errorf("%s: SendRecvs\n%s\nthe calls\n%s", name, got, want)
					}
					call := "MPI_Irecv"
					if blocking {
						call = "MPI_Recv"
					}
					if !strings.Contains(got, "CallStart r1 p0 t0 0B "+call+" ") {
						t.Errorf("%s: no %s:\n%s", name, call, got)
					}
				}
			}
		}
	}
}

// noWork is a Worker that does nothing.
type noWork struct{}

func (noWork) Work(int) {}
