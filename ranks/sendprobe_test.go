package ranks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// swapSteps is a hypercube's steps as an Exchanger: at step k, bytes
// sn[k] to and rn[k] from the rank 2^k away (a side left out when 0).
type swapSteps struct {
	me     int
	sn, rn []int
	got    []int
}

func (x *swapSteps) Exchange(k int) (int, Msg, int) {
	dst, src := Nobody, Nobody
	if x.sn[k] > 0 {
		dst = x.me ^ 1<<k
	}
	if x.rn[k] > 0 {
		src = x.me ^ 1<<k
	}
	return dst, Msg{Bytes: x.sn[k]}, src
}

func (x *swapSteps) Received(k int, m Msg) { x.got = append(x.got, k, m.Bytes) }

func (x *swapSteps) empty(k int) bool { return x.sn[k] == 0 && x.rn[k] == 0 }

// oneStep is step k of another Exchanger, as a SendRecvs of one step.
type oneStep struct {
	e Exchanger
	k int
}

func (x oneStep) Exchange(int) (int, Msg, int) { return x.e.Exchange(x.k) }
func (x oneStep) Received(_ int, m Msg)        { x.e.Received(x.k, m) }

// kernelsWork charges step k's kernels and notes the clock after each: the
// row copies between a swap step's exchange and its poll.
type kernelsWork struct {
	r       *Rank
	ks      [][]float64
	clocks  *[]float64
	inTask  *int
	lostNow *int
}

func (k *kernelsWork) Work(step int) {
	r := k.r
	if r.task != nil {
		*k.inTask++
	}
	for _, d := range k.ks[step] {
		if r.task != nil && d > 0 && r.Now()+d == r.Now() {
			*k.lostNow++
		}
		r.Compute(d, "laswp")
		*k.clocks = append(*k.clocks, r.Now())
	}
}

// TestSendRecvsIprobeMatchesCalls runs random programs of HPL's binary-
// exchange swap shape — hypercube steps, each an sdrv exchange, kernels,
// then a probe of a pending message until it is seen — once with the
// three calls written out (SendRecvs, the kernels, Iprobe: the reference)
// and once with Comm.SendRecvsIprobe (a third of the rounds first probe,
// Comm.IprobeSendRecvs, whose first step may then have no side), and wants the same hook events in
// the same order at the same times, the same clock readings in the work,
// the same data, end and number of events fired, to the bit. Most programs
// merge kernel sleeps in rank order (the task); some run in FIFO or
// SimGrid's order or hear the compute events (the calls themselves). Some
// start at 1e4 s, where a kernel of 1e-13 s is lost to the clock (the task
// defers it) and the first probes of a growing counter are free (the rank
// spins, on its coroutine); some take every sleep through a timer (noSkip);
// some have send and receive overheads. It fails if no kernel was deferred
// or little work ran in the task.
func TestSendRecvsIprobeMatchesCalls(t *testing.T) {
	checkTaskMatchesCalls(t, "SendRecvsIprobe", runSwapProgram)
}

// checkTaskMatchesCalls runs 120 random programs (30 under the race
// detector) with a task (run's task true) and with the calls it replaces,
// and wants the same events, clocks and number of events fired, to the bit;
// it fails if the task's paths hardly ran (few kernels lost to the clock in
// its work, few works in it, in proportion to the seeds).
func checkTaskMatchesCalls(t *testing.T, name string, run func(t *testing.T, seed uint64, task bool) (events string, fired uint64, lost, inTask int)) {
	t.Helper()
	var lost, inTask int
	seeds := uint64(120)
	if raceDetector {
		seeds = 30
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		ref, firedRef, _, _ := run(t, seed, false)
		got, fired, l, k := run(t, seed, true)
		sameEvents(t, seed, name, got, "the calls", ref)
		if fired != firedRef {
			t.Fatalf("seed %d: %d events fired with %s, %d with the calls", seed, fired, name, firedRef)
		}
		lost += l
		inTask += k
	}
	if lost < int(20*seeds/120) || inTask < int(500*seeds/120) {
		t.Errorf("%d kernels lost to the clock in a task's work, %d works in a task: the task's paths hardly ran", lost, inTask)
	}
}

func runSwapProgram(t *testing.T, seed uint64, task bool) (string, uint64, int, int) {
	rng := rand.New(rand.NewPCG(seed, 43))
	n, cfg, lazy, noSkip, start := randomTaskConfig(t, rng, seed)
	w, b, kernel := randomTaskWorld(t, rng, seed, n, cfg, lazy, noSkip, start)
	hdim := 0
	for 1<<(hdim+1) <= n {
		hdim++
	}
	type round struct {
		delay  []float64     // per rank: kernels before its send
		sn, rn [][]int       // per rank, per hypercube step: bytes each way
		ks     [][][]float64 // per rank, per step: the work's kernels
		size   int
		anySrc bool
	}
	plan := make([]round, 1+rng.IntN(4))
	sizes := []int{0, 8, 4000, 70000}
	for k := range plan {
		p := &plan[k]
		p.size = []int{8, 4000, 70000}[rng.IntN(3)]
		p.anySrc = rng.IntN(2) == 0
		for range n {
			p.delay = append(p.delay, []float64{0, 1e-6, 3e-5, 2e-4}[rng.IntN(4)])
			p.sn, p.rn = append(p.sn, make([]int, hdim)), append(p.rn, make([]int, hdim))
			p.ks = append(p.ks, make([][]float64, hdim))
		}
		for me := range n {
			for j := range hdim {
				partner := me ^ 1<<j
				if partner >= n || partner < me {
					continue
				}
				a, c := sizes[rng.IntN(4)], sizes[rng.IntN(4)]
				p.sn[me][j], p.rn[partner][j] = a, a
				p.sn[partner][j], p.rn[me][j] = c, c
			}
			for j := range hdim {
				for range rng.IntN(4) {
					p.ks[me][j] = append(p.ks[me][j], kernel())
				}
			}
		}
	}
	clocks := make([][]float64, n)
	got := make([][]int, n)
	lost, inTask := 0, 0
	err := w.Run(func(r *Rank) {
		c := r.World()
		me, right, left := c.Rank(), (c.Rank()+1)%n, (c.Rank()+n-1)%n
		// The probes go through another communicator, of the ranks in
		// reverse order (HPL probes its row's broadcast between its
		// column's exchanges).
		pc := c.Split(0, n-me)
		if start > 0 {
			r.Sleep(start)
		}
		x := &swapSteps{me: me}
		wk := &kernelsWork{r: r, clocks: &clocks[me], inTask: &inTask, lostNow: &lost}
		for k, p := range plan {
			tag := 2 * k
			r.Compute(p.delay[me], "before")
			s := pc.Isend(n-1-right, tag, Msg{Bytes: p.size + me})
			src := n - 1 - left
			if p.anySrc {
				src = AnySource
			}
			x.sn, x.rn, wk.ks = p.sn[me], p.rn[me], p.ks[me]
			steps := hdim
			if me >= 1<<hdim {
				steps = 0
			}
			// As HPL's swap: an empty step (no call) first, and every step
			// of the calls written out, is the three calls; a task goes
			// from a step with a call up to the probe that sees the message.
			j, seen := 0, false
			if (int(seed)+k)%3 == 0 { // a probe first (the swap's polls before the hypercube)
				if task {
					j, seen, _ = c.IprobeSendRecvs(0, steps, 100, x, wk, pc, src, tag)
				} else {
					seen, _ = pc.Iprobe(src, tag)
				}
			}
			for j < steps && !seen {
				if !task || x.empty(j) {
					if !x.empty(j) {
						c.SendRecvs(1, 100, oneStep{x, j})
					}
					wk.Work(j)
					seen, _ = pc.Iprobe(src, tag)
					j++
				} else {
					j, seen, _ = c.SendRecvsIprobe(j, steps, 100, x, wk, pc, src, tag)
				}
			}
			got[me] = append(got[me], j, boolInt(seen))
			for ; j < steps; j++ {
				if !x.empty(j) {
					c.SendRecvs(1, 100, oneStep{x, j})
				}
				wk.Work(j)
			}
			stat := pc.Probe(src, tag)
			m, _ := pc.Recv(stat.Source, stat.Tag)
			got[me] = append(got[me], m.Bytes)
			clocks[me] = append(clocks[me], r.Now())
			s.Wait()
		}
		got[me] = append(got[me], x.got...)
	})
	if err != nil {
		t.Fatalf("seed %d (SendRecvsIprobe %v): %v", seed, task, err)
	}
	if math.IsNaN(w.End()) || slices.ContainsFunc(clocks, func(c []float64) bool { return len(c) == 0 }) {
		t.Fatalf("seed %d: no clock readings", seed)
	}
	fmt.Fprintf(b, "end %.17g\nclocks %v\ngot %v\n", w.End(), clocks, got)
	return b.String(), w.eng.Fired(), lost, inTask
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomTaskConfig draws the set-up of one random program of
// checkTaskMatchesCalls: n ranks, the network model and probe costs, the
// wake order (lazy: rank order with kernel sleeps merged, where the tasks
// run), and by seed overheads, timers for every sleep (noSkip) or a start
// at 1e4 s, where a kernel of 1e-13 s is lost to the clock.
func randomTaskConfig(t *testing.T, rng *rand.Rand, seed uint64) (n int, cfg Config, lazy, noSkip bool, start float64) {
	n = 2 + rng.IntN(14)
	cfg = preset(t, []string{"cm02", "smpi"}[rng.IntN(2)])
	cfg.IprobeCost = []float64{1e-7, 2.1e-7, 1e-6}[rng.IntN(3)]
	cfg.PerRankCounters = rng.IntN(5) == 0
	cfg.ProbeAfterProgress = rng.IntN(4) == 0
	lazy = seed%5 != 0
	if !lazy {
		cfg.WakeOrder = []WakeOrder{WakeRank, WakeFIFO, WakeSimGrid}[rng.IntN(3)]
	}
	switch seed % 6 {
	case 2:
		cfg.SendOverhead = MustParseTable("0:3e-7:1e-10;8133:4e-6:1e-10;65536:0")
		cfg.RecvOverhead = MustParseTable("0:5e-7:2e-10;15831:3e-6")
	case 3:
		noSkip = true
	case 4, 1: // 1e-13 s vanishes at 1e4 s: lost kernels, free probes while the counter is small
		start, cfg.IprobeCost = 1e4, 1e-13
		noSkip = seed%4 < 2
	}
	return n, cfg, lazy, noSkip, start
}

// randomTaskWorld builds the World of one random program on a crossbar of n
// hosts, with kernel sleeps merged (rank order, unless cfg says otherwise),
// recording every event it hears into b (the compute events too, at
// random, outside rank order: then nothing merges); kernel draws a
// kernel's duration (1e-13 s, lost to the clock, a third of the time after
// a start at 1e4 s).
func randomTaskWorld(t *testing.T, rng *rand.Rand, seed uint64, n int, cfg Config, lazy, noSkip bool, start float64) (w *World, b *strings.Builder, kernel func() float64) {
	w, err := NewWorld(cfg, newCrossbar(n, 1e9, 1e-6), identity(n), seed)
	if err != nil {
		t.Fatal(err)
	}
	w.noSkip = noSkip
	w.MergeKernelSleeps()
	kinds := AllKinds &^ KindsOf(ComputeStart, ComputeEnd)
	if !lazy && rng.IntN(2) == 0 {
		kinds = AllKinds // the compute events heard: no merging, the calls
	}
	b = &strings.Builder{}
	w.AddListener(Listener{Kinds: kinds, Hook: func(e *Event) {
		fmt.Fprintf(b, "%v r%d p%d t%d %dB id%d/%d %s %.17g\n", e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.MsgID, e.RecvID, e.Kernel, e.Time)
	}})
	kernel = func() float64 {
		if start > 0 && rng.IntN(3) == 0 {
			return 1e-13
		}
		return []float64{0, 1e-7, 3e-7, 2e-6, 1e-5, rng.Float64() * 4e-5}[rng.IntN(6)]
	}
	return w, b, kernel
}
