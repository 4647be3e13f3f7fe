package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/hpldat"
)

// TestDefaultHPLDatRoundTrips: the [hpl] table's parameters (the embedded
// default scenario) written as an HPL.dat read back to the same tests.
func TestDefaultHPLDatRoundTrips(t *testing.T) {
	plan, err := Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	back, err := hpldat.Parse(hpldat.Format(*plan.HPLDat), "written.dat", plan.Ranks)
	if err != nil || !reflect.DeepEqual(back.Tests(), plan.HPL) {
		t.Errorf("default scenario: %v\n got %+v\nwant %+v", err, back.Tests(), plan.HPL)
	}
}

// TestHPLDatCursorNote: an HPL.dat that a real HPL reads otherwise (blanks
// before a list line's first value) runs as emu reads it, with a note naming
// the file, the line and what xhpl would read; one HPL reads alike has none.
func TestHPLDatCursorNote(t *testing.T) {
	data, err := os.ReadFile("../examples/HPL.dat")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, tc := range []struct {
		name  string
		ns    string // line 6
		sets  []string
		notes int
	}{
		{"as shipped", lines[5], nil, 0},
		{"two leading blanks", "  " + lines[5], nil, 1},
		{"two leading blanks, N set", "  " + lines[5], []string{"hpl.n=1000"}, 0}, // the line is not read
	} {
		lines[5] = tc.ns
		dat := filepath.Join(t.TempDir(), "HPL.dat")
		if err := os.WriteFile(dat, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		s := Default()
		if err := s.UseHPLDat(dat); err != nil {
			t.Fatal(err)
		}
		mustSet(t, s, tc.sets)
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, note := range p.Notes {
			if strings.Contains(note, "a real HPL 2.3 reads N here as") && strings.HasPrefix(note, dat+":6: ") {
				n++
			}
		}
		if n != tc.notes {
			t.Errorf("%s: %d cursor notes in %q, want %d", tc.name, n, p.Notes, tc.notes)
		}
	}
}

// TestHPLDatGridsReplacedBySet: an HPL.dat whose grid is larger than the
// platform is refused at its line 12, unless --set hpl.grids replaces its
// grids, when the grids run are the ones checked (a site's HPL.dat of a large
// cluster tried on a small one). It was refused at line 12 either way.
func TestHPLDatGridsReplacedBySet(t *testing.T) {
	data, err := os.ReadFile("../examples/HPL.dat")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	lines[10] = "30 4         Ps" // grids 30x4 and 4x4 on line 11, 12
	dat := filepath.Join(t.TempDir(), "HPL.dat")
	if err := os.WriteFile(dat, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sets  []string
		err   string // "" runs
		grids int    // tests' grids when it runs
	}{
		{nil, dat + ":12: a 120-process grid needs more ranks than the 16", 0},
		{[]string{"hpl.grids=2x2"}, "", 1},
		{[]string{"hpl.grids=[[4,4],[2,8]]"}, "", 2},
		{[]string{"hpl.grids=8x4"}, "hpl.grids: a 32-process grid needs more ranks than the 16", 0},
		{[]string{"hpl.n=100"}, dat + ":12: a 120-process grid", 0},
	} {
		s := Default()
		if err := s.UseHPLDat(dat); err != nil {
			t.Fatal(err)
		}
		mustSet(t, s, append([]string{"platform.hosts=16"}, tc.sets...))
		p, err := s.Validate()
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one with %q", tc.sets, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.sets, err)
		default:
			grids := map[[2]int]bool{}
			for _, test := range p.HPL {
				grids[[2]int{test.P, test.Q}] = true
			}
			if len(grids) != tc.grids {
				t.Errorf("%q: grids %v, want %d", tc.sets, grids, tc.grids)
			}
		}
	}
}
