package scenario

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultScenarioRuns(t *testing.T) {
	p, err := Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(RunOptions{Graph: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.HPL) != 1 || res.HPL[0] == nil || res.HPL[0].N != 2000 || res.HPL[0].Time <= 0 || res.Ranks != 4 {
		t.Fatalf("result %+v", res)
	}
	t.Logf("HPL %s: %.6f s, %.4g Gflops, simulated %.6f s, wall %.3f s, graph %d vertices",
		res.HPL[0].Variant, res.HPL[0].Time, res.HPL[0].Gflops, res.SimulatedTime, res.WallTime, res.Graph.NumVertices())
}

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
		s := Default()
		for _, kv := range append([]string{"network.model=cm02", "hpl.n=1000"}, sets...) {
			if err := s.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(RunOptions{Graph: true, GraphLatency: EndToEndLatency})
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
	s, err := Parse([]byte("app = \"pingpong\"\n[platform]\nhosts = 1\ncores_per_host = 2\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[pingpong]\nsizes = [8, 100000]\niterations = 2\n"), "lo.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(RunOptions{Graph: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Graph.Runtime([]float64{0}), res.Graph.Runtime([]float64{1}); a != b {
		t.Errorf("T(0) = %g, T(1 s) = %g: a loopback message carries a latency term", a, b)
	}
}

func TestRecordAndReplayPivots(t *testing.T) {
	// A real-mode run records its pivot rows; a model-mode run replaying them from the
	// file moves the same rows, so it sends the same messages and takes the same
	// simulated time (DESIGN.md: skipping the work may not change the timing).
	dir := t.TempDir()
	run := func(sets ...string) *Result {
		s := Default()
		for _, kv := range append([]string{"hpl.n=240", "hpl.nb=16"}, sets...) {
			if err := s.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		s.dir = dir
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(RunOptions{RecordPivots: p.Kernels.Mode.String() == "real"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	real := run("kernels.mode=real")
	if !real.HPL[0].Passed {
		t.Fatalf("real run failed its residual check: %+v", real.HPL[0])
	}
	if err := os.WriteFile(filepath.Join(dir, "pivots.txt"), FormatPivots(real.Pivots), 0o644); err != nil {
		t.Fatal(err)
	}
	replay := run("kernels.pivot=replay", "kernels.pivots=pivots.txt")
	if replay.SimulatedTime != real.SimulatedTime || replay.HPL[0].Time != real.HPL[0].Time {
		t.Errorf("replay: %.9f s (HPL %.9f); real: %.9f s (HPL %.9f)", replay.SimulatedTime, replay.HPL[0].Time, real.SimulatedTime, real.HPL[0].Time)
	}
	diag := run("kernels.pivot=diagonal")
	if diag.SimulatedTime == real.SimulatedTime {
		t.Errorf("the diagonal rule gives the real run's time too: the test cannot tell pivots apart")
	}
}

func TestParsePivotsErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0\n1\nx\n", "p.txt:3: \"x\" is not a row number"},
		{"# nothing\n", "p.txt: no pivot rows"},
		{"2\n0\n2\n", "p.txt: pivot of column 1 is row 0"},
	} {
		if _, err := ParsePivots([]byte(tt.in), "p.txt"); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.in, err, tt.want)
		}
	}
}
