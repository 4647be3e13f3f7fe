package runner

import (
	"io"
	"syscall"
	"testing"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// BenchmarkRunDefault runs the embedded default scenario (2×2 HPL, N=2000, model mode)
// plain, recording the execution graph, and writing a trace, so the recorders' cost
// reads as a ratio to the plain run of the same process.
func BenchmarkRunDefault(b *testing.B) {
	plan, err := scenario.Default().Validate()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opt  func() Options
	}{
		{"plain", func() Options { return Options{} }},
		{"graph", func() Options { return Options{Graph: true} }},
		{"trace", func() Options { return Options{Trace: io.Discard} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var events int
			count := func(*ranks.Event) { events++ }
			var sim float64
			cpu0 := cpuTime()
			for b.Loop() {
				opt := bc.opt()
				opt.Hooks = []ranks.Hook{count}
				res, err := Run(plan, opt)
				if err != nil {
					b.Fatal(err)
				}
				sim += res.SimulatedTime
			}
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric((cpuTime()-cpu0)/float64(b.N)*1e3, "cpu-ms/op")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(sim/b.Elapsed().Seconds(), "simsec/s")
		})
	}
}

// cpuTime is the process's user + system CPU time, s.
func cpuTime() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
