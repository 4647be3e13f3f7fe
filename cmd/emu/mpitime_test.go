package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestMPITimeBooksOverheadsAsStack: seed 002's split of the embedded default
// (cm02) with 5 µs send and receive overheads against none. Applications
// charge computation only through kernels, so the compute column must not
// move; the overheads are MPI-stack time, which must grow. (Before, the
// overheads were booked as compute: rank 0's went from 12.2 to 27.7 ms.)
func TestMPITimeBooksOverheadsAsStack(t *testing.T) {
	type rankTime struct {
		Compute float64 `json:"compute_s"`
		Stack   float64 `json:"stack_s"`
	}
	split := func(overhead string) []rankTime {
		dir := t.TempDir()
		graph, out := filepath.Join(dir, "g.graph"), filepath.Join(dir, "m.json")
		if code, _, errOut := runCLI(t, "run", "--set", "network.model=cm02", "--set", "network.send_overhead="+overhead,
			"--set", "network.recv_overhead="+overhead, "--graph", graph, "-q"); code != exitOK {
			t.Fatalf("run: %s", errOut)
		}
		if code, _, errOut := runCLI(t, "analyze", graph, "--mpi-time", "--json", out, "-q"); code != exitOK {
			t.Fatalf("analyze: %s", errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			MPI []rankTime `json:"mpi_time"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		return rep.MPI
	}
	none, five := split("0s"), split("5us")
	if len(none) != 4 || len(five) != 4 {
		t.Fatalf("%d and %d ranks, want 4", len(none), len(five))
	}
	const tol = 1e-12 // s: the same kernel charges summed in the same order
	for r := range none {
		if math.Abs(none[r].Compute-five[r].Compute) > tol {
			t.Errorf("rank %d: compute %.9g s without overheads, %.9g s with", r, none[r].Compute, five[r].Compute)
		}
		if five[r].Stack <= none[r].Stack {
			t.Errorf("rank %d: MPI stack %.9g s with 5 µs overheads, %.9g s without", r, five[r].Stack, none[r].Stack)
		}
	}
}
