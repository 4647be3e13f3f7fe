package runner

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/scenario"
)

func TestDefaultScenarioRuns(t *testing.T) {
	p, err := scenario.Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(p, Options{Graph: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.HPL) != 1 || res.HPL[0] == nil || res.HPL[0].N != 2000 || res.HPL[0].Time <= 0 || res.Ranks != 4 {
		t.Fatalf("result %+v", res)
	}
	t.Logf("HPL %s: %.6f s, %.4g Gflops, simulated %.6f s, wall %.3f s, graph %d vertices",
		res.HPL[0].Variant, res.HPL[0].Time, res.HPL[0].Gflops, res.SimulatedTime, res.WallTime, res.Graph.NumVertices())
}

func TestRecordAndReplayPivots(t *testing.T) {
	// A real-mode run records its pivot rows; a model-mode run replaying them from the
	// file moves the same rows, so it sends the same messages and takes the same
	// simulated time (DESIGN.md: skipping the work may not change the timing).
	dir := t.TempDir()
	run := func(sets ...string) *Result {
		s := scenario.Default()
		for _, kv := range append([]string{"hpl.n=240", "hpl.nb=16"}, sets...) {
			if err := s.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(p, Options{RecordPivots: p.Kernels.Mode.String() == "real"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	real := run("kernels.mode=real")
	if !real.HPL[0].Passed {
		t.Fatalf("real run failed its residual check: %+v", real.HPL[0])
	}
	if err := os.WriteFile(filepath.Join(dir, "pivots.txt"), scenario.FormatPivots(real.Pivots), 0o644); err != nil {
		t.Fatal(err)
	}
	replay := run("kernels.pivot=replay", "kernels.pivots="+strconv.Quote(filepath.Join(dir, "pivots.txt")))
	if replay.SimulatedTime != real.SimulatedTime || replay.HPL[0].Time != real.HPL[0].Time {
		t.Errorf("replay: %.9f s (HPL %.9f); real: %.9f s (HPL %.9f)", replay.SimulatedTime, replay.HPL[0].Time, real.SimulatedTime, real.HPL[0].Time)
	}
	diag := run("kernels.pivot=diagonal")
	if diag.SimulatedTime == real.SimulatedTime {
		t.Errorf("the diagonal rule gives the real run's time too: the test cannot tell pivots apart")
	}
}

// A run whose ranks send no network message (one rank; two on one host) has
// no message latency to take the graph's baseline ℓ from: wire mode takes the
// platform's link latency, as for any other run on it, and the graph still
// gives the run's time there. The baseline said 0 s, and emu sensitivity
// "the run's L0 = 0 s", on a platform whose links have 3 us.
func TestGraphBaselineWithoutMessages(t *testing.T) {
	const doc = "app = \"hpl\"\n[platform]\nhosts = 2\ncores_per_host = 2\nlink_bandwidth = \"1GBps\"\nlink_latency = \"3us\"\n[hpl]\nn = 200\n"
	for _, tt := range []struct {
		name string
		sets []string
		want float64 // s
	}{
		{"one rank", []string{"hpl.grids=[[1,1]]"}, 3e-6},
		{"two ranks on one host", []string{"hpl.grids=[[1,2]]"}, 3e-6},
		{"two hosts: the messages'", []string{"hpl.grids=[[1,2]]", "platform.cores_per_host=1"}, 3e-6},
		{"end to end without messages", []string{"hpl.grids=[[1,1]]"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := varPlan(t, doc, tt.sets...)
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Graph: true}
			if tt.want == 0 {
				opt.GraphLatency = observe.EndToEndLatency
			}
			res, err := Run(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			b := res.Graph.Baseline()
			if len(b) == 0 || abs(b[0]-tt.want) > 1e-15 {
				t.Fatalf("baseline %v, want ℓ = %g s", b, tt.want)
			}
			if T := res.Graph.Runtime(b); abs(T-res.SimulatedTime) > 1e-12*res.SimulatedTime {
				t.Errorf("T(baseline) = %g s, the run %g s", T, res.SimulatedTime)
			}
		})
	}
}
