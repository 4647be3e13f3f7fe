package observe_test

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// dormantHPL is the HPL both tests below run: 16 ranks whose broadcasts
// poll MPI_Iprobe, small enough to run each case twice.
var dormantHPL = []string{"platform.hosts=16", "hpl.grids=4x4", "hpl.n=1200", "network.iprobe_cost=2e-7"}

// dormantCases are the settings under which the tests below compare a run
// whose listeners let probes go dormant with the event-by-event path.
var dormantCases = func() []dormantCase {
	off := "network.iprobe_growth=false"
	return []dormantCase{
		{"growth off", []string{off}, 3},
		{"growth off, 2ringM, depth 0", []string{off, "hpl.bcast=2ringM", "hpl.depth=0"}, 3},
		{"growth off, 1ring, binary-exchange", []string{off, "hpl.bcast=1ring", "hpl.swap=binary-exchange"}, 3},
		{"growth off, long (no Probe loop)", []string{off, "hpl.bcast=long"}, 1},
		{"growth off, per-rank counters", []string{off, "network.per_rank_counters=true"}, 3},
		{"growth off, SimGrid's order", []string{off, "network.wake_order=simgrid"}, 1},
		{"growth on", nil, 1},
		{"growth on, SimGrid's order", []string{"network.wake_order=simgrid"}, 1},
	}
}()

type dormantCase struct {
	name  string
	sets  []string
	fewer float64 // the event-by-event path fires at least this many times the events
}

// TestTimelineListenersMatchEveryKind records HPL's graph and trace the way
// runner does, the recorders listening to TimelineKinds only, and again with
// one more hook of every kind beside them. That hook hears Stack, which makes
// the World fire every poll of a probe loop as an event of its own (no
// dormant probe, no probe chained in the queue): the event-by-event path,
// which recorded the graphs and traces before the recorders listened to
// their kinds only. The run, the graph and the trace must be the same to
// the byte; where the polls go dormant (the growth off, rank order) the
// engine must also fire several times fewer events, or the case tests
// nothing.
func TestTimelineListenersMatchEveryKind(t *testing.T) {
	for _, tc := range dormantCases {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(t, append(append([]string(nil), dormantHPL...), tc.sets...))
			// runner's recorders, and the test's own (wire mode, the whole
			// trace): fed TimelineKinds (Listener), and in the reference
			// every kind (Hook), as they were before.
			type recorded struct {
				res          *runner.Result
				graph, trace bytes.Buffer // runner's
				own          *observe.GraphRecorder
				ownTrace     bytes.Buffer
			}
			run := func(listen bool) *recorded {
				out := &recorded{own: observe.NewGraphRecorder(p.Ranks, p.Platform.Placement(p.Ranks))}
				tw := observe.NewTraceWriter(&out.ownTrace, p.Ranks, 0, math.Inf(1))
				opt := runner.Options{Graph: true, Trace: &out.trace}
				if listen {
					opt.Listeners = []ranks.Listener{out.own.Listener(), tw.Listener()}
				} else {
					opt.Hooks = []ranks.Hook{out.own.Hook, tw.Hook}
				}
				var err error
				if out.res, err = runner.Run(p, opt); err != nil {
					t.Fatal(err)
				}
				if err := tw.Close(); err != nil {
					t.Fatal(err)
				}
				if _, err := out.res.Graph.WriteTo(&out.graph); err != nil {
					t.Fatal(err)
				}
				return out
			}
			got, ref := run(true), run(false)
			res := got.res
			if res.SimulatedTime != ref.res.SimulatedTime {
				t.Errorf("time %.17g s, every kind heard %.17g s", res.SimulatedTime, ref.res.SimulatedTime)
			}
			own, refOwn := graphBytes(t, got.own), graphBytes(t, ref.own)
			for _, c := range []struct {
				what     string
				got, ref []byte
			}{
				{"runner's graphs", got.graph.Bytes(), ref.graph.Bytes()},
				{"runner's traces", got.trace.Bytes(), ref.trace.Bytes()},
				{"graphs", own, refOwn},
				{"traces", got.ownTrace.Bytes(), ref.ownTrace.Bytes()},
			} {
				if !bytes.Equal(c.got, c.ref) {
					t.Errorf("%s differ: %d bytes, every kind heard %d", c.what, len(c.got), len(c.ref))
				}
			}
			if float64(ref.res.Events) < tc.fewer*float64(res.Events) {
				t.Errorf("%d events fired, %d with every kind heard: want %g times fewer", res.Events, ref.res.Events, tc.fewer)
			}
		})
	}
}

// graphBytes is the recorder's graph as written.
func graphBytes(t *testing.T, g *observe.GraphRecorder) []byte {
	t.Helper()
	pg, err := g.Graph()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := pg.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// plan is the default scenario with sets applied, validated.
func plan(t *testing.T, sets []string) *scenario.Plan {
	t.Helper()
	return plantest.Validated(t, scenario.Default(), sets...)
}

// TestBreakdownHearsDormantPollsLate runs HPL with runner's time split
// (--plot's Breakdown, a LateStack listener: the polls of a dormant probe
// told at the rank's next event or its wake) and again with a hook of every
// kind beside it, which hears Stack as it happens and so makes the World
// fire every poll (the event-by-event path, as the split was recorded
// before). Each rank's compute, communication and waiting must be the same
// floats; where the polls go dormant the engine must fire several times
// fewer events, or the case tests nothing.
func TestBreakdownHearsDormantPollsLate(t *testing.T) {
	for _, tc := range dormantCases {
		t.Run(tc.name, func(t *testing.T) {
			got, ref := runHeardLateAndEvery(t, tc, runner.Options{Breakdown: true})
			for _, c := range []struct {
				what     string
				got, ref []float64
			}{
				{"compute", got.Breakdown.Compute, ref.Breakdown.Compute},
				{"communication", got.Breakdown.Comm, ref.Breakdown.Comm},
				{"waiting", got.Breakdown.Wait, ref.Breakdown.Wait},
			} {
				for r := range c.ref {
					if c.got[r] != c.ref[r] {
						t.Errorf("rank %d's %s %.17g s, every kind heard %.17g s", r, c.what, c.got[r], c.ref[r])
					}
				}
			}
			if float64(ref.Events) < tc.fewer*float64(got.Events) {
				t.Errorf("%d events fired, %d with every kind heard: want %g times fewer", got.Events, ref.Events, tc.fewer)
			}
		})
	}
}

// runHeardLateAndEvery runs tc's HPL with opt as it is (dormant polls heard
// late) and again with a hook of every kind beside it (every poll fired);
// both runs must end at the same time.
func runHeardLateAndEvery(t *testing.T, tc dormantCase, opt runner.Options) (late, every *runner.Result) {
	t.Helper()
	p := plan(t, append(append([]string(nil), dormantHPL...), tc.sets...))
	run := func(hooks []ranks.Hook) *runner.Result {
		o := opt
		o.Hooks = hooks
		res, err := runner.Run(p, o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	late, every = run(nil), run([]ranks.Hook{func(*ranks.Event) {}})
	if late.SimulatedTime != every.SimulatedTime {
		t.Errorf("time %.17g s, every kind heard %.17g s", late.SimulatedTime, every.SimulatedTime)
	}
	return late, every
}

// TestMPISplitHearsDormantPollsLate runs HPL with the MPI split (emu
// sensitivity --mpi-time), which hears a dormant probe's polls late, and
// again with a hook of every kind beside it, which makes the World fire
// every poll (the event-by-event path the split took before): each rank's
// split and the sums per protocol and per MPI call must be the same floats
// (the shared sums too: the polls add only the probe's cost, and HPL makes
// no MPI_Test), and where the polls go dormant the engine fires several
// times fewer events, or the case tests nothing.
func TestMPISplitHearsDormantPollsLate(t *testing.T) {
	for _, tc := range dormantCases {
		t.Run(tc.name, func(t *testing.T) {
			got, ref := runHeardLateAndEvery(t, tc, runner.Options{MPISplit: true})
			if g, r := got.MPISplit.Ranks(), ref.MPISplit.Ranks(); !slices.Equal(g, r) {
				t.Errorf("ranks' split\n%+v\nevery kind heard\n%+v", g, r)
			}
			if g, r := got.MPISplit.Protocols(), ref.MPISplit.Protocols(); !slices.Equal(g, r) {
				t.Errorf("per protocol\n%+v\nevery kind heard\n%+v", g, r)
			}
			if g, r := got.MPISplit.Calls(), ref.MPISplit.Calls(); !slices.Equal(g, r) {
				t.Errorf("per call\n%+v\nevery kind heard\n%+v", g, r)
			}
			if float64(ref.Events) < tc.fewer*float64(got.Events) {
				t.Errorf("%d events fired, %d with every kind heard: want %g times fewer", got.Events, ref.Events, tc.fewer)
			}
		})
	}
}
