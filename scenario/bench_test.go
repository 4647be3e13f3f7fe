package scenario

import (
	"io"
	"syscall"
	"testing"

	"github.com/emu-hpc/emu/ranks"
)

// BenchmarkRunDefault runs the embedded default scenario (2×2 HPL, N=2000, model mode)
// plain, recording the execution graph, and writing a trace, so the recorders' cost
// reads as a ratio to the plain run of the same process.
func BenchmarkRunDefault(b *testing.B) {
	plan, err := Default().Validate()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opt  func() RunOptions
	}{
		{"plain", func() RunOptions { return RunOptions{} }},
		{"graph", func() RunOptions { return RunOptions{Graph: true} }},
		{"trace", func() RunOptions { return RunOptions{Trace: io.Discard} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var events int
			count := func(*ranks.Event) { events++ }
			var sim float64
			cpu0 := cpuTime()
			for b.Loop() {
				opt := bc.opt()
				opt.Hooks = []ranks.Hook{count}
				res, err := plan.Run(opt)
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

// BenchmarkValidate is the cost of loading and checking a scenario (parse, --set,
// topology build) for the Stampede-sized fat tree of examples/.
func BenchmarkValidate(b *testing.B) {
	data := readFile(b, "../examples/stampede.toml")
	for b.Loop() {
		s, err := Parse(data, "stampede.toml")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
