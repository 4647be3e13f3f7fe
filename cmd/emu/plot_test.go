package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

func TestRunPlotSplitsEveryRanksTime(t *testing.T) {
	dir := t.TempDir()
	jsonOut := filepath.Join(dir, "r.json")
	if code, _, stderr := runCLI(t, "run", "--quiet", "--plot", dir, "--json", jsonOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "rank_time.svg"))
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("rank_time.svg: %v", err)
	}
	rows := scenariotest.ReadCSV(t, filepath.Join(dir, "rank_time.csv"))
	if len(rows) != 5 { // header + the default's 4 ranks
		t.Fatalf("rank_time.csv: %d rows", len(rows))
	}
	end := runEndTime(t, jsonOut)
	for _, row := range rows[1:] {
		sum := 0.0
		for _, cell := range row[1:] {
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || v < 0 {
				t.Fatalf("row %v: %v", row, err)
			}
			sum += v
		}
		// Kernels charge all compute time, so the three parts tile the whole
		// run, up to the rounding of summing printed values (relative).
		const tileTol = 1e-9
		if math.Abs(sum-end) > tileTol*end {
			t.Errorf("rank %s: compute+comm+wait = %g s, want the run's %g s", row[0], sum, end)
		}
	}
}

func runEndTime(t *testing.T, path string) float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const key = `"simulated_time_s": `
	i := strings.Index(string(b), key)
	if i < 0 {
		t.Fatalf("%s has no %s", path, key)
	}
	rest := string(b[i+len(key):])
	v, err := strconv.ParseFloat(rest[:strings.IndexAny(rest, ",\n}")], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
