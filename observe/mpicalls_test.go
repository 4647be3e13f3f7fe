package observe_test

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/runner"
)

// TestMPICallsAccountForEveryRanksTime: HPL's own code costs no simulated
// time, so each rank's time until it finishes is its kernels plus its MPI
// calls; the per-call tally and the kernel log, two independent
// bookkeepings, must add up to the ranks' finish times, and HPL's calls
// must be there (its broadcasts poll with MPI_Iprobe).
func TestMPICallsAccountForEveryRanksTime(t *testing.T) {
	p := plan(t, []string{"hpl.n=512"})
	var finished float64
	res, err := runner.Run(p, runner.Options{Kernels: &observe.KernelLog{}, MPICalls: true, Hooks: []ranks.Hook{func(ev *ranks.Event) {
		if ev.Kind == ranks.Finished {
			finished += ev.Time
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	var inMPI, inKernels float64
	seen := map[string]int{}
	for _, c := range res.MPICalls {
		inMPI += c.Seconds
		seen[c.Call] = c.Calls
	}
	for _, k := range res.Kernels {
		inKernels += k.Seconds
	}
	if math.Abs(inMPI+inKernels-finished) > 1e-9*finished {
		t.Errorf("MPI calls %.9g s + kernels %.9g s = %.9g s, ranks finished after %.9g s in all", inMPI, inKernels, inMPI+inKernels, finished)
	}
	for _, call := range []string{"MPI_Send", "MPI_Recv", "MPI_Iprobe"} {
		if seen[call] == 0 {
			t.Errorf("no %s in %v", call, seen)
		}
	}
}
