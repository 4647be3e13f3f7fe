package main

import (
	"strings"
	"testing"
)

// An HPL.dat or a platform XML given where the scenario TOML goes is a common slip:
// the error says which flag takes it.
func TestRunHintsAtTheRightFlag(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"../../hpldat/testdata/shipped.dat", "(an HPL.dat goes with --hpl-dat FILE)"},
		{"../../examples/cluster.xml", "(a SimGrid platform goes with --platform FILE)"},
	} {
		code, _, stderr := runCLI(t, "run", c.file)
		if code != exitInput || !strings.HasSuffix(strings.TrimSpace(stderr), c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("run %s: exit %d, stderr %q, want it to end with %q", c.file, code, stderr, c.want)
		}
	}
}
