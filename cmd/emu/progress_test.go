package main

import (
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

func TestProgressHPLWork(t *testing.T) {
	// The default scenario: N = 2000, NB = 64, dgemm = 1.029e-11 s per multiply-add
	// (+ an intercept). Panels: ⌈2000/64⌉ = 32; trailing updates Σ_{k<32} (2000−64(k+1))²·64
	// multiply-adds = 64·Σ_{m=1}^{31} (2000−64m)² (the last panel leaves none).
	plan, err := scenario.Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	seconds, panels := hplWork(plan)
	macs := 0.0
	for m := 1; m <= 31; m++ {
		r := float64(2000 - 64*m)
		macs += 64 * r * r
	}
	const relTol = 1e-6 // the intercept's share, estimated on a 1000³ call
	if panels != 32 || math.Abs(seconds-1.029e-11*macs) > relTol*seconds {
		t.Errorf("hplWork = %g s, %d panels; want %g s, 32", seconds, panels, 1.029e-11*macs)
	}

	p := &progress{total: seconds, panels: panels}
	l := p.listener()
	for _, ev := range []ranks.Event{{Kind: ranks.SendPost, Time: 0.005}, {Kind: ranks.ComputeEnd, Kernel: "dgemm", Seconds: seconds / 2, Time: 0.01}, {Kind: ranks.SendPost, Time: 0.01}} {
		if !l.Kinds.Has(ev.Kind) {
			t.Fatalf("the progress line does not hear %v", ev.Kind)
		}
		l.Hook(&ev)
	}
	// Half the work is done when (1 − k/32)³ = 1/2: k = 32·(1 − 2^(−1/3)) ≈ 6.6 → panel 7.
	line := p.line(2)
	for _, want := range []string{"HPL panel ≈ 7 of 32", "simulated 0.010000 s", "2 messages, 1 messages/s"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q, want %q in it", line, want)
		}
	}
}
