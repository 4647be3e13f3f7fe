package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
)

// A models file's kernels are the ones a run charges, unless the scenario
// itself says otherwise: the embedded default's placeholder dgemm and dtrsm
// (the SMPI study's) give way to a fitted file, as README's tour runs it
// (`emu fit ... -o models.toml; emu run --set kernels.models=models.toml`),
// where they silently replaced the fitted ones; a scenario's own inline table
// still comes over the file, and says so. The expected durations are the
// closed forms of the tables below, by hand.
func TestModelsFileOverInlineTables(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fitted.toml")
	fitted := "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\nintercept = 1e-5\n\n" +
		"[kernels.dtrsm]\nterms = [\"w\"]\ncoef = [3e-11]\nintercept = 2e-6\n"
	if err := os.WriteFile(file, []byte(fitted), 0o644); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(dir, "own.toml")
	ownText := strings.Replace(string(DefaultTOML()), "coef = [1.029e-11]\nintercept = 1.981e-12\n\n[kernels.dtrsm]",
		"coef = [5e-11]\nintercept = 0.0\n\n[kernels.dtrsm]", 1)
	if err := os.WriteFile(own, []byte(ownText), 0o644); err != nil {
		t.Fatal(err)
	}
	dgemm := models.Vars{M: 100, N: 200, K: 64} // m·n·k = 1,280,000
	dtrsm := models.Vars{M: 64, N: 300, K: 64, W: 64 * 64 * 300}
	tests := []struct {
		name       string
		load       func() (*Scenario, error)
		sets       []string
		dgemm      float64 // expected mean of dgemm(100, 200, 64)
		dtrsmFile  bool    // dtrsm is the file's
		wantShadow bool    // a note says an inline table comes over the file
	}{
		{"default alone: the study's", func() (*Scenario, error) { return Default(), nil }, nil,
			1.029e-11*1280000 + 1.981e-12, false, false},
		{"default with a models file: the file's", func() (*Scenario, error) { return Default(), nil },
			[]string{"kernels.models=" + file}, 2e-11*1280000 + 1e-5, true, false},
		{"default, a --set table over the file: the --set", func() (*Scenario, error) { return Default(), nil },
			[]string{"kernels.models=" + file, "kernels.dgemm.coef=[4e-11]"}, 4e-11*1280000 + 1.981e-12, true, true},
		{"a scenario's own inline table over the file", func() (*Scenario, error) { return Load(own) },
			[]string{"kernels.models=" + file}, 5e-11 * 1280000, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.load()
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range tc.sets {
				if err := s.Set(a); err != nil {
					t.Fatal(err)
				}
			}
			p, err := s.Validate()
			if err != nil {
				t.Fatal(err)
			}
			got := p.Kernels.Models.For("dgemm", "").Mean(dgemm)
			if rel := got/tc.dgemm - 1; rel > 1e-12 || rel < -1e-12 {
				t.Errorf("dgemm(100, 200, 64) = %g s, want %g", got, tc.dgemm)
			}
			fileTrsm := 3e-11*dtrsm.W + 2e-6
			if got := p.Kernels.Models.For("dtrsm", "").Mean(dtrsm); (got == fileTrsm) != tc.dtrsmFile {
				t.Errorf("dtrsm = %g s; the file's %g: want %v", got, fileTrsm, tc.dtrsmFile)
			}
			shadow := false
			for _, n := range p.Notes {
				if strings.Contains(n, "inline") && strings.Contains(n, "fitted.toml") {
					shadow = true
				}
			}
			if shadow != tc.wantShadow {
				t.Errorf("notes %q: a note of an inline table over the file = %v, want %v", p.Notes, shadow, tc.wantShadow)
			}
		})
	}
}
