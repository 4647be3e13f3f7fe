package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// platform.hostfile places the ranks; the ranks a platform offers are the
// hostfile's lines (smpirun's default -np), more wrap round.
func TestHostfilePlacesRanks(t *testing.T) {
	dir := t.TempDir()
	hf := filepath.Join(dir, "hosts.txt")
	if err := os.WriteFile(hf, []byte("host-3\nhost-2\nhost-1\nhost-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := scenario.Default()
	for _, kv := range []string{"platform.hostfile=" + hf, "hpl.n=300"} {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Platform.Placement(6); !slices.Equal(got, []int{3, 2, 1, 0, 3, 2}) {
		t.Errorf("placement %v, want [3 2 1 0 3 2]", got)
	}
	if _, err := Run(p, Options{}); err != nil {
		t.Fatal(err)
	}
	// all four ranks on one host: every message takes the loopback (10 GB/s, 0 s),
	// so the run is faster than on four hosts behind 1 us links
	if err := os.WriteFile(hf, []byte("host-0:4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	one, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	r1, err := Run(one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r4, err := Run(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !(r1.HPL[0].Time < r4.HPL[0].Time) {
		t.Errorf("one host: %g s, four hosts: %g s; want one host faster", r1.HPL[0].Time, r4.HPL[0].Time)
	}
	// a grid larger than the hostfile's lines is refused as HPL refuses -np too small
	if err := os.WriteFile(hf, []byte("host-0\nhost-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), "a 4-process grid needs more ranks than the 2 the platform offers") {
		t.Errorf("2-line hostfile, 2×2 grid: %v", err)
	}
}
