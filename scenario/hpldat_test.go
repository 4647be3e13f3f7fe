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
