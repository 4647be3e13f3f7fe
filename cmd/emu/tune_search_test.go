package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/hpldat"
	"github.com/emu-hpc/emu/tune"
)

// smallSpace is a CI-sized search space: 2×2 ranks (or 1×4), N = 8,000,
// 3 NBs × 3 broadcasts × 2 depths × 2 grids = 36 points.
var smallSpace = []string{"--set", "platform.hosts=4", "--set", "hpl.n=8000",
	"--sweep", "nb=32,64,128", "--sweep", "bcast=1ring,2ringM,long", "--sweep", "depth=0,1", "--sweep", "grid=2x2,1x4"}

// TestTuneSearchFindsGridBest: on a small space the search's best point is within 1%
// of the best of the whole grid (run here too), for fewer panels emulated and fewer
// whole runs, and the HPL.dat it writes reproduces that point's Gflops to the bit
// under `emu run --hpl-dat`.
func TestTuneSearchFindsGridBest(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runCLI(t, append([]string{"tune", "--quiet", "--out", filepath.Join(dir, "grid"),
		"--json", filepath.Join(dir, "grid.json")}, smallSpace...)...)
	if code != exitOK {
		t.Fatalf("grid: exit %d: %s", code, errOut)
	}
	var grid []tune.Result
	readJSON(t, filepath.Join(dir, "grid.json"), &grid)
	if len(grid) != 36 {
		t.Fatalf("grid: %d results, want 36", len(grid))
	}
	gridPanels := 0
	for _, r := range grid {
		gridPanels += r.Panels
	}

	datPath := filepath.Join(dir, "best.dat")
	code, out, errOut := runCLI(t, append([]string{"tune", "--quiet", "--search", "--out", filepath.Join(dir, "search"),
		"--json", filepath.Join(dir, "search.json"), "--write-hpl-dat", datPath}, smallSpace...)...)
	if code != exitOK {
		t.Fatalf("search: exit %d: %s", code, errOut)
	}
	var res tune.SearchResult
	readJSON(t, filepath.Join(dir, "search.json"), &res)
	if best := grid[0].Gflops; res.Best.Gflops < 0.99*best {
		t.Errorf("search found %s at %.6g Gflops, more than 1%% below the grid's best %s at %.6g", res.Best.Label, res.Best.Gflops, grid[0].Label, best)
	}
	if res.Panels >= gridPanels || res.Whole >= len(grid) {
		t.Errorf("search spent %d panels in %d whole runs; the grid %d in %d", res.Panels, res.Whole, gridPanels, len(grid))
	}
	if !strings.Contains(out, "best: ") || !strings.Contains(out, "reproduce with: emu run --hpl-dat "+datPath+" --set platform.hosts=4") {
		t.Errorf("search output lacks the best point or the command to reproduce it:\n%s", out)
	}

	runJSON := filepath.Join(dir, "run.json")
	if got := runGflops(t, "run --hpl-dat", runJSON, "run", "--hpl-dat", datPath, "--set", "platform.hosts=4", "--json", runJSON); len(got) != 1 || got[0] != res.Best.Gflops {
		t.Errorf("run --hpl-dat %s: Gflops %v, want one test at the search's %v", datPath, got, res.Best.Gflops)
	}

	// Rerunning the search finds every evaluation in its journal.
	code, out2, errOut := runCLI(t, append([]string{"tune", "--search", "--out", filepath.Join(dir, "search")}, smallSpace...)...)
	if code != exitOK || !strings.Contains(errOut, "tune: 0 evaluations (0 whole)") || !strings.Contains(out2, "best: "+stripFidelity(res.Best).Label()) {
		t.Errorf("resumed search: exit %d, stderr %q, output:\n%s", code, errOut, out2)
	}
}

// TestTuneMemoryFraction: --memory-fraction sets N as rule-based calculators do, per
// grid, and several fractions are an axis the search chooses on.
func TestTuneMemoryFraction(t *testing.T) {
	dir := t.TempDir()
	datPath := filepath.Join(dir, "best.dat")
	code, out, errOut := runCLI(t, "tune", "--quiet", "--search", "--out", filepath.Join(dir, "s"), "--write-hpl-dat", datPath,
		"--set", "platform.hosts=4", "--sweep", "grid=2x2", "--memory-fraction", "0.3,0.85", "--node-memory", "64MiB")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// 2×2 ranks, one per host: 4 nodes of 64 MiB. At 0.85:
	// N = ⌊√(0.85 · 4 · 2^26 B / 8 B)⌋ = ⌊5340.5⌋ = 5340, down to a multiple of NB = 64: 5312.
	// At 0.3: ⌊√(0.3 · 4 · 2^26 / 8)⌋ = 3172 → 3136. The larger problem runs at the
	// higher rate (Gflops grow with N while compute dominates), and is chosen.
	if !strings.Contains(out, "memory_fraction=0.85") {
		t.Errorf("best point is not the 0.85 fraction:\n%s", out)
	}
	d, err := hpldat.Parse([]byte(readFile(t, datPath)), datPath, 4)
	if err != nil || len(d.Ns) != 1 || d.Ns[0] != 5312 {
		t.Errorf("written N: %v %v, want [5312]", d.Ns, err)
	}
}

func TestMemoryN(t *testing.T) {
	tests := []struct {
		frac, mem         float64
		p, q, perHost, nb int
		want              int
	}{
		// ⌊√(0.85 · 4 · 2^26 / 8)⌋ = 5340 → 5312 (multiple of 64)
		{0.85, 1 << 26, 2, 2, 1, 64, 5312},
		// 16 ranks, 4 a node: 4 nodes, same memory as above
		{0.85, 1 << 26, 4, 4, 4, 64, 5312},
		// 6 ranks, 4 a node: 2 nodes; ⌊√(0.5 · 2 · 2^30 / 8)⌋ = 11585 → 11520 (NB 128)
		{0.5, 1 << 30, 2, 3, 4, 128, 11520},
		// too little memory for one block: N = NB
		{0.1, 1024, 1, 1, 1, 256, 256},
	}
	for _, tt := range tests {
		if got := memoryN(tt.frac, tt.mem, tt.p, tt.q, tt.perHost, tt.nb); got != tt.want {
			t.Errorf("memoryN(%v, %v, %dx%d, %d/host, NB %d) = %d, want %d", tt.frac, tt.mem, tt.p, tt.q, tt.perHost, tt.nb, got, tt.want)
		}
	}
}

func TestTuneSearchBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--search", "--sweep", "nb=32,64", "--set", "hpl.max_iterations=4"}, "--search sets hpl.max_iterations itself"},
		{[]string{"--search", "--sweep", "nb=32,64", "--slurm"}, "run locally only"},
		{[]string{"--search", "--sweep", "nb=32,64", "--set", "hpl.grids=[[1, 2], [2, 1]]"}, "must be one HPL test"},
		{[]string{"--sweep", "nb=32", "--memory-fraction", "0.8"}, "--node-memory"},
		{[]string{"--sweep", "nb=32", "--node-memory", "1GiB"}, "only meaningful with --memory-fraction"},
		{[]string{"--sweep", "nb=32", "--memory-fraction", "1.5", "--node-memory", "1GiB"}, "fractions in (0, 1]"},
		{[]string{"--sweep", "nb=32", "--memory-fraction", "NaN", "--node-memory", "1GiB"}, "fractions in (0, 1]"}, // NaN compares false either way
		{[]string{"--sweep", "nb=32", "--memory-fraction", "0.8", "--node-memory", "lots"}, "--node-memory"},
		// A bare number was bytes: a node of 1024 B ran every grid at N = NB.
		{[]string{"--sweep", "nb=32", "--memory-fraction", "0.8", "--node-memory", "1024"}, `--node-memory "1024": want a positive size with its unit, e.g. 32GiB`},
		{[]string{"--sweep", "nb=32", "--memory-fraction", "0.8", "--node-memory", "64e9"}, `--node-memory "64e9": want a positive size with its unit`},
		{[]string{"--sweep", "n=1000,2000", "--memory-fraction", "0.8", "--node-memory", "1GiB"}, "derives N"},
		{[]string{"--search", "--sweep", "pingpong.window=1,2", "--set", "app=pingpong"}, "app is pingpong"},
		// Values Search would silently replace by its defaults, and search flags without --search.
		{[]string{"--search", "--sweep", "nb=32,64", "--eta", "1"}, "--eta 1: want ≥ 2"},
		{[]string{"--search", "--sweep", "nb=32,64", "--growth", "0"}, "--growth 0: want ≥ 2"},
		{[]string{"--search", "--sweep", "nb=32,64", "--start-iterations", "-1"}, "--start-iterations -1: want ≥ 1"},
		{[]string{"--search", "--sweep", "nb=32,64", "--finalists", "0"}, "--finalists 0: want ≥ 1"},
		{[]string{"--sweep", "nb=32,64", "--write-hpl-dat", "best.dat"}, "--write-hpl-dat: only meaningful with --search"},
		{[]string{"--sweep", "nb=32,64", "--eta", "2"}, "--eta: only meaningful with --search"},
		{[]string{"--sweep", "nb=32,64", "--budget", "-1"}, "--budget -1: want ≥ 0"},
		{[]string{"--sweep", "nb=32,64", "--jobs", "0"}, "--jobs 0: want ≥ 1"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, append([]string{"tune", "--out", t.TempDir()}, tt.args...)...)
		if code != exitInput || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want status %d and one line with %q", tt.args, code, errOut, exitInput, tt.want)
		}
	}
}

// runGflops runs the CLI with args, which write a run's --json to runJSON,
// failing the test (what names the command) unless it exits 0, and returns
// the Gflops of each HPL test of the report.
func runGflops(t *testing.T, what, runJSON string, args ...string) []float64 {
	t.Helper()
	if code, _, errOut := runCLI(t, args...); code != exitOK {
		t.Fatalf("%s: exit %d: %s", what, code, errOut)
	}
	var run struct {
		Results []struct {
			Gflops float64 `json:"gflops"`
		} `json:"results"`
	}
	readJSON(t, runJSON, &run)
	gflops := make([]float64, len(run.Results))
	for i, r := range run.Results {
		gflops[i] = r.Gflops
	}
	return gflops
}

// readJSON decodes the JSON file at path into v, failing the test with the
// file's name when it cannot.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestTuneSearchKeepsMergedRolls: HPL.dat has no line for hpl.roll or
// hpl.pivot_exchange, so the command the search prints to reproduce its best
// point repeats the --set (and a swept roll), and that command gives the
// search's Gflops to the bit.
func TestTuneSearchKeepsMergedRolls(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"set", []string{"--set", "hpl.roll=merged", "--sweep", "bcast=long,longM"}, "--set hpl.roll=merged"},
		{"swept", []string{"--sweep", "bcast=long", "--sweep", "hpl.roll=steps,merged"}, "--set 'hpl.roll=\"merged\"'"},
		{"pivot exchange", []string{"--set", "hpl.pivot_exchange=uncontended"}, "--set hpl.pivot_exchange=uncontended"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			datPath := filepath.Join(dir, "best.dat")
			args := append([]string{"tune", "--quiet", "--search", "--out", filepath.Join(dir, "s"), "--json", filepath.Join(dir, "s.json"),
				"--write-hpl-dat", datPath, "--set", "platform.hosts=4", "--set", "hpl.n=3000", "--sweep", "nb=32,64", "--sweep", "grid=1x4"}, tc.args...)
			code, out, errOut := runCLI(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			_, command, ok := strings.Cut(out, "reproduce with: ")
			command = strings.TrimSpace(command)
			if !ok || !strings.Contains(command, tc.want) || strings.Contains(command, "max_iterations") {
				t.Fatalf("reproduce command %q lacks %q:\n%s", command, tc.want, out)
			}
			var res tune.SearchResult
			readJSON(t, filepath.Join(dir, "s.json"), &res)
			runJSON := filepath.Join(dir, "run.json")
			fields := strings.Fields(command)[2:] // after "emu run"; none holds a space
			for i, f := range fields {
				fields[i] = strings.Trim(f, "'") // as the shell would
			}
			if got := runGflops(t, command, runJSON, append([]string{"run", "--json", runJSON}, fields...)...); len(got) != 1 || got[0] != res.Best.Gflops {
				t.Errorf("%s: Gflops %v, want one test at the search's %v (%s)", command, got, res.Best.Gflops, res.Best.Label)
			}
		})
	}
}
