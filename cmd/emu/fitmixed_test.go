package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
)

// TestFitNotesMixedBackendsAndClocks: samples of one kernel measured with
// two BLAS backends (two nodes' files merged, one node calibrated with two
// builds) or two clocks are fitted into one model, which is neither's; fit
// says so, naming each with its samples, and says nothing where they
// agree or where a file does not say (other tools' CSVs). Before, they
// were pooled without a word (qa34 left it).
func TestFitNotesMixedBackendsAndClocks(t *testing.T) {
	for _, tc := range []struct {
		name          string
		backends      [2]string // of hosts h1 and h2
		clocks        [2]string
		want, wantNot string
	}{
		{"one backend, one clock", [2]string{"gonum", "gonum"}, [2]string{"wall", "wall"}, "", "emu: note: dgemm"},
		{"two backends", [2]string{"gonum", "openblas"}, [2]string{"wall", "wall"},
			"emu: note: dgemm: samples of 2 BLAS backends (gonum 40, openblas 40) fitted as one model", "clocks"},
		{"two clocks", [2]string{"gonum", "gonum"}, [2]string{"cpu", "wall"},
			"emu: note: dgemm: samples timed by 2 clocks (cpu 40, wall 40) fitted as one model", "backends"},
		{"one file says nothing", [2]string{"gonum", ""}, [2]string{"wall", ""}, "", "emu: note: dgemm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var rows []calibration.Sample
			for i, h := range []string{"h1", "h2"} {
				p := calibration.Plan{Kernels: []string{"dgemm"}, Samples: 40, MaxDim: 300, Seed: 9}
				for j := range p.Total() {
					c := p.Call(j)
					rows = append(rows, calibration.Sample{Index: j, Host: h, Kernel: c.Kernel, M: c.M, N: c.N, K: c.K,
						Seconds: 1e-11*float64(c.M*c.N*c.K) + 3e-6, Backend: tc.backends[i], Clock: tc.clocks[i]})
				}
			}
			samples := filepath.Join(dir, "s.csv")
			writeSampleFile(t, samples, rows)
			code, _, stderr := runCLI(t, "fit", samples, "--family", "M1-N0", "-o", filepath.Join(dir, "m.toml"))
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tc.want != "" && !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want %q", stderr, tc.want)
			}
			if strings.Contains(stderr, tc.wantNot) {
				t.Errorf("stderr %q, want no %q", stderr, tc.wantNot)
			}
		})
	}
}
