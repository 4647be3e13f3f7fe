package observe_test

import (
	"fmt"
	"math"
	"strings"
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

// TestMPICallsTallyByName: the tally finds a call's total by its name,
// whether the name arrives as the same constant each time or as copies
// built at run time (other bytes, the same text), and keeps a hundred
// names apart even where they share a slot of its lookup by address.
func TestMPICallsTallyByName(t *testing.T) {
	names := []string{"MPI_Send", "MPI_Wait", "MPI_Waitall", "MPI_Irecv"}
	for i := 0; len(names) < 100; i++ {
		names = append(names, fmt.Sprintf("call%d", i))
	}
	m := observe.NewMPICalls(1)
	want := map[string]int{}
	for round := 0; round < 3; round++ {
		for i, name := range names {
			if round == 1 {
				name = strings.Clone(name) // same text, other bytes
			}
			for k := 0; k <= i%3; k++ {
				m.Hook(&ranks.Event{Kind: ranks.CallStart, Time: 1})
				m.Hook(&ranks.Event{Kind: ranks.CallEnd, Time: 1.5, Kernel: name})
				want[name]++
			}
		}
	}
	got := m.Totals()
	if len(got) != len(want) {
		t.Fatalf("%d totals, want %d", len(got), len(want))
	}
	for _, c := range got {
		if c.Calls != want[c.Call] || c.Seconds != 0.5*float64(want[c.Call]) {
			t.Errorf("%s: %d calls, %g s; want %d, %g s", c.Call, c.Calls, c.Seconds, want[c.Call], 0.5*float64(want[c.Call]))
		}
	}
}

// BenchmarkMPICallsHook: the tally's cost at a call end, the names as the
// ranks give them (constants), in the mix of an HPL run's pivot search.
func BenchmarkMPICallsHook(b *testing.B) {
	names := []string{"MPI_Send", "MPI_Irecv", "MPI_Wait", "MPI_Iprobe", "MPI_Recv", "MPI_Probe", "MPI_Comm_split"}
	m := observe.NewMPICalls(4)
	start, end := ranks.Event{Kind: ranks.CallStart}, ranks.Event{Kind: ranks.CallEnd}
	for i := 0; b.Loop(); i++ {
		start.Rank, end.Rank, end.Kernel = i&3, i&3, names[i%4]
		m.Hook(&start)
		m.Hook(&end)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
