package runner

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

// TestReplayMatchesPingpong: one message of s bytes replayed from a trace takes
// what the pingpong app measures as its one-way time on the same platform (the
// SMPI model, its latency and bandwidth factor tables, the route across the fat
// tree from host 0 to host 1 through their leaf switch), for sizes on both sides
// of the eager threshold.
func TestReplayMatchesPingpong(t *testing.T) {
	sizes := []int{8, 1024, 65535, 65536, 1 << 20}
	pp := pingpongPlan(t, sizes)
	res, err := Run(pp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, size := range sizes {
		p := replayPlan(t, fmt.Sprintf("0 send 1 0 %d\n1 recv 0 0 %d\n", size, size), "network.model=smpi")
		r, err := Run(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Relative: pingpong averages a round trip, whose sum rounds differently.
		const relTol = 1e-9
		if want := res.Pingpong[i].OneWay; math.Abs(r.SimulatedTime-want) > relTol*want {
			t.Errorf("%d bytes: replay %.12g s, pingpong's one-way %.12g s", size, r.SimulatedTime, want)
		}
	}
}

// TestDefaultScenarioSizedToTrace: emu run --replay FILE without a scenario or a
// platform runs on the default flat cluster, one host per rank.
func TestDefaultScenarioSizedToTrace(t *testing.T) {
	dir := scenariotest.WriteScenario(t, map[string]string{"t.txt": "0 barrier\n1 barrier\n2 barrier\n3 barrier\n4 barrier\n5 barrier\n"})
	s := scenario.Default()
	if err := s.UseReplay(filepath.Join(dir, "t.txt")); err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if p.Ranks != 6 || p.Platform.Hosts != 6 || p.App != scenario.AppReplay {
		t.Errorf("plan: app %s, %d ranks on %d hosts", p.App, p.Ranks, p.Platform.Hosts)
	}
	if _, err := Run(p, Options{}); err != nil {
		t.Fatal(err)
	}
	s = scenario.Default()
	if err := s.UseReplay(filepath.Join(dir, "t.txt")); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("platform.hosts=4"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), "the run needs 6") {
		t.Errorf("platform.hosts set to 4 for 6 ranks: err = %v", err)
	}
}

// replayPlan writes a scenario replaying trace (relative to the scenario) and
// validates it.
func replayPlan(t *testing.T, trace string, sets ...string) *scenario.Plan {
	t.Helper()
	return plantest.Load(t, scenariotest.WriteReplay(t, trace), sets...)
}

func pingpongPlan(t *testing.T, sizes []int) *scenario.Plan {
	t.Helper()
	list := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(sizes)), ", "), "[]")
	dir := scenariotest.WriteScenario(t, map[string]string{"p.toml": "app = \"pingpong\"\n[network]\nmodel = \"smpi\"\n[pingpong]\niterations = 3\nsizes = [" + list + "]\n" + scenariotest.ReplayPlatform})
	s, err := scenario.Load(filepath.Join(dir, "p.toml"))
	return mustPlan(t, s, err)
}
