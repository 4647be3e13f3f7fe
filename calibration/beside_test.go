package calibration

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// besidePlan mixes dgemm calls, the load, with row moves timed beside it.
func besidePlan() Plan {
	var calls []Call
	for i := range 8 {
		calls = append(calls, Call{Kernel: "dgemm", M: 32 + 16*i, N: 32, K: 32, Side: blas.Left, TransA: blas.NoTrans, TransB: blas.NoTrans})
		calls = append(calls, Call{Kernel: "dlaswp", M: 8, N: 16 + 8*i, K: 64})
		calls = append(calls, Call{Kernel: "dcopy", N: 1000 + 100*i})
	}
	return Plan{Kernels: []string{"dgemm", "dlaswp", "dcopy"}, Samples: len(calls), MaxDim: 256, Seed: 5, Calls: calls}
}

// With Beside, the load kernel's calls are timed in lockstep by every
// worker, each other call by worker 0 while the others run the plan's
// largest dgemm: the loaders have run before the first such row is written
// and stop when the campaign returns. The rows say so in their plan column.
func TestBesideTimesOthersUnderLoad(t *testing.T) {
	p := besidePlan()
	path := filepath.Join(t.TempDir(), "s.csv")
	var loadRuns atomic.Int64
	var atFirstOther int64 = -1
	c := &Campaign{Plan: p, Out: path, Host: "h", Parallel: 3, Repeats: 2, Beside: "dgemm"}
	c.onLoadRun = func(core int) {
		if core < 1 || core > 2 {
			t.Errorf("load run on core %d, want 1 or 2", core)
		}
		loadRuns.Add(1)
	}
	c.Progress = func(done, total int) {
		if done == 9 { // the 8 dgemm rows come first, then the others
			atFirstOther = loadRuns.Load()
		}
	}
	res, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Measured != len(p.Calls) {
		t.Fatalf("measured %d of %d calls", res.Measured, len(p.Calls))
	}
	after := loadRuns.Load()
	if atFirstOther <= 0 {
		t.Errorf("%d load runs when the first call beside the load was written, want some", atFirstOther)
	}
	rows, err := ReadSampleFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cores := map[int]bool{}
	for i, r := range rows {
		if !strings.HasSuffix(r.Plan, "+beside-dgemm") {
			t.Fatalf("row %d: plan %q does not say beside-dgemm", i, r.Plan)
		}
		if r.Kernel == "dgemm" {
			if i >= 8 {
				t.Errorf("row %d: a dgemm after the calls timed beside the load", i)
			}
			cores[r.Core] = true
		} else if r.Core != 0 {
			t.Errorf("row %d (%s): core %d, want 0, the one worker timing beside the load", i, r.Kernel, r.Core)
		}
	}
	if len(cores) < 2 {
		t.Errorf("the dgemm calls were timed on cores %v, want the lockstep workers", cores)
	}
	if now := loadRuns.Load(); now != after {
		t.Errorf("the load ran on after the campaign returned (%d runs, then %d)", after, now)
	}
}

// The load is the plan's largest call of the Beside kernel.
func TestBesideLoadsWithTheLargestCall(t *testing.T) {
	c := &Campaign{Plan: besidePlan(), Beside: "dgemm"}
	got, ok := c.loadCall()
	if !ok || got.Kernel != "dgemm" || got.M != 32+16*7 {
		t.Errorf("load call %+v (found %v), want the dgemm of M = %d", got, ok, 32+16*7)
	}
	c.Beside = "dtrsm"
	if _, ok := c.loadCall(); ok {
		t.Error("a load call found for a kernel the plan lacks")
	}
}

// Beside is refused with one worker or without a call of its kernel, and a
// file measured without it is not resumed with it.
func TestBesideRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		parallel int
		beside   string
		want     string
	}{
		{"one worker", 1, "dgemm", "needs 2 workers"},
		{"no such call", 2, "dtrsm", "no dtrsm call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Campaign{Plan: besidePlan(), Out: filepath.Join(dir, tc.name+".csv"), Host: "h", Parallel: tc.parallel, Beside: tc.beside}
			if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	p := besidePlan()
	p.Calls = p.Calls[:3]
	path := filepath.Join(dir, "plain.csv")
	if _, err := (&Campaign{Plan: p, Out: path, Host: "h", Parallel: 2}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := (&Campaign{Plan: p, Out: path, Host: "h", Parallel: 2, Beside: "dgemm"}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--beside") {
		t.Errorf("resuming a lockstep file beside dgemm: error %v, want one naming --beside", err)
	}
}
