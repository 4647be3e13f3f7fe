package main

import (
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
