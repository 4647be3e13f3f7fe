package ranks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestProbeQueueMatchesEngineTimers runs random programs of probes in rank
// order — Probe loops, Iprobe loops between kernel calls, several ranks
// probing at once for the same or another source, messages of another tag
// waiting in the mailbox, a look for one tag just before a Probe for a
// message already there — once with every probe's cost a timer in the
// engine (the reference: probesAside off) and once with the probes' ends in
// the World's probe queue, failed probes of a Probe loop chained without
// their rank (chainProbe), and wants the same hook events in the same order
// at the same times, the same clock readings between calls, the same data,
// the same end and the same number of events fired, to the bit. Costs and
// kernels come from a few values so that probe ends tie with each other
// and with messages; some programs start at 1e10 s, where the first probes
// of a growing counter are free (the rank spins, then the counter makes them
// countable), some merge kernel sleeps, some take every sleep through a
// timer (noSkip), some count per rank or do not grow, some probe only what
// an earlier call of the rank progressed (ProbeAfterProgress). A third hear Stack,
// which turns chaining off, a third hear no MPI call, a sixth hear what
// observe's graph and trace hear (the compute events, no call, no Stack).
// It fails if the chain never ran.
func TestProbeQueueMatchesEngineTimers(t *testing.T) {
	var chained uint64
	for seed := uint64(1); seed <= 150; seed++ {
		ref, firedRef, _, _ := runProbeQueueProgram(t, seed, false, false)
		got, fired, c, dormed := runProbeQueueProgram(t, seed, true, false)
		sameEvents(t, seed, "probe queue", got, "engine timers", ref)
		if dormed == 0 && fired != firedRef || fired > firedRef {
			t.Fatalf("seed %d: %d events fired with the probe queue, %d with engine timers", seed, fired, firedRef)
		}
		chained += c
	}
	if chained < 1000 {
		t.Errorf("%d probes chained in 150 programs: chainProbe hardly ran", chained)
	}
}

// runProbeQueueProgram runs seed's program, with the probes' ends in the
// probe queue (aside) or in the engine, and with the counters' growth off
// if noGrowth (else as drawn). It returns the hook events, clock readings
// and data, the events fired, the probes chained and those made dormant.
func runProbeQueueProgram(t *testing.T, seed uint64, aside, noGrowth bool) (string, uint64, uint64, uint64) {
	rng := rand.New(rand.NewPCG(seed, 23))
	n := 2 + rng.IntN(14)
	cfg := preset(t, []string{"cm02", "smpi"}[rng.IntN(2)])
	cfg.IprobeCost = []float64{1e-7, 2.1e-7, 1e-6}[rng.IntN(3)]
	cfg.PerRankCounters = rng.IntN(6) == 0
	cfg.NoGrowth = rng.IntN(8) == 0
	cfg.ProbeAfterProgress = rng.IntN(3) == 0 // an Iprobe sees what its rank's calls have progressed: callDepth counts
	cfg.NoGrowth = cfg.NoGrowth || noGrowth
	noSkip, start := false, 0.0
	switch seed % 7 {
	case 2:
		cfg.SendOverhead = MustParseTable("0:3e-7:1e-10;8133:4e-6:1e-10;65536:0")
		cfg.RecvOverhead = MustParseTable("0:5e-7:2e-10;15831:3e-6")
	case 3:
		noSkip = true
	case 5: // free probes: 1e-13·n vanishes at 1e4 s while n < 10, and n goes back to 1
		start, cfg.NoGrowth, cfg.IprobeCost = 1e4, false, 1e-13
	}
	w, err := NewWorld(cfg, newCrossbar(n, 1e9, 1e-6), identity(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	w.probesAside = aside
	w.noSkip = noSkip
	if rng.IntN(2) == 0 {
		w.MergeKernelSleeps()
	}
	kinds := AllKinds &^ KindsOf(ComputeStart, ComputeEnd, Stack)
	switch seed % 3 {
	case 0:
		kinds = AllKinds &^ KindsOf(ComputeStart, ComputeEnd) // Stack heard: no chaining
	case 1:
		kinds &^= KindsOf(CallStart, CallEnd)
	case 2:
		if seed%2 == 0 { // a timeline's (observe's graph and trace): compute, not calls
			kinds = AllKinds &^ KindsOf(Stack, CallStart, CallEnd)
		}
	}
	var b strings.Builder
	w.AddListener(Listener{Kinds: kinds, Hook: func(e *Event) {
		fmt.Fprintf(&b, "%v r%d p%d t%d %dB id%d/%d %s %.17g %.17g\n", e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.MsgID, e.RecvID, e.Kernel, e.Seconds, e.Time)
	}})
	scale := 1.0 // of the kernels
	if start > 0 {
		scale = 0.02 // where probes cost 1e-13·n s
	}
	rounds := 1 + rng.IntN(4)
	type round struct {
		op      []int       // per rank
		compute [][]float64 // per rank: kernels before the round's calls
		chunk   []float64   // per rank: the kernel between two Iprobes
		size    int
		anySrc  bool
	}
	plan := make([]round, rounds)
	for k := range plan {
		p := &plan[k]
		p.size = []int{8, 4000, 70000}[rng.IntN(3)]
		p.anySrc = rng.IntN(2) == 0
		for range n {
			p.op = append(p.op, rng.IntN(4))
			var ks []float64
			for range rng.IntN(4) {
				ks = append(ks, []float64{0, 1e-7, 3e-7, 2e-6, 1e-5, rng.Float64() * 4e-5}[rng.IntN(6)]*scale)
			}
			p.compute = append(p.compute, ks)
			p.chunk = append(p.chunk, []float64{1e-7, 5e-7, 3e-6}[rng.IntN(3)])
		}
	}
	clocks := make([][]float64, n)
	got := make([][]int, n)
	err = w.Run(func(r *Rank) {
		c := r.World()
		me, right, left := c.Rank(), (c.Rank()+1)%n, (c.Rank()+n-1)%n
		if start > 0 {
			r.Sleep(start)
		}
		note := func() { clocks[me] = append(clocks[me], r.Now()) }
		for k, p := range plan {
			tag := 2 * k
			for _, d := range p.compute[me] {
				r.Compute(d, "work")
			}
			// Each rank sends the round's message to its right; with op 2,
			// first one of another tag, which its right probes past.
			var s2 *Request
			if p.op[me] == 2 {
				s2 = c.Isend(right, tag+1, Msg{Bytes: 8})
			}
			s := c.Isend(right, tag, Msg{Bytes: p.size + me})
			src := left
			if p.anySrc {
				src = AnySource
			}
			var st Status
			if p.op[me] == 1 && start == 0 { // an Iprobe loop between kernel calls (HPL's update)
				for {
					ok, s := c.Iprobe(src, tag)
					note()
					if ok {
						st = s
						break
					}
					r.Compute(p.chunk[me], "update")
				}
			} else {
				st = c.Probe(src, tag)
			}
			note()
			m, _ := c.Recv(st.Source, st.Tag)
			got[me] = append(got[me], m.Bytes)
			note()
			if p.op[left] == 2 { // a look for a tag not sent, then a Probe for a message that is in
				c.Iprobe(left, tag+7)
				st2 := c.Probe(left, tag+1)
				m2, _ := c.Recv(st2.Source, st2.Tag)
				got[me] = append(got[me], m2.Bytes)
				note()
			}
			s.Wait()
			if s2 != nil {
				s2.Wait()
			}
			note()
		}
	})
	if err != nil {
		t.Fatalf("seed %d (aside %v): %v", seed, aside, err)
	}
	if math.IsNaN(w.End()) || slices.ContainsFunc(clocks, func(c []float64) bool { return len(c) == 0 }) {
		t.Fatalf("seed %d: no clock readings", seed)
	}
	fmt.Fprintf(&b, "end %.17g\nclocks %v\ngot %v\n", w.End(), clocks, got)
	return b.String(), w.eng.Fired(), w.chained, w.dormed
}

// TestProbeQueueOrder drives the probe queue with random pushes, pops and
// replacements of its first (ends from a few values, so that they tie, and
// random floats) and checks every answer against a sorted list: the first
// end, the second (second), after, and that pop hands back an entry of the
// least end.
func TestProbeQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var q probeQueue
	var ref []float64 // the ends in the queue, sorted
	end := func() float64 {
		if rng.IntN(2) == 0 {
			return float64(1+rng.IntN(8)) * 0.25
		}
		return rng.Float64() * 2
	}
	insert := func(at float64) {
		i, _ := slices.BinarySearch(ref, at)
		ref = slices.Insert(ref, i, at)
	}
	for step := range 200000 {
		switch op := rng.IntN(3); {
		case len(ref) == 0 || op == 0 && len(ref) < 600:
			at := end()
			q.push(at, probeID(int32(step), false))
			insert(at)
		case op == 1:
			if got := q.pop().at(); got != ref[0] {
				t.Fatalf("step %d: pop gave %v, want %v", step, got, ref[0])
			}
			ref = ref[1:]
		default:
			at := ref[0] + end()
			e := q.h[0]
			e.key = math.Float64bits(at)
			q.replaceFirst(e)
			ref = ref[1:]
			insert(at)
		}
		if len(q.h) != len(ref) {
			t.Fatalf("step %d: %d ends queued, want %d", step, len(q.h), len(ref))
		}
		if len(ref) == 0 {
			continue
		}
		second := math.Inf(1)
		if len(ref) > 1 {
			second = ref[1]
		}
		if q.h[0].at() != ref[0] || q.second() != second {
			t.Fatalf("step %d: first %v and second %v, want %v and %v", step, q.h[0].at(), q.second(), ref[0], second)
		}
		if q.after(ref[0]) || !q.after(math.Nextafter(ref[0], -1)) {
			t.Fatalf("step %d: after wrong around the first end %v", step, ref[0])
		}
	}
}
