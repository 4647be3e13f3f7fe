package scenario

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScenario writes files into a temporary folder and returns it.
func writeScenario(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const replayPlatform = `
[platform]
topology = "fat-tree"
fat_tree = "2;4,2;1,2;1,1"
link_bandwidth = "10GBps"
link_latency = "1us"
speed = "1Gf"
`

// TestReplayScenarioErrors: [replay] is validated in one place, each error one
// line naming the scenario's key or the trace's file and line.
func TestReplayScenarioErrors(t *testing.T) {
	for _, tc := range []struct {
		name, scenario string
		files          map[string]string
		want           string
	}{
		{"no file", "app = \"replay\"\n" + replayPlatform, nil, "s.toml: replay.file: app = \"replay\" needs a trace file"},
		{"missing file", "app = \"replay\"\n[replay]\nfile = \"nope.txt\"\n" + replayPlatform, nil, "s.toml:3: replay.file: cannot read "},
		{"bad format", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\nformat = \"otf2\"\n" + replayPlatform,
			map[string]string{"t.txt": "0 compute 1\n"}, "s.toml:4: replay.format: unknown trace format \"otf2\" (goal or ti)"},
		{"trace for another app", "[replay]\nfile = \"t.txt\"\n" + replayPlatform,
			map[string]string{"t.txt": "0 compute 1\n"}, "s.toml:2: replay.file: a trace is given, but the scenario's app is hpl"},
		{"bad trace line", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\n" + replayPlatform,
			map[string]string{"t.txt": "0 compute 1\n0 jump 3\n"}, "t.txt:2: unknown action \"jump\""},
		{"too many ranks", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\n" + replayPlatform,
			map[string]string{"t.txt": "9 compute 1\n"}, "hold 8 ranks, the run needs 10"},
		{"GOAL given as TI", "app = \"replay\"\n[replay]\nfile = \"t.goal\"\nformat = \"ti\"\n" + replayPlatform,
			map[string]string{"t.goal": "num_ranks 1\nrank 0 {\ncalc 5\n}\n"}, "t.goal:1: want a rank number first"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantScenarioError(t, tc.scenario, tc.files, tc.want) })
	}
}

// wantScenarioError writes scenario as s.toml beside files, validates it and
// checks that the error is one line containing want.
func wantScenarioError(t *testing.T, scenario string, files map[string]string, want string) {
	t.Helper()
	all := map[string]string{"s.toml": scenario}
	for k, v := range files {
		all[k] = v
	}
	dir := writeScenario(t, all)
	s, err := Load(filepath.Join(dir, "s.toml"))
	if err == nil {
		_, err = s.Validate()
	}
	switch {
	case err == nil:
		t.Fatalf("no error, want %q", want)
	case !strings.Contains(err.Error(), want):
		t.Errorf("error %q\nwant it to contain %q", err, want)
	case strings.Contains(err.Error(), "\n"):
		t.Errorf("error of several lines: %q", err)
	}
}

// replayPlan writes a scenario replaying trace (relative to the scenario) and
// validates it.
func replayPlan(t *testing.T, trace string, sets ...string) *Plan {
	t.Helper()
	dir := writeScenario(t, map[string]string{
		"s.toml": "app = \"replay\"\n[replay]\nfile = \"sub/t.txt\"\n" + replayPlatform,
	})
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "t.txt"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	return loadPlan(t, filepath.Join(dir, "s.toml"), sets...)
}

// loadPlan loads the scenario file, applies the sets and validates it.
func loadPlan(t *testing.T, file string, sets ...string) *Plan {
	t.Helper()
	s, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReplayMatchesPingpong: one message of s bytes replayed from a trace takes
// what the pingpong app measures as its one-way time on the same platform (the
// SMPI model, its latency and bandwidth factor tables, the route across the fat
// tree from host 0 to host 1 through their leaf switch), for sizes on both sides
// of the eager threshold.
func TestReplayMatchesPingpong(t *testing.T) {
	sizes := []int{8, 1024, 65535, 65536, 1 << 20}
	pp := pingpongPlan(t, sizes)
	res, err := pp.Run(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, size := range sizes {
		p := replayPlan(t, fmt.Sprintf("0 send 1 0 %d\n1 recv 0 0 %d\n", size, size), "network.model=smpi")
		r, err := p.Run(RunOptions{})
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

func pingpongPlan(t *testing.T, sizes []int) *Plan {
	t.Helper()
	list := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(sizes)), ", "), "[]")
	dir := writeScenario(t, map[string]string{"p.toml": "app = \"pingpong\"\n[network]\nmodel = \"smpi\"\n[pingpong]\niterations = 3\nsizes = [" + list + "]\n" + replayPlatform})
	s, err := Load(filepath.Join(dir, "p.toml"))
	return mustPlan(t, s, err)
}

// TestDefaultScenarioSizedToTrace: emu run --replay FILE without a scenario or a
// platform runs on the default flat cluster, one host per rank.
func TestDefaultScenarioSizedToTrace(t *testing.T) {
	dir := writeScenario(t, map[string]string{"t.txt": "0 barrier\n1 barrier\n2 barrier\n3 barrier\n4 barrier\n5 barrier\n"})
	s := Default()
	if err := s.UseReplay(filepath.Join(dir, "t.txt")); err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if p.Ranks != 6 || p.Platform.Hosts != 6 || p.App != AppReplay {
		t.Errorf("plan: app %s, %d ranks on %d hosts", p.App, p.Ranks, p.Platform.Hosts)
	}
	if _, err := p.Run(RunOptions{}); err != nil {
		t.Fatal(err)
	}
	s = Default()
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
