package ranks

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// dormantCost is the probes' cost in the hand-made cases, s: SMPI's
// smpi/iprobe at Dahu (2.1e-7 rounded), a cost whose multiples are not
// the sums of its polls (0.1 + 0.1 + 0.1 ≠ 0.3 likewise).
const dormantCost = 2.1e-7

// pollEnds returns the ends of the probes of a Probe loop started at start
// with every probe costing d: e[0] = start and e[j+1] = e[j] + d, as the clock adds
// them (Rank.probeSleep: each failed look at e starts a sleep to e + d).
func pollEnds(start, d float64, n int) []float64 {
	e := make([]float64, n)
	e[0] = start
	for j := 1; j < n; j++ {
		e[j] = e[j-1] + d
	}
	return e
}

// dormantCase is a hand-made program: probe[r] is rank r's Probe (from, tag)
// or none; each rank then makes its sends in order, each at its time (a
// kernel up to it, then an Isend of 8 bytes, waited at the end); want[r] is
// the index j of the probe end e[j] at which rank r's Probe sees its
// message (−1 for no Probe), derived in the case's comment.
type dormantCase struct {
	name    string
	n       int
	probe   []probeSpec
	sends   []plannedSend
	pollers []int   // ranks that receive rank 0's tag-9 message by a loop of free Tests (TestCost 0)
	merge   bool    // MergeKernelSleeps: the senders' kernels end in a settle's jump
	start   float64 // every rank sleeps until then first, s
	want    []int
}

type probeSpec struct {
	on        bool
	from, tag int
}

// plannedSend is a send posted at time at: by an Isend after a kernel, or
// after an Iprobe (of tag 99, which nobody sends) whose cost ends at at, or
// by a SendRecvs (a task) whose send overhead ends at at: the sender's
// clock jumps to at in Rank.sleep, settle, probeSleep, taskSleep or
// taskSettle, where the probes are dormant.
type plannedSend struct {
	from, to, tag int
	at            float64 // s
	via           uint8   // the via* constants
	bytes         int     // 0: 8 (the send overhead's, dormantOverhead); over 64: none
	tiny          bool    // a kernel of tinyKernel just before the post
}

const (
	viaIsend uint8 = iota
	viaIprobe
	viaSendRecvs
)

// dormantOverhead is the send overhead of a message of up to 64 bytes in
// the hand-made cases, s; larger ones have none.
const dormantOverhead = 3.3e-7

// tinyKernel is a kernel the clock cannot count past 10⁴ s (whose ulp is
// 1.8e-12 s), s: its sleep, a timer at the instant it starts where another
// rank is ready, ends in a later round of that instant.
const tinyKernel = 1e-13

func TestDormantProbesMatchEventByEvent(t *testing.T) {
	e := pollEnds(0, dormantCost, 100)
	e4 := pollEnds(1e4, dormantCost, 100)
	below := func(x float64) float64 { return math.Nextafter(x, 0) }
	above := func(x float64) float64 { return math.Nextafter(x, 1) }
	p := func(from, tag int) probeSpec { return probeSpec{true, from, tag} }
	none := probeSpec{}
	cases := []dormantCase{
		// Rank 0 mails rank 1 at e[40], the instant rank 1's 40th probe
		// ends: both ready at e[40], rank 0 runs first and rank 1's look
		// sees the send.
		{name: "lower sender at an end", n: 2, probe: []probeSpec{none, p(0, 0)},
			sends: []plannedSend{{from: 0, to: 1, tag: 0, at: e[40]}}, want: []int{-1, 40}},
		// Rank 1 mails rank 0 at e[40]: rank 0's look ran first and
		// failed; the next, at e[41], sees it.
		{name: "higher sender at an end", n: 2, probe: []probeSpec{p(1, 0), none},
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: e[40]}}, want: []int{41, -1}},
		// The same, merged: the sender's kernel ends in a settle (SkipTo).
		{name: "higher sender at an end, merged", n: 2, probe: []probeSpec{p(1, 0), none}, merge: true,
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: e[40]}}, want: []int{41, -1}},
		{name: "lower sender at an end, merged", n: 2, probe: []probeSpec{none, p(0, 0)}, merge: true,
			sends: []plannedSend{{from: 0, to: 1, tag: 0, at: e[40]}}, want: []int{-1, 40}},
		// Rank 1 reaches e[40] at the end of an Iprobe's cost (a jump of
		// probeSleep) and mails rank 0 at once: e[41], as above.
		{name: "higher sender after an Iprobe", n: 2, probe: []probeSpec{p(1, 0), none},
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: e[40], via: viaIprobe, bytes: 0}}, want: []int{41, -1}},
		{name: "lower sender after an Iprobe", n: 2, probe: []probeSpec{none, p(0, 0)},
			sends: []plannedSend{{from: 0, to: 1, tag: 0, at: e[40], via: viaIprobe, bytes: 0}}, want: []int{-1, 40}},
		// At the end of a SendRecvs's send overhead (taskSleep), or, merged
		// and without an overhead, of its settle (taskSettle).
		{name: "higher sender after a task's overhead", n: 2, probe: []probeSpec{p(1, 0), none},
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: e[40], via: viaSendRecvs, bytes: 0}}, want: []int{41, -1}},
		{name: "higher sender after a task's settle", n: 2, probe: []probeSpec{p(1, 0), none}, merge: true,
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: e[40], via: viaSendRecvs, bytes: 100}}, want: []int{41, -1}},
		{name: "lower sender after a task's overhead", n: 2, probe: []probeSpec{none, p(0, 0)},
			sends: []plannedSend{{from: 0, to: 1, tag: 0, at: e[40], via: viaSendRecvs, bytes: 0}}, want: []int{-1, 40}},
		// Ranks 2 and 3 wake at e4[40] and rank 2 sleeps a tiny kernel,
		// which ends in a later round of the instant, after rank 4's probe
		// ran: rank 2's send is seen at e4[41]. (Rank 3 mails rank 1.)
		{name: "a sender in a later round of the instant", n: 5, start: 1e4,
			probe: []probeSpec{none, none, none, none, p(2, 0)},
			sends: []plannedSend{{from: 2, to: 4, tag: 0, at: e4[40], tiny: true}, {from: 3, to: 1, tag: 0, at: e4[40]}},
			want:  []int{-1, -1, -1, -1, 41}},
		// The same, rank 3 sending later: the first round at e4[40] has
		// only rank 2, which sleeps its tiny kernel; rank 4's probe runs
		// in it, then rank 2's send: e4[41].
		{name: "a lone sender in a later round of the instant", n: 5, start: 1e4,
			probe: []probeSpec{none, none, none, none, p(2, 0)},
			sends: []plannedSend{{from: 2, to: 4, tag: 0, at: e4[40], tiny: true}, {from: 3, to: 1, tag: 0, at: e4[60]}},
			want:  []int{-1, -1, -1, -1, 41}},
		// One bit before e[40]: the look at e[40] sees it, whatever the
		// order; one bit after, the look at e[41].
		{name: "just before an end", n: 2, probe: []probeSpec{p(1, 0), none},
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: below(e[40])}}, want: []int{40, -1}},
		{name: "just after an end", n: 2, probe: []probeSpec{none, p(0, 0)},
			sends: []plannedSend{{from: 0, to: 1, tag: 0, at: above(e[40])}}, want: []int{-1, 41}},
		// Rank 1 mails ranks 0 and 2 at e[40]: rank 0 looked before it
		// ran (e[41]), rank 2 looks after (e[40]).
		{name: "probers either side", n: 3, probe: []probeSpec{p(1, 0), none, p(1, 0)},
			sends: []plannedSend{{from: 1, to: 0, tag: 0, at: e[40]}, {from: 1, to: 2, tag: 0, at: e[40]}}, want: []int{41, -1, 40}},
		// Rank 2 waits for rank 3's message; rank 0 mails it another at
		// e[40], which wakes it (rank 0 ran first: rank 2 had not looked),
		// its look fails and it sleeps again; rank 3 then mails it at
		// e[40], after rank 2's look: e[41]. Rank 1 probes all along for
		// rank 0's second message, at e[70] from the lower rank: e[70].
		{name: "an unmatched send, then the matching one at the instant", n: 4,
			probe: []probeSpec{none, p(0, 1), p(3, 0), none},
			sends: []plannedSend{{from: 0, to: 2, tag: 0, at: e[40]}, {from: 0, to: 1, tag: 1, at: e[70]}, {from: 3, to: 2, tag: 0, at: e[40]}},
			want:  []int{-1, 70, 41, -1}},
		// A message of another tag at e[10] wakes rank 1 for one look;
		// the matching one comes at e[60], between two ends.
		{name: "another tag first", n: 2, probe: []probeSpec{none, p(0, 0)},
			sends: []plannedSend{{from: 0, to: 1, tag: 5, at: e[10]}, {from: 0, to: 1, tag: 0, at: (e[60] + e[61]) / 2}}, want: []int{-1, 61}},
		// Any source: ranks 1 and 3 both mail rank 2 at e[30]; rank 1,
		// lower, wakes it and it sees rank 1's send at e[30].
		{name: "any source", n: 4, probe: []probeSpec{none, none, p(AnySource, 0), none},
			sends: []plannedSend{{from: 1, to: 2, tag: 0, at: e[30]}, {from: 3, to: 2, tag: 0, at: e[30]}}, want: []int{-1, -1, 30, -1}},
		// Rank 3 spins on free Tests for rank 0's tag-9 message while
		// ranks 1 and 2 are dormant: parked, it wakes them (pollers are
		// let go at every instant fired).
		{name: "a poller parks", n: 4, probe: []probeSpec{none, p(0, 0), p(0, 0), none}, pollers: []int{3},
			sends: []plannedSend{{from: 0, to: 3, tag: 9, at: e[20]}, {from: 0, to: 1, tag: 0, at: e[50]}, {from: 0, to: 2, tag: 0, at: e[50]}}, want: []int{-1, 50, 50, -1}},
	}
	for _, tc := range cases {
		for _, l := range dormantListeners {
			t.Run(tc.name+", "+l.name, func(t *testing.T) {
				dormant, dormed, found := runDormantCase(t, tc, modeDormant, l.kinds)
				for _, ref := range []dormantMode{modeEventByEvent, modeEngineTimers} {
					got, _, refFound := runDormantCase(t, tc, ref, l.kinds)
					sameEvents(t, 0, "dormant", dormant, ref.String(), got)
					if fmt.Sprint(refFound) != fmt.Sprint(found) {
						t.Fatalf("found at %v dormant, %v %v", found, refFound, ref)
					}
				}
				e := pollEnds(tc.start, dormantCost, 100)
				for r, j := range tc.want {
					if j >= 0 && found[r] != e[j] {
						t.Errorf("rank %d saw its message at %.17g, want e[%d] = %.17g", r, found[r], j, e[j])
					}
				}
				if dormed == 0 {
					t.Error("no probe was dormant")
				}
			})
		}
	}
}

// dormantListeners are the kinds the hand-made cases' listener hears: the
// messages' and the calls' events, or a timeline's — what observe's graph
// recorder and trace hear (observe.TimelineKinds): the compute events too,
// which stop kernel sleeps from merging, and not the calls' bounds.
var dormantListeners = []struct {
	name  string
	kinds KindSet
}{
	{"messages and calls heard", AllKinds &^ KindsOf(Stack, ComputeStart, ComputeEnd)},
	{"a timeline heard", AllKinds &^ KindsOf(Stack, CallStart, CallEnd)},
}

// dormantMode is how a hand-made case runs its probes.
type dormantMode int

const (
	modeDormant      dormantMode = iota // the default: the probe queue, dormant probes
	modeEventByEvent                    // the probe queue, every probe's end fired (noDormant)
	modeEngineTimers                    // every probe's end a timer in the engine (probesAside off)
)

func (m dormantMode) String() string {
	return [...]string{"dormant", "event by event", "engine timers"}[m]
}

// runDormantCase runs tc, a listener hearing kinds, and returns the events
// it heard and the clock readings, how many probes went dormant and when
// each rank's Probe saw its message.
func runDormantCase(t *testing.T, tc dormantCase, mode dormantMode, kinds KindSet) (string, uint64, []float64) {
	t.Helper()
	cfg := preset(t, "smpi")
	cfg.IprobeCost, cfg.NoGrowth = dormantCost, true
	if len(tc.pollers) > 0 {
		cfg.TestCost = 0
	}
	cfg.SendOverhead = MustParseTable(fmt.Sprintf("0:%g:0;64:0:0", dormantOverhead))
	w, err := NewWorld(cfg, newCrossbar(tc.n, 1e9, 1e-6), identity(tc.n), 1)
	if err != nil {
		t.Fatal(err)
	}
	w.noDormant = mode == modeEventByEvent
	w.probesAside = mode != modeEngineTimers
	if tc.merge {
		w.MergeKernelSleeps()
	}
	var b strings.Builder
	w.AddListener(Listener{Kinds: kinds, Hook: func(ev *Event) {
		fmt.Fprintf(&b, "%v r%d p%d t%d %dB id%d/%d %s %.17g %.17g\n", ev.Kind, ev.Rank, ev.Peer, ev.Tag, ev.Bytes, ev.MsgID, ev.RecvID, ev.Kernel, ev.Seconds, ev.Time)
	}})
	found := make([]float64, tc.n)
	early := pollEnds(tc.start, dormantCost, 4)[3]
	err = w.Run(func(r *Rank) {
		c, me := r.World(), r.ID()
		var reqs []*Request
		if tc.start > 0 {
			r.Sleep(tc.start)
		}
		if slices.Contains(tc.pollers, me) { // a free Test loop for rank 0's tag-9 message
			q := c.Irecv(0, 9)
			for ok := false; !ok; ok, _, _ = q.Test() {
			}
		}
		for _, s := range tc.sends {
			if s.from == me {
				// A kernel up to the probes' third end first, so that the
				// kernel to the send starts with the probes dormant: its
				// sleep jumps the clock.
				if now := r.Now(); now < early {
					r.Compute(early-now, "early")
					r.Sleep(0) // merged, the kernel is slept now (settle)
				}
				m := Msg{Bytes: cmp.Or(s.bytes, 8)}
				lead := 0.0 // between the kernel's end and the post
				switch s.via {
				case viaIprobe:
					lead = dormantCost
				case viaSendRecvs:
					lead = cfg.SendOverhead.Value(m.Bytes, 0)
				}
				r.Compute(kernelTo(t, r.Now(), startFor(t, s.at, lead)), "wait")
				if s.tiny {
					r.Compute(tinyKernel, "tiny")
				}
				switch s.via {
				case viaIprobe:
					c.Iprobe(AnySource, 99)
					fallthrough
				case viaIsend:
					reqs = append(reqs, c.Isend(s.to, s.tag, m))
				default:
					c.SendRecvs(1, s.tag, oneSend{s.to, m})
				}
			}
		}
		found[me] = -1
		got := make([]bool, len(tc.sends))
		if p := tc.probe[me]; p.on {
			st := c.Probe(p.from, p.tag)
			found[me] = r.Now()
			c.Recv(st.Source, st.Tag)
			for i, s := range tc.sends {
				if s.to == me && s.from == st.Source && s.tag == st.Tag && !got[i] {
					got[i] = true
					break
				}
			}
		}
		for i, s := range tc.sends { // the rest of the messages to me
			if s.to == me && !got[i] && !(s.tag == 9 && slices.Contains(tc.pollers, me)) {
				c.Recv(s.from, s.tag)
			}
		}
		Waitall(reqs...)
		fmt.Fprintf(&b, "rank %d ends at %.17g\n", me, r.Now())
	})
	if err != nil {
		t.Fatalf("%s (%v): %v", tc.name, mode, err)
	}
	fmt.Fprintf(&b, "end %.17g found %v\n", w.End(), found)
	return b.String(), w.dormed, found
}

// kernelTo returns the kernel that, started at from, ends at at to the bit.
func kernelTo(t *testing.T, from, at float64) float64 {
	d := at - from
	for from+d < at {
		d = math.Nextafter(d, math.Inf(1))
	}
	for from+d > at {
		d = math.Nextafter(d, 0)
	}
	if from+d != at {
		t.Fatalf("no kernel from %.17g ends at %.17g", from, at)
	}
	return d
}

// TestDormantProbesInRandomPrograms runs TestProbeQueueMatchesEngineTimers'
// random programs with the counters' growth off — Probe loops and Iprobe
// loops between kernel calls, messages of another tag, merged kernels,
// sleeps through timers, per-rank counters, Stack heard in a third, the
// compute events (observe's timeline) in a sixth — with
// dormant probes, and wants what every probe's end as an engine timer
// gives (the engine fires fewer events: not compared). It fails if few
// probes went dormant, or few where the compute events are heard.
func TestDormantProbesInRandomPrograms(t *testing.T) {
	var dormed, timeline uint64
	for seed := uint64(1); seed <= 150; seed++ {
		ref, _, _, _ := runProbeQueueProgram(t, seed, false, true)
		got, _, _, d := runProbeQueueProgram(t, seed, true, true)
		sameEvents(t, seed, "dormant probes", got, "engine timers", ref)
		dormed += d
		if seed%6 == 2 { // the timeline heard
			timeline += d
		}
	}
	if dormed < 400 || timeline < 100 { // 558 and 149 when written
		t.Errorf("%d probes made dormant in 150 programs, %d where the compute events are heard", dormed, timeline)
	}
}

// startFor returns the time from which lead seconds end at at, to the bit.
func startFor(t *testing.T, at, lead float64) float64 {
	s := at - lead
	for s+lead < at {
		s = math.Nextafter(s, math.Inf(1))
	}
	for s+lead > at {
		s = math.Nextafter(s, 0)
	}
	if s+lead != at {
		t.Fatalf("nothing plus %.17g ends at %.17g", lead, at)
	}
	return s
}

// oneSend is an Exchanger of one step, a send of m to dst.
type oneSend struct {
	dst int
	m   Msg
}

func (x oneSend) Exchange(int) (int, Msg, int) { return x.dst, x.m, Nobody }
func (x oneSend) Received(int, Msg)            {}

// TestFirstEndFromMatchesAdditions checks firstEndFrom against the loop of
// additions it replaces: dormant ends of SMPI's and round costs from
// 10⁻⁷ s to 10⁴ s, up to clocks many binades later, at an end, one ulp
// either side of one, and costs whose ratio to the ulp ends in one half
// (ties) in one binade and not in the next.
func TestFirstEndFromMatchesAdditions(t *testing.T) {
	loop := func(end, d, now float64) float64 {
		for end < now {
			end += d
		}
		return end
	}
	type tc struct{ end, d, now float64 }
	cases := []tc{
		{0, 1, 0}, // nothing to follow
		// d/u = 1000.5 in [1, 2) (a tie at each step: from an odd multiple
		// of u the first rounds up to an even one, the rest down), 500.25
		// in [2, 4)
		{2 - 3e8*0x1p-52, 1000.5 * 0x1p-52, 2 + 2e5*1000.5*0x1p-52},
		{2 - (3e8+1)*0x1p-52, 1000.5 * 0x1p-52, 2 + 2e5*1000.5*0x1p-52},
		{1 + 0x1p-52, 1000.5 * 0x1p-52, 1 + 1e5*1000.5*0x1p-52}, // within [1, 2)
		// d/u = 3.5 in [1, 2), 1.75 in [2, 4)
		{2 - 1e6*0x1p-52, 3.5 * 0x1p-52, 2 + 1e6*0x1p-52},
		{0.999, 2.1e-7, 1.001}, // across 1
		{1e4 - 1e-3, 2.115437983643232e-07, 1e4 + 1e-3},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	costs := []float64{2.1e-7, 2.115437983643232e-07, 1e-7, 2e-7, 3e-9}
	for range 3000 {
		end := math.Ldexp(1+rng.Float64(), rng.IntN(40)-25) // 3·10⁻⁸ s to 10⁴ s
		d := costs[rng.IntN(len(costs))]
		if rng.IntN(4) == 0 {
			d = end * math.Ldexp(1+rng.Float64(), -10-rng.IntN(20))
		}
		now := end + d*float64(rng.IntN(200000))*rng.Float64()
		if e := loop(end, d, now); rng.IntN(3) == 0 { // at an end, or an ulp either side
			now = []float64{e, math.Nextafter(e, 0), math.Nextafter(e, math.Inf(1))}[rng.IntN(3)]
		}
		cases = append(cases, tc{end, d, now})
	}
	for i, c := range cases {
		if got, want := firstEndFrom(c.end, c.d, c.now), loop(c.end, c.d, c.now); got != want {
			t.Fatalf("case %d: from %.17g by %.17g to %.17g: %.17g, the additions %.17g", i, c.end, c.d, c.now, got, want)
		}
	}
}

// TestLateStackHearsEachRanksEventsInOrder: rank 0 Isends 2 MB to rank 1
// (rendezvous, received at once), then Probes for rank 2's message, sent
// after a 5 ms kernel; the Isend completes (rank 0's SendDone) at about
// 2 ms, while rank 0's probe is dormant. A LateStack listener must hear
// each rank's events, the polls' Stack included, in the order and at the
// times the event-by-event path (noDormant) tells them, with the probe
// dormant: the polls before the SendDone told before it (World.tellDormant),
// the rest at the wake.
func TestLateStackHearsEachRanksEventsInOrder(t *testing.T) {
	run := func(noDormant bool) ([]string, uint64) {
		cfg := preset(t, "smpi")
		cfg.IprobeCost, cfg.NoGrowth = dormantCost, true
		w, err := NewWorld(cfg, newCrossbar(3, 1e9, 1e-6), identity(3), 1)
		if err != nil {
			t.Fatal(err)
		}
		w.noDormant = noDormant
		per := make([]strings.Builder, 3)
		w.AddListener(Listener{Kinds: AllKinds, LateStack: true, Hook: func(ev *Event) {
			fmt.Fprintf(&per[ev.Rank], "%v p%d t%d %dB %s %.17g %.17g\n", ev.Kind, ev.Peer, ev.Tag, ev.Bytes, ev.Kernel, ev.Seconds, ev.Time)
		}})
		err = w.Run(func(r *Rank) {
			c := r.World()
			switch r.ID() {
			case 0:
				q := c.Isend(1, 1, Msg{Bytes: 2 << 20})
				st := c.Probe(2, 5)
				c.Recv(st.Source, st.Tag)
				q.Wait()
			case 1:
				c.Recv(0, 1)
			case 2:
				r.Compute(5e-3, "k")
				c.Send(0, 5, Msg{Bytes: 8})
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, 3)
		for i := range per {
			out[i] = per[i].String()
		}
		return out, w.dormed
	}
	got, dormed := run(false)
	ref, _ := run(true)
	if dormed == 0 {
		t.Fatal("no probe went dormant: the case tests nothing")
	}
	if n := strings.Count(ref[0], "Stack"); n < 1000 {
		t.Fatalf("rank 0 told %d Stack events event by event: want the polls of 5 ms", n)
	}
	done := strings.Index(ref[0], "SendDone")
	if done < 0 || !strings.Contains(ref[0][:done], "Iprobe") || !strings.Contains(ref[0][done:], "Iprobe") {
		t.Fatal("rank 0's SendDone does not fall among its polls: the case tests nothing")
	}
	for r := range ref {
		if got[r] != ref[r] {
			t.Errorf("rank %d heard %d bytes of events, event by event %d", r, len(got[r]), len(ref[r]))
		}
	}
}
