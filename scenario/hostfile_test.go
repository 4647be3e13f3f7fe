package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// smpirun's hostfile (shared/reference/smpi-model.md §4.8): one host name a line,
// empty lines ignored, "name:N" standing for N lines; rank i runs on line i mod lines.
func TestParseHostfile(t *testing.T) {
	p := &Platform{Hosts: 4, Prefix: "node-", CoresPerHost: 1}
	for _, c := range []struct {
		name, text string
		want       []int
		err        string
	}{
		{"in order", "node-0\nnode-1\nnode-2\nnode-3\n", []int{0, 1, 2, 3}, ""},
		{"counts and blanks", "node-3:2\n\n  node-1  \r\nnode-0:1", []int{3, 3, 1, 0}, ""},
		{"byte order mark", "\ufeffnode-2\nnode-1\n", []int{2, 1}, ""},
		{"unknown host", "node-0\nnode-9\n", nil, "h.txt:2: host \"node-9\" is not in the platform (node-0 … node-3)"},
		{"zero count", "node-0:0\n", nil, "h.txt:1: \"node-0:0\": want name or name:N with N ≥ 1"},
		{"bad count", "node-0:x\n", nil, "h.txt:1: \"node-0:x\": want name or name:N with N ≥ 1"},
		{"empty", "\n\n", nil, "h.txt: no host names"},
	} {
		got, err := ParseHostfile([]byte(c.text), "h.txt", p)
		switch {
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: got error %v, want %q", c.name, err, c.err)
		}
	}
}

// platform.hostfile places the ranks; the ranks a platform offers are the
// hostfile's lines (smpirun's default -np), more wrap round.
func TestHostfilePlacesRanks(t *testing.T) {
	dir := t.TempDir()
	hf := filepath.Join(dir, "hosts.txt")
	if err := os.WriteFile(hf, []byte("host-3\nhost-2\nhost-1\nhost-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Default()
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
	if _, err := p.Run(RunOptions{}); err != nil {
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
	r1, err := one.Run(RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r4, err := p.Run(RunOptions{})
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

func FuzzParseHostfile(f *testing.F) {
	f.Add([]byte("node-0\nnode-1:2\n\n node-3 \n"))
	f.Add([]byte("node-9:0\n"))
	f.Add([]byte(":\n"))
	p := &Platform{Hosts: 4, Prefix: "node-", CoresPerHost: 1}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ParseHostfile(data, "h.txt", p)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "h.txt") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error without the file, or on several lines: %q", err)
			}
			return
		}
		for _, h := range rows {
			if h < 0 || h >= p.Hosts {
				t.Fatalf("host %d outside the platform", h)
			}
		}
	})
}
