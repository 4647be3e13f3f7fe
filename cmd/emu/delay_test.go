package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/sensitivity"
)

// TestDelaySensitivityCLI: emu sensitivity --delay over two scenarios, a
// replayed ping-pong (c_a = 1 by the normalisation's definition: slope 2k,
// m̄ = 2k) and a 4-rank token ring of 3 timed laps and one untimed after its
// barrier (c_a = (2 + 16)/(2·(2 + 4)) = 1.5, runner.TestDelaySensitivityRing), ranked ring
// first; the JSON holds the same fits.
func TestDelaySensitivityCLI(t *testing.T) {
	const k = 5
	trace := strings.Repeat("0 send 1 0 8\n1 recv 0 0 8\n1 send 0 0 8\n0 recv 1 0 8\n", k)
	files := map[string]string{
		"pp.txt":    trace,
		"pp.toml":   "app = \"replay\"\n[replay]\nfile = \"pp.txt\"\n[platform]\nhosts = 2\nlink_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\n[network]\nmodel = \"cm02\"\n",
		"ring.toml": "app = \"ring\"\n[platform]\nhosts = 4\nlink_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\n[network]\nmodel = \"cm02\"\n[ring]\nsizes = [8]\niterations = 3\n",
	}
	dir := scenariotest.WriteScenario(t, files)
	out := filepath.Join(dir, "d.json")
	code, stdout, stderr := runCLI(t, "sensitivity", "--delay", "0,1us,3us", filepath.Join(dir, "pp.toml"), filepath.Join(dir, "ring.toml"), "--json", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Delays []float64 `json:"delays_s"`
		Apps   []struct {
			Name string  `json:"name"`
			CA   float64 `json:"c_a"`
			R2   float64 `json:"r2"`
		} `json:"apps"`
	}
	readJSON(t, out, &doc)
	if len(doc.Apps) != 2 || len(doc.Delays) != 3 {
		t.Fatalf("JSON %s", mustRead(t, out))
	}
	const eps = 1e-9
	if a := doc.Apps[0]; !strings.HasSuffix(a.Name, "ring.toml") || math.Abs(a.CA-1.5) > eps {
		t.Errorf("first %s c_a %v, want ring.toml 1.5", a.Name, a.CA)
	}
	if a := doc.Apps[1]; !strings.HasSuffix(a.Name, "pp.toml") || math.Abs(a.CA-1) > eps {
		t.Errorf("second %s c_a %v, want pp.toml 1", a.Name, a.CA)
	}
	if !strings.Contains(stdout, "c_a") {
		t.Errorf("no table:\n%s", stdout)
	}
}

// TestDelaySensitivityBadInput: one line, exit 2, naming the flag or key.
func TestDelaySensitivityBadInput(t *testing.T) {
	goal := filepath.Join(t.TempDir(), "s.goal")
	if err := os.WriteFile(goal, []byte("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--delay", "2us"}, "--delay: \"2us\": give two delays or more"},
		{[]string{"--delay", "0,2"}, "--delay: \"2\": want a duration with a unit"},
		{[]string{"--delay", "0,2us", "--range", "1us:2us"}, "--delay: --range steers"},
		{[]string{"--delay", "0,2us", "--set", "network.message_delay_dist=normal"}, "network.message_delay_dist: unknown delay distribution \"normal\""},
		{[]string{"a.toml", "b.toml"}, "several scenarios only with --delay"},
		{[]string{"--delay", "2us,2us"}, "give two delays or more"},
		// Ensembles belong to --verify: a delay sweep ran each delay once and dropped them (exit 0).
		{[]string{"--delay", "0,1us", "--perturb", "2"}, "--delay: --perturb makes ensembles of --verify's re-emulations"},
		{[]string{"--delay", "0,1us", "--seeds", "3"}, "--delay: --seeds makes ensembles"},
		{[]string{"--delay", "0,1us", "--jobs", "2"}, "--delay: --jobs makes ensembles"},
		// HPL on one rank sends nothing: no delay to measure (was exit 1, "give delays that differ").
		{[]string{"--delay", "0,2us", "--set", "hpl.grids=[[1,1]]"}, "(default): delay sensitivity: the run sends no message"},
		// What the sweep cannot run exited 1, as emu's own failure, after the other scenarios had run.
		{[]string{"--delay", "0,2us", "testdata/pingpong.toml", "../../examples/jobs-congestor.toml"}, "jobs-congestor.toml: a delay sweep runs one application, not a scenario's [[jobs]]"},
		{[]string{"--delay", "0,2us", "--replay", goal, "--set", "replay.semantics=loggops"}, `s.goal: replay.semantics = "loggops" runs no ranks to delay messages of`},
	} {
		code, _, stderr := runCLI(t, append([]string{"sensitivity"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestDelaySensitivityOfATrace: with --replay and no scenario the row is
// named after the trace (it read "(default)", the embedded scenario's name,
// for every trace). A token ring of n ranks, one lap, is n messages in a
// row: slope n, m̄ = 2, c_a = n/2; a ping-pong c_a = 1.
func TestDelaySensitivityOfATrace(t *testing.T) {
	ring := func(n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "0 send 1 0 8\n0 recv %d 0 8\n", n-1)
		for r := 1; r < n; r++ {
			fmt.Fprintf(&b, "%d recv %d 0 8\n%d send %d 0 8\n", r, r-1, r, (r+1)%n)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, trace string
		ca          float64
	}{
		{"pp.txt", strings.Repeat("0 send 1 0 8\n1 recv 0 0 8\n1 send 0 0 8\n0 recv 1 0 8\n", 3), 1},
		{"ring3.txt", ring(3), 1.5},
		{"ring5.txt", ring(5), 2.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scenariotest.WriteScenario(t, map[string]string{tc.name: tc.trace})
			trace, out := filepath.Join(dir, tc.name), filepath.Join(dir, "d.json")
			code, stdout, stderr := runCLI(t, "sensitivity", "-q", "--delay", "0,1us,3us", "--replay", trace, "--set", "network.model=cm02", "--json", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var doc struct {
				Apps []struct {
					Name string  `json:"name"`
					CA   float64 `json:"c_a"`
				} `json:"apps"`
			}
			readJSON(t, out, &doc)
			if len(doc.Apps) != 1 || doc.Apps[0].Name != trace || math.Abs(doc.Apps[0].CA-tc.ca) > 1e-9 || !strings.Contains(stdout, trace) {
				t.Errorf("JSON %s\ntable:\n%s\nwant the row %s, c_a %g", mustRead(t, out), stdout, trace, tc.ca)
			}
		})
	}
}

// TestDelayTableSaysWhenTFalls: a T that falls as the delay grows (as
// examples/dragonfly.toml's 16×16 HPL: 2.481 s at 5 µs, 1.243 s at 10 µs)
// gets one line under its runs naming the fall and the command that gives
// one delay's spread; a T that grows gets none. R² by hand: M evenly spaced
// (mean 19.6 µs), Σ(ΔM)² = 46.08, ΣΔMΔT = 4.8·0.377 = 1.8096, slope 0.03927,
// explained 0.0711 of Σ(ΔT)² = 1.4277: 0.050.
func TestDelayTableSaysWhenTFalls(t *testing.T) {
	pts := []sensitivity.DelayPoint{{Delay: 0, M: 14.8e-6, T: 0.866, Messages: 9}, {Delay: 5e-6, M: 19.6e-6, T: 2.481, Messages: 9}, {Delay: 10e-6, M: 24.4e-6, T: 1.243, Messages: 9}}
	for _, tc := range []struct {
		name string
		pts  []sensitivity.DelayPoint
		want string // "" for no line
	}{
		{"examples/dragonfly.toml", pts, "  T falls from 2.481000 s at 5.000000 µs to 1.243000 s at 10.000000 µs: this run's order of events moves with its timing (as HPL's polling broadcasts do), so one run a delay moves by more than the delay does (R² 0.050); one delay's spread: emu run with the same inputs and --set network.message_delay=10us --perturb 8\n"},
		{"grows.toml", pts[:2], ""},
	} {
		d, err := sensitivity.FitDelay(tc.name, 2, tc.pts)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := writeDelayTable(&b, []sensitivity.DelaySensitivity{d}); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		switch {
		case tc.want == "" && strings.Contains(got, "falls"):
			t.Errorf("%s: a fall reported:\n%s", tc.name, got)
		case tc.want != "" && !strings.HasSuffix(got, tc.want):
			t.Errorf("%s: got\n%s\nwant it to end with\n%s", tc.name, got, tc.want)
		}
	}
}
