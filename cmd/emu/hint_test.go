package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An HPL.dat or a platform XML given where the scenario TOML goes is a common slip:
// the error says which flag takes it.
// A trace (TI or GOAL) or an execution graph read as malformed TOML, without a
// word of --replay or emu analyze (qa51).
func TestRunHintsAtTheRightFlag(t *testing.T) {
	dir := t.TempDir()
	goal := writeIn(t, dir, "s.txt", "# a GOAL schedule\nnum_ranks 2\nrank 0 {\nl1: calc 100\n}\nrank 1 {\n}\n")
	graph := writeIn(t, dir, "g.graph", "EMUGRAPH\x02\x00\x01")
	for _, c := range []struct{ file, want string }{
		{"../../hpldat/testdata/shipped.dat", "(an HPL.dat goes with --hpl-dat FILE)"},
		{"../../examples/cluster.xml", "(a SimGrid platform goes with --platform FILE)"},
		{"../../examples/replay-ring.txt", "(a trace goes with --replay FILE)"},
		{goal, "(a trace goes with --replay FILE)"},
		{graph, "(an execution graph is read by emu analyze FILE)"},
	} {
		code, _, stderr := runCLI(t, "run", c.file)
		if code != exitInput || !strings.HasSuffix(strings.TrimSpace(stderr), c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("run %s: exit %d, stderr %q, want it to end with %q", c.file, code, stderr, c.want)
		}
	}
}

// A models file given as the scenario said only "platform.link_bandwidth:
// required", and a scenario, a models file or an HPL.dat given to emu fit or
// calibrate merge said "missing column "kernel"" or a CSV parser's words,
// without naming what the file is and where it goes (qa57).
func TestOtherInputsHintWhereTheyGo(t *testing.T) {
	dir := t.TempDir()
	models := writeIn(t, dir, "m.toml", "# emu fit of s.csv\n[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-10]\n")
	samples := writeIn(t, dir, "s.csv", "# my sweep\nkernel,host,m,n,k,seconds\ndgemm,h,1,2,3,1e-6\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", models}, "(a models file goes with --set kernels.models=FILE)"},
		{[]string{"run", samples}, "(a sample file is fitted into a models file by emu fit FILE)"},
		{[]string{"fit", models, "-o", filepath.Join(dir, "o.toml")}, "(a models file goes with --set kernels.models=FILE)"},
		{[]string{"fit", "../../examples/pingpong.toml", "-o", filepath.Join(dir, "o.toml")}, "(a scenario is given as emu run FILE.toml, without a flag)"},
		{[]string{"fit", "../../hpldat/testdata/shipped.dat", "-o", filepath.Join(dir, "o.toml")}, "(an HPL.dat goes with --hpl-dat FILE)"},
		{[]string{"calibrate", "merge", samples, models, "-o", filepath.Join(dir, "all.csv")}, "(a models file goes with --set kernels.models=FILE)"},
		// --hostfile of a scenario said only `host "[platform]" is not in the platform`
		{[]string{"run", "--hostfile", "../../examples/pingpong.toml"}, "(a scenario is given as emu run FILE.toml, without a flag)"},
		{[]string{"run", "--hostfile", "../../hpldat/testdata/shipped.dat"}, "(an HPL.dat goes with --hpl-dat FILE)"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitInput || !strings.HasSuffix(strings.TrimSpace(stderr), c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("emu %s: exit %d, stderr %q, want it to end with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
	for _, out := range []string{"o.toml", "all.csv"} {
		if _, err := os.Stat(filepath.Join(dir, out)); err == nil {
			t.Errorf("a refused input left %s behind", out)
		}
	}
}
