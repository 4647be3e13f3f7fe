package scenario

import (
	"testing"

	"github.com/emu-hpc/emu/hpldat"
)

// TestHPLDefaultsAreShippedDat: docs/reference/scenario-apps.md says an [hpl] table that
// leaves a single-valued key out takes HPL's shipped HPL.dat value. Those
// lines are checked against HPL 2.3's own file (hpldat/testdata/shipped.dat);
// U was left no-transposed, so emu's default run echoed "U : no-transposed
// form" where the shipped file says 0, transposed.
func TestHPLDefaultsAreShippedDat(t *testing.T) {
	shipped, err := hpldat.Parse(readFile(t, "../hpldat/testdata/shipped.dat"), "shipped.dat", 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte("[platform]\nhosts = 1\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	d := p.HPLDat
	for _, c := range []struct {
		line      string
		got, want any
	}{
		{"SWAP", d.Swap, shipped.Swap},
		{"swapping threshold", d.SwapThreshold, shipped.SwapThreshold},
		{"L1 form", d.L1Transposed, shipped.L1Transposed},
		{"U form", d.UTransposed, shipped.UTransposed},
		{"equilibration", d.Equilibration, shipped.Equilibration},
		{"alignment", d.Alignment, shipped.Alignment},
		{"PMAP", d.PMap, shipped.PMap},
		{"threshold", d.Threshold, shipped.Threshold},
	} {
		if c.got != c.want {
			t.Errorf("%s: default %v, HPL's shipped HPL.dat %v", c.line, c.got, c.want)
		}
	}
}
