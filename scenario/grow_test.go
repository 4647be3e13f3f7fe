package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultGrowsToTheGrid: on the embedded default with nothing naming the
// platform's size, an HPL.dat's or --set's largest grid gets as many
// single-core hosts as it has processes, and the run says so; once anything
// names the platform (platform.hosts, np, a hostfile, a platform file, or a
// scenario of the user's), a grid too large for it is refused as HPL would.
func TestDefaultGrowsToTheGrid(t *testing.T) {
	dir := t.TempDir()
	dat := filepath.Join(dir, "HPL.dat")
	data, err := os.ReadFile("../examples/HPL.dat") // grids 2×4 and 4×4
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dat, data, 0o644); err != nil {
		t.Fatal(err)
	}
	hosts := filepath.Join(dir, "hosts.txt")
	if err := os.WriteFile(hosts, []byte("host-0\nhost-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	xml := filepath.Join(dir, "c.xml")
	doc := "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-7\" speed=\"1Gf\" bw=\"10GBps\" lat=\"1us\"/>\n</platform>\n"
	if err := os.WriteFile(xml, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		useDat    bool
		xml       bool
		sets      []string
		wantHosts int    // 0: an error is wanted
		wantErr   string // in the error
	}{
		{"HPL.dat's 4×4 grid", true, false, nil, 16, ""},
		{"a --set grid", false, false, []string{"hpl.grids=[[4,8]]"}, 32, ""},
		{"cores per host", false, false, []string{"hpl.grids=[[4,8]]", "platform.cores_per_host=6"}, 6, ""},
		{"the default's own grid fits", false, false, nil, 4, ""},
		{"platform.hosts named", true, false, []string{"platform.hosts=8"}, 0, "a 16-process grid needs more ranks than the 8"},
		{"np named", false, false, []string{"hpl.grids=[[4,8]]", "platform.np=4"}, 0, "platform.np: a 32-process grid needs more ranks than the 4"},
		{"a hostfile", false, false, []string{"hpl.grids=[[4,8]]", "platform.hostfile=" + hosts}, 0, "a 32-process grid needs more ranks than the 2"},
		{"a platform file", true, true, nil, 0, "a 16-process grid needs more ranks than the 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Default()
			if tc.xml {
				if err := s.UsePlatformXML(xml); err != nil {
					t.Fatal(err)
				}
			}
			if tc.useDat {
				if err := s.UseHPLDat(dat); err != nil {
					t.Fatal(err)
				}
			}
			mustSet(t, s, tc.sets)
			p, err := s.Validate()
			if tc.wantHosts == 0 {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Platform.Hosts != tc.wantHosts {
				t.Errorf("%d hosts, want %d", p.Platform.Hosts, tc.wantHosts)
			}
			grew := false
			for _, n := range p.Notes {
				grew = grew || strings.Contains(n, "the default flat cluster grows")
			}
			if grew != (tc.wantHosts > 4) {
				t.Errorf("notes %q: a note of the growth = %v", p.Notes, grew)
			}
		})
	}

	// A scenario of the user's names its platform: it never grows.
	s, err := Parse([]byte(approxBase), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("hpl.grids=[[4,8]]"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), "a 32-process grid needs more ranks than the 4") {
		t.Errorf("a user's scenario: %v, want the grid refused", err)
	}
}

// TestDefaultTakesItsShapesSize: a fat tree, torus or dragonfly set over the
// embedded default has the hosts its shape says. The default's hosts = 4 was
// held against the shape ("default.toml:9: platform.hosts: 4, but the torus
// platform.torus has 8 hosts", a file the user never wrote), and a 4-node shape
// was grown to a larger grid like the flat cluster, its ranks then falling off
// the shape (exit 1: "ranks: rank 4 placed on host 4, topology has 4 hosts").
func TestDefaultTakesItsShapesSize(t *testing.T) {
	goal := filepath.Join(t.TempDir(), "ring.goal")
	ring := "num_ranks 3\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\nrank 2 {\nl1: calc 5\n}\n"
	if err := os.WriteFile(goal, []byte(ring), 0o644); err != nil {
		t.Fatal(err)
	}
	torus := []string{"platform.topology=torus"}
	for _, tc := range []struct {
		name      string
		replay    bool
		sets      []string
		wantHosts int    // 0: an error is wanted
		wantErr   string // the error, whole
	}{
		{"torus 2×2×2", false, append(torus, "platform.torus=[2,2,2]", "hpl.grids=2x4"), 8, ""},
		{"dragonfly of 16", false, []string{"platform.topology=dragonfly", "platform.dragonfly=2,1;2,1;2,1;2", "hpl.grids=4x4"}, 16, ""},
		{"fat tree of 16", false, []string{"platform.topology=fat-tree", "platform.fat_tree=2;4,4;1,2;1,2", "hpl.grids=2x2"}, 16, ""},
		{"torus of 1", false, append(torus, "platform.torus=[1]", "hpl.grids=1x1"), 1, ""},
		{"grid past a 4-node torus", false, append(torus, "platform.torus=[2,2]", "hpl.grids=2x4"), 0,
			"--set hpl.grids=2x4: hpl.grids: a 8-process grid needs more ranks than the 4 the platform offers (4 hosts × 1 cores)"},
		{"hosts named against the shape", false, append(torus, "platform.torus=[2,2,2]", "platform.hosts=4"), 0,
			"--set platform.hosts=4: platform.hosts: 4, but the torus platform.torus has 8 hosts"},
		{"trace past the torus", true, append(torus, "platform.torus=[2]"), 0,
			"--set platform.torus=[2]: platform.torus: 2 hosts × 1 cores hold 2 ranks, the run needs 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Default()
			if tc.replay {
				if err := s.UseReplay(goal); err != nil {
					t.Fatal(err)
				}
			}
			mustSet(t, s, tc.sets)
			p, err := s.Validate()
			if tc.wantHosts == 0 {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("got %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Platform.Hosts != tc.wantHosts {
				t.Errorf("%d hosts, want %d", p.Platform.Hosts, tc.wantHosts)
			}
			for _, n := range p.Notes {
				if strings.Contains(n, "grows") {
					t.Errorf("note %q: a shape does not grow", n)
				}
			}
		})
	}
}
