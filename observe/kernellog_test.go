package observe_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
)

func TestKernelLogSumsToComputeTime(t *testing.T) {
	// Every second a rank computes is charged by one kernel call, so the
	// per-kernel totals add up to the ranks' compute time (Breakdown), an
	// independent bookkeeping of the same run.
	p := plan(t, []string{"hpl.n=512"})
	log := &observe.KernelLog{Shapes: true}
	res, err := runner.Run(p, runner.Options{Kernels: log, Breakdown: true})
	if err != nil {
		t.Fatal(err)
	}
	sum, calls := 0.0, 0
	for _, k := range res.Kernels {
		sum += k.Seconds
		calls += k.Calls
	}
	compute := 0.0
	for _, c := range res.Breakdown.Compute {
		compute += c
	}
	if math.Abs(sum-compute) > 1e-9*compute {
		t.Errorf("kernels charged %.12g s, ranks computed %.12g s", sum, compute)
	}
	shapeCalls := 0
	for _, s := range log.Calls() {
		shapeCalls += s.Calls
	}
	if shapeCalls != calls || calls == 0 {
		t.Errorf("shapes hold %d calls, totals %d", shapeCalls, calls)
	}
}

// TestKernelLogRecordsSwapSpans: HPL's row interchanges are logged as two
// kernels with what calibration needs to measure them as the run makes
// them: dlaswp (rows of A) with K, the local rows they are scattered over, at
// least the rows moved; duswp (rows within the U and W buffers, P > 1 only)
// compact, K = 0.
func TestKernelLogRecordsSwapSpans(t *testing.T) {
	for _, grid := range []struct{ p, q int }{{1, 2}, {2, 1}} {
		p := plan(t, []string{"hpl.n=600", "hpl.nb=32", fmt.Sprintf("hpl.grids=[%dx%d]", grid.p, grid.q)})
		log := &observe.KernelLog{Shapes: true}
		if _, err := runner.Run(p, runner.Options{Kernels: log}); err != nil {
			t.Fatal(err)
		}
		var laswp, uswp int
		for _, c := range log.Calls() {
			switch c.Kernel {
			case kernels.Laswp:
				laswp += c.Calls
				// The span is the panel's local rows, which hold the
				// swapped rows; the local matrix has at most n rows.
				if c.K < c.M || c.K > 600/grid.p+32 {
					t.Errorf("%dx%d: dlaswp m=%d n=%d spread over %d rows", grid.p, grid.q, c.M, c.N, c.K)
				}
			case kernels.Uswp:
				uswp += c.Calls
				if c.K != 0 {
					t.Errorf("%dx%d: duswp m=%d n=%d has span %d, want 0 (compact)", grid.p, grid.q, c.M, c.N, c.K)
				}
			}
		}
		if laswp == 0 {
			t.Errorf("%dx%d: no dlaswp call logged", grid.p, grid.q)
		}
		if wantU := grid.p > 1; (uswp > 0) != wantU {
			t.Errorf("%dx%d: %d duswp calls, want some: %v", grid.p, grid.q, uswp, wantU)
		}
	}
}
