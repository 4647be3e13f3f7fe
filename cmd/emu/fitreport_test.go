package main

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
)

// writeFlagged writes a sample file with four kernels: dgemm from
// T = 1e-11·m·n·k + 2 µs with 2% noise (a good fit), dtrsm the same with
// three of its 300 calls timed 300× too slow (issue 10's outliers, left
// out and reported), dger whose times do not depend on the size (1 to
// 10 µs at random: no model predicts them) and daxpy with six calls only
// (too few to trust).
func writeFlagged(t *testing.T, path string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(10, 10))
	dim := func() int { return 8 + rng.IntN(500) }
	var rows []calibration.Sample
	for i := range 300 {
		m, n, k := dim(), dim(), dim()
		y := (1e-11*float64(m*n*k) + 2e-6) * (1 + 0.02*rng.NormFloat64())
		rows = append(rows, calibration.Sample{Index: i, Host: "node0", Kernel: "dgemm", M: m, N: n, K: k, Seconds: y})
		m, n = dim(), dim()
		y = (1e-11*float64(m*m*n) + 2e-6) * (1 + 0.02*rng.NormFloat64())
		if i%100 == 99 {
			y *= 300
		}
		rows = append(rows, calibration.Sample{Index: i, Host: "node0", Kernel: "dtrsm", M: m, N: n, K: m, Seconds: y})
	}
	for i := range 100 {
		rows = append(rows, calibration.Sample{Index: i, Host: "node0", Kernel: "dger", M: dim(), N: dim(), Seconds: 1e-6 * (1 + 9*rng.Float64())})
	}
	for i := range 6 {
		n := 1000 * (i + 1)
		rows = append(rows, calibration.Sample{Index: i, Host: "node0", Kernel: "daxpy", N: n, Seconds: (1e-9*float64(n) + 1e-7) * (1 + 0.02*rng.NormFloat64())})
	}
	writeSampleFile(t, path, rows)
}

// TestFitTableFlagsPoorFits pins the fit table (golden) of a file with a
// good kernel, one with outliers, one no model predicts and one with too
// few samples, and checks the JSON report says the same.
func TestFitTableFlagsPoorFits(t *testing.T) {
	dir := t.TempDir()
	samples, out, report := filepath.Join(dir, "s.csv"), filepath.Join(dir, "m.toml"), filepath.Join(dir, "fit.json")
	writeFlagged(t, samples)
	code, stdout, stderr := runCLI(t, "fit", samples, "--family", "M1-N1", "-o", out, "--report", report)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "fit_flagged.txt", stdout)
	var rows []calibration.FitReport
	if err := json.Unmarshal(mustRead(t, report), &rows); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"daxpy": "fewer than 10 samples", "dgemm": "", "dger": "CV rel. error", "dtrsm": "3 outliers down-weighted"}
	poor := map[string]bool{"daxpy": true, "dger": true}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for _, r := range rows {
		got := strings.Join(r.Problems, "; ")
		if w := want[r.Kernel]; w == "" && got != "" || !strings.Contains(got, w) || r.Poor != poor[r.Kernel] {
			t.Errorf("%s: problems %q, poor %v; want %q, %v", r.Kernel, got, r.Poor, w, poor[r.Kernel])
		}
	}
	if code, _, stderr := runCLI(t, "fit", samples, "--loss", "l1"); code != exitInput || !strings.HasPrefix(stderr, "emu: --loss: unknown loss \"l1\"") {
		t.Errorf("bad --loss: exit %d, %q", code, stderr)
	}
}
