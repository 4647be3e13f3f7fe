package main

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/runner"
)

// BenchmarkEnsemble measures an ensemble's throughput (runs/s of wall time):
// 8 perturbed copies of the chaotic HPL 8×8 one at a time and on 2 workers.
// Member 0 runs alone until it finishes or has run probeWindow (its memory
// sizes the others), so with runs shorter than that the ideal ratio on 2
// cores is 8/(1 + 7/2) = 1.78, not 2.
//
//	go test -run XXX -bench Ensemble -benchtime 3x ./cmd/emu
func BenchmarkEnsemble(b *testing.B) {
	sf := &scenarioFlags{}
	base, err := sf.plan(chaoticScenario)
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			const runs = 8
			for b.Loop() {
				e, err := newEnsemble(&ensembleSpec{seeds: 1, copies: runs, perturb: true, jobs: jobs}, base, "", rerun{sf: sf, file: chaoticScenario}.plan)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.run(base, runner.Options{}, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(runs*b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}
