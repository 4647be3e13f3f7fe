package scenario

import (
	"math"
	"testing"
)

func TestKernelLogSumsToComputeTime(t *testing.T) {
	// Every second a rank computes is charged by one kernel call, so the
	// per-kernel totals add up to the ranks' compute time (Breakdown), an
	// independent bookkeeping of the same run.
	s := Default()
	if err := s.Set("hpl.n=512"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	log := &KernelLog{Shapes: true}
	res, err := p.Run(RunOptions{Kernels: log, Breakdown: true})
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
