package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Output flags that cannot all be written are input errors found before the run
// (exit 2, one line naming the flag), and no output of the run is left behind.
func TestRunRefusesUnwritableOutputsBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	js, gr := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.graph")
	missing := filepath.Join(dir, "no", "such", "dir")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"json is a folder", []string{"--json", dir, "--graph", gr}, "emu: --json " + dir + ": is a folder"},
		{"graph in a missing folder", []string{"--json", js, "--graph", filepath.Join(missing, "g")},
			"emu: --graph " + filepath.Join(missing, "g") + ": folder " + missing + " does not exist"},
		{"trace in a missing folder", []string{"--json", js, "--trace", filepath.Join(missing, "t.json")},
			"emu: --trace " + filepath.Join(missing, "t.json") + ": folder " + missing + " does not exist"},
		{"same file twice", []string{"--json", js, "--trace", js}, "emu: --trace " + js + ": also named by --json"},
		{"same file, other spelling", []string{"--json", js, "--graph", filepath.Join(dir, ".", "r.json")},
			"emu: --graph " + filepath.Join(dir, ".", "r.json") + ": also named by --json"},
		{"plot is a file", []string{"--json", js, "--plot", file}, "emu: --plot " + file + ": is a file, want a folder"},
		// A folder below a file cannot be made: the run went whole, then
		// failed (exit 1) on "mkdir …: not a directory", naming no flag.
		{"plot below a file", []string{"--json", js, "--plot", filepath.Join(file, "p", "q")},
			"emu: --plot " + filepath.Join(file, "p", "q") + ": " + file + " is a file, not a folder"},
		{"graph below a file", []string{"--json", js, "--graph", filepath.Join(file, "g")},
			"emu: --graph " + filepath.Join(file, "g") + ": " + file + " is a file, not a folder"},
		// "-" made a file of that name, where fit -o - and merge -o - write to standard output.
		{"json to -", []string{"--json", "-"}, "emu: --json -: want a file name (not standard output, which holds the report; /dev/stdout is a file name for it)"},
		{"plot to -", []string{"--json", js, "--plot", "-"}, "emu: --plot -: want a folder name"},
		{"pivots in a folder", []string{"--set", "kernels.mode=real", "--set", "hpl.n=50", "--json", js, "--record-pivots", dir},
			"emu: --record-pivots " + dir + ": is a folder"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"run", "-q", "--set", "hpl.n=100"}, c.args...)...)
		if code != exitInput || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q\nstderr %q\nwant   %q...", c.name, code, stdout, stderr, c.want)
		}
		checkNothingLeft(t, c.name, dir, []string{js, gr})
	}
}

// failedOutputsInputs makes a folder holding what the failed-output tests
// give fit and analyze: a sample file (writeSynthetic's) and a recorded graph.
func failedOutputsInputs(t *testing.T) (dir, samples, graph string) {
	t.Helper()
	dir = t.TempDir()
	samples, graph = filepath.Join(dir, "s.csv"), filepath.Join(dir, "run.graph")
	writeSynthetic(t, samples)
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--graph", graph); code != exitOK {
		t.Fatalf("recording a graph: exit %d: %s", code, stderr)
	}
	return dir, samples, graph
}

// checkNothingLeft fails the test for each of files that a failed or refused
// command (named by what) left behind, removing it so that the next case
// starts clean, and for any staging file (.NAME.tmp…) left in dir.
func checkNothingLeft(t *testing.T, what, dir string, files []string) {
	t.Helper()
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s: %s was left behind a failed command", what, f)
			os.Remove(f)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("%s: temporary files left: %v", what, left)
	}
}

// emu sensitivity checks its outputs before emulating too.
func TestSensitivityRefusesUnwritableOutputs(t *testing.T) {
	dir := t.TempDir()
	lp := filepath.Join(dir, "s.lp")
	code, stdout, stderr := runCLI(t, "sensitivity", "-q", "--set", "hpl.n=100", "--lp", lp, "--json", dir)
	want := "emu: --json " + dir + ": is a folder"
	if code != exitInput || !strings.HasPrefix(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q\nstderr %q\nwant   %q...", code, stdout, stderr, want)
	}
	if _, err := os.Stat(lp); err == nil {
		t.Errorf("%s was written", lp)
	}
}

// emu tune checks --csv, --json, --plot and --out before sweeping.
func TestTuneRefusesUnwritableOutputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sweep")
	code, stdout, stderr := runCLI(t, "tune", "-q", "--sweep", "nb=32,64", "--set", "hpl.n=100", "--out", out, "--csv", dir)
	want := "emu: --csv " + dir + ": is a folder"
	if code != exitInput || !strings.HasPrefix(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q\nstderr %q\nwant   %q...", code, stdout, stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the sweep ran into %s", out)
	}
}

// emu calibrate and calibrate merge name --out when it cannot be written.
func TestCalibrateRefusesAFolderForOut(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"calibrate", "--kernels", "dgemm", "--samples", "2", "-o", dir}, {"calibrate", "merge", "x.csv", "-o", dir}} {
		code, _, stderr := runCLI(t, args...)
		if want := "emu: --out " + dir + ": is a folder"; code != exitInput || !strings.HasPrefix(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q, want %q...", args, code, stderr, want)
		}
	}
}

// Two --sweep axes of one key (a short name and its dotted key) are refused: the
// later would override the earlier in every point, under a label naming both.
func TestTuneRefusesAKeySweptTwice(t *testing.T) {
	code, _, stderr := runCLI(t, "tune", "-q", "--sweep", "nb=32", "--sweep", "hpl.nb=64", "--out", filepath.Join(t.TempDir(), "s"))
	if want := "emu: sweep \"hpl.nb=64\": hpl.nb is already swept by \"nb=32\"\n"; code != exitInput || stderr != want {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// A --plot folder goes with the command's files, whole or none: a failure
// while its figures are drawn leaves neither a figure nor the other outputs.
// Here the second figure's name is taken by a folder, so that drawing it fails
// after the first is drawn; sensitivity, analyze, fit and tune wrote their
// figures in place, and the first stayed behind an exit 1.
func TestFailedPlotLeavesNoFigures(t *testing.T) {
	dir, samples, graph := failedOutputsInputs(t)
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, c := range []struct {
		name    string
		args    []string // the plot folder is appended
		blocked string   // the figure whose name a folder takes: not the first drawn
		files   []string // the other outputs, which must not be left
	}{
		{"sensitivity", []string{"sensitivity", "-q", "--set", "hpl.n=100", "--json", out("s.json")}, "lambda_L.svg", []string{out("s.json")}},
		{"analyze", []string{"analyze", graph, "--json", out("a.json")}, "lambda_L.svg", []string{out("a.json")}},
		{"fit", []string{"fit", samples, "--family", "M1-N0", "--report", out("f.json"), "-o", out("f.toml")}, "dgemm-residuals.svg",
			[]string{out("f.json"), out("f.toml")}},
		{"tune", []string{"tune", "-q", "--sweep", "nb=32,64", "--sweep", "depth=0,1", "--set", "hpl.n=100", "--out", out("sweep"), "--csv", out("t.csv")},
			"gflops_vs_hpl_depth.svg", []string{out("t.csv")}},
	} {
		plots := out(c.name + "-plots")
		if err := os.MkdirAll(filepath.Join(plots, c.blocked), 0o755); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, append(c.args, "--plot", plots)...)
		if code != exitFailure || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line", c.name, code, stderr, exitFailure)
		}
		if left, _ := os.ReadDir(plots); len(left) != 1 {
			var names []string
			for _, e := range left {
				names = append(names, e.Name())
			}
			t.Errorf("%s: the plot folder holds %v, want only the folder %s", c.name, names, c.blocked)
		}
		checkNothingLeft(t, c.name, dir, c.files)
	}
}

// An output that names one of the command's inputs would replace the file the
// command read (a scenario, an HPL.dat, a models file, a graph, the samples of
// a calibration): refused before any work, exit 2, the input left as it was.
// A file read back on purpose stays writable: calibrate's own sample file
// (resumed), merge's and --rescale's -o (updated in place).
func TestOutputsRefuseInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeIn(t, dir, name, text) }
	scen := write("s.toml", "app = \"pingpong\"\n[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[pingpong]\nsizes = [8]\niterations = 1\n")
	hplScen := write("h.toml", "[platform]\nhosts = 1\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[hpl]\nn = 100\n")
	dat := write("HPL.dat", string(mustRead(t, "../../examples/HPL.dat")))
	samples := write("samples.csv", "index,plan,host,core,kernel,m,n,k,seconds\n")
	models := write("models.toml", "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n")
	modelScen := write("m.toml", "[platform]\nhosts = 1\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[kernels]\nmodels = \"models.toml\"\n[hpl]\nn = 100\n")
	graph := filepath.Join(dir, "g.graph")
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--graph", graph); code != 0 {
		t.Fatalf("recording the graph: exit %d: %s", code, stderr)
	}
	inputs := []string{scen, hplScen, dat, samples, models, modelScen, graph}
	before := map[string][]byte{}
	for _, p := range inputs {
		before[p] = mustRead(t, p)
	}
	for _, c := range []struct {
		args []string
		flag string // the refused output flag and the input it names
		file string
	}{
		{[]string{"run", "-q", scen, "--json", scen}, "--json", scen},
		{[]string{"run", "-q", scen, "--links", filepath.Join(dir, ".", "s.toml")}, "--links", filepath.Join(dir, ".", "s.toml")},
		{[]string{"run", "-q", "--hpl-dat", dat, "--set", "hpl.n=100", "--trace", dat}, "--trace", dat},
		{[]string{"run", "-q", modelScen, "--json", models}, "--json", models},
		{[]string{"analyze", graph, "--json", graph}, "--json", graph},
		{[]string{"sensitivity", "-q", hplScen, "--lp", hplScen}, "--lp", hplScen},
		{[]string{"sensitivity", "-q", "--delay", "0,1us", scen, "--json", scen}, "--json", scen},
		{[]string{"tune", "-q", scen, "--sweep", "pingpong.iterations=1,2", "--out", filepath.Join(dir, "t"), "--csv", scen}, "--csv", scen},
		{[]string{"explain", "-q", modelScen, "--json", models}, "--json", models},
		{[]string{"fit", samples, "-o", samples}, "-o", samples},
		{[]string{"calibrate", hplScen, "-o", hplScen}, "--out", hplScen},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		want := "emu: " + c.flag + " " + c.file + ": is an input of this command"
		if code != exitInput || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q\nstderr %q\nwant   %q...", c.args, code, stdout, stderr, want)
		}
		for _, p := range inputs {
			if got := mustRead(t, p); string(got) != string(before[p]) {
				t.Fatalf("%v: %s was rewritten", c.args, p)
			}
		}
	}
	// The embedded default has no file: a --json named default.toml is no input.
	out := filepath.Join(dir, "default.toml")
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", out); code != 0 {
		t.Errorf("--json default.toml: exit %d: %s", code, stderr)
	}
}
