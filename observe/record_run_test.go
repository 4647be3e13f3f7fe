package observe_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// The graph recorder in whole runs: the graph evaluated at the recorded
// latencies gives the run's simulated time, for HPL, pingpong and replays.

func TestGraphOfHPLReproducesItsTime(t *testing.T) {
	// Under cm02 every network message of the default 2×2 HPL has the same latency,
	// the flat route's 2 × 1 us, and the graph evaluated there must give the
	// simulated time — also with SimGrid's growing Iprobe cost, which the recorder
	// keeps as local time, and for every broadcast family and depth. One latency
	// more per message can only add time.
	for _, sets := range [][]string{
		{"network.iprobe_cost=0", "network.test_cost=0"},
		{},                           // Iprobe 1e-4 s with SimGrid's growing counter
		{"network.iprobe_cost=1e-6"}, // the peers' reference setting
		{"hpl.bcast=long", "hpl.depth=0"},
		{"hpl.bcast=2ringM", "hpl.depth=0", "hpl.swap=binary-exchange"},
		{"hpl.bcast=1ring", "network.eager_threshold=1MiB"},
	} {
		p := plan(t, append([]string{"network.model=cm02", "hpl.n=1000"}, sets...))
		res, err := runner.Run(p, runner.Options{Graph: true, GraphLatency: observe.EndToEndLatency})
		if err != nil {
			t.Fatal(err)
		}
		const route = 2e-6 // s
		// graphTol is relative: the graph's longest path and the engine's
		// clock add the same durations in different orders.
		const graphTol = 1e-9
		if res.GraphL != route {
			t.Errorf("%v: baseline latency %g s, want the route's %g s", sets, res.GraphL, route)
		}
		if got := res.Graph.Runtime([]float64{route}); math.Abs(got-res.SimulatedTime) > graphTol*res.SimulatedTime {
			t.Errorf("%v: graph T(2us) = %.9f s, simulated %.9f s", sets, got, res.SimulatedTime)
		}
		if more := res.Graph.Runtime([]float64{2 * route}); !(more > res.SimulatedTime) {
			t.Errorf("%v: T(4us) = %.9f s is not above T(2us)", sets, more)
		}
	}
}

func TestGraphLoopbackHasNoLatency(t *testing.T) {
	// Two ranks on one host: their messages use the loopback, so T(ℓ) ignores ℓ.
	s, err := scenario.Parse([]byte("app = \"pingpong\"\n[platform]\nhosts = 1\ncores_per_host = 2\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[pingpong]\nsizes = [8, 100000]\niterations = 2\n"), "lo.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(p, runner.Options{Graph: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Graph.Runtime([]float64{0}), res.Graph.Runtime([]float64{1}); a != b {
		t.Errorf("T(0) = %g, T(1 s) = %g: a loopback message carries a latency term", a, b)
	}
}

// TestReplayGraph: a replay records the execution graph like an HPL run, and
// the graph evaluated at the recorded latency is the replay's time; moved to
// another link latency it is the time of the replay re-run there (no
// contention changes the order here: a chain of messages across the leaves).
func TestReplayGraph(t *testing.T) {
	trace := `0 compute 1e6
0 send 4 1 1000
4 recv 0 1 1000
4 compute 2e6
4 send 5 2 100000
5 recv 4 2 100000
5 allreduce 1 10
0 allreduce 1 10
1 allreduce 1 10
2 allreduce 1 10
3 allreduce 1 10
4 allreduce 1 10
6 allreduce 1 10
7 allreduce 1 10
`
	run := func(lat string) (float64, *runner.Result) {
		p := replayPlan(t, trace, "network.model=cm02", "network.tcp_gamma=0", "platform.link_latency="+lat)
		res, err := runner.Run(p, runner.Options{Graph: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.SimulatedTime, res
	}
	end, res := run("1us")
	g := res.Graph
	if g == nil || g.Ranks() != 8 {
		t.Fatalf("graph %v", g)
	}
	const graphTol = 1e-12 // s: the same durations added in another order
	if got := g.Runtime(g.Baseline()); math.Abs(got-end) > graphTol {
		t.Errorf("T(L) at the recorded L = %v: %.15g s, replay %.15g s", g.Baseline(), got, end)
	}
	endMore, _ := run("4us")
	if got := g.Runtime([]float64{4e-6}); math.Abs(got-endMore) > graphTol {
		t.Errorf("T(4 µs) = %.15g s, the replay re-run with 4 µs links %.15g s", got, endMore)
	}
}

// TestReplayGraphGOAL: TestReplayGraph for GOAL schedules of the LogGOPSim study
// under SMPI's model and factor tables, on the default cluster sized to the
// trace — a stencil and a linear alltoall whose 32 ranks contend for links.
func TestReplayGraphGOAL(t *testing.T) {
	for _, f := range []string{"stencil2d_8x8_it50.goal", "linear_alltoall_32.goal"} {
		s := scenario.Default()
		if err := s.UseReplay(filepath.Join("..", "loggops", "testdata", "loggopsim", "goal", f)); err != nil {
			t.Fatal(err)
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		res, err := runner.Run(p, runner.Options{Graph: true})
		if err != nil {
			t.Fatal(err)
		}
		const relTol = 1e-12 // the same durations added in another order
		if got, end := res.Graph.Runtime(res.Graph.Baseline()), res.SimulatedTime; math.Abs(got-end) > relTol*end {
			t.Errorf("%s: T at the recorded latencies %.15g s, replay %.15g s", f, got, end)
		}
	}
}
