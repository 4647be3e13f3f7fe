package fluid_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// benchFlows is the number of concurrent flows the benchmarks keep running.
const benchFlows = 10000

// benchTree is a 6,144-host three-level fat-tree with full bisection:
// 16 hosts per leaf switch, 384 leaf, 384 middle and 256 top switches.
func benchTree(b *testing.B) *fluid.FatTree {
	return parsedTree(b, "3;16,16,24;1,16,16;1,1,1", fluid.LinkSpec{Bandwidth: 12.5e9, Latency: 1e-6})
}

// parsedTree builds the fat tree of SimGrid's parameter string params
// with links of spec link.
func parsedTree(b *testing.B, params string, link fluid.LinkSpec) *fluid.FatTree {
	c, err := fluid.ParseFatTreeParams(params)
	if err != nil {
		b.Fatal(err)
	}
	c.Link = link
	ft, err := fluid.NewFatTree(c)
	if err != nil {
		b.Fatal(err)
	}
	return ft
}

// traffic draws flows: "random" pairs anywhere (one giant connected
// component), or "local" pairs under the same leaf switch (components of at
// most one leaf), the two ends of what incremental re-solving can save.
func traffic(topo fluid.Topology, rng *rand.Rand, pattern string) fluid.FlowSpec {
	n := topo.Hosts()
	src := rng.IntN(n)
	dst := rng.IntN(n)
	if pattern == "local" {
		dst = src/16*16 + rng.IntN(16)
	}
	r := topo.Route(src, dst)
	back := topo.Route(dst, src)
	return fluid.FlowSpec{Links: r.Links, Bytes: 1e6 + 1e8*rng.Float64(), Reverse: back.Links, ReverseShare: 0.05}
}

// loaded returns a System over topo already running benchFlows flows.
func loaded(b *testing.B, topo fluid.Topology, rng *rand.Rand, pattern string, full, record bool) *fluid.System {
	opts := fluid.Options{}
	if full {
		opts.Solver = fluid.FullResolve
	}
	s := fluid.NewSystemOptions(topo.Links(), opts)
	if record {
		s.RecordTraffic()
	}
	specs := make([]fluid.FlowSpec, benchFlows)
	for i := range specs {
		specs[i] = traffic(topo, rng, pattern)
	}
	s.StartAll(0, specs, nil)
	return s
}

var benchCases = []struct {
	name    string
	pattern string
	full    bool
	traffic bool // System.RecordTraffic (emu run --links)
}{
	{"random/incremental", "random", false, false},
	{"random/full", "random", true, false},
	{"local/incremental", "local", false, false},
	{"local/full", "local", true, false},
	{"random/incremental/traffic", "random", false, true},
	{"local/incremental/traffic", "local", false, true},
}

// BenchmarkFlowStart measures one flow start (and the re-solve it causes)
// among 10,000 running flows; the flow is cancelled untimed afterwards.
//
// Figures (cpu-ns/op, medians of 8 runs of 20 ops alternated with the
// test binary of 22216ac, the solver before dbfc3ca's series, in one
// session on the shared 2-core machine at load 2–8; min in brackets):
//
//	                      22216ac            dbfc3ca            ratio
//	Start random/incr     7.57 (7.05) ms     6.13 (4.80) ms     1.23 (1.47)
//	Start random/full     12.4 (10.4) ms     9.99 (6.54) ms     1.24 (1.60)
//	End   random/incr     2.36 (2.02) ms     1.92 (1.16) ms     1.23 (1.74)
//	End   random/full     13.1 (10.7) ms     10.3 (6.51) ms     1.28 (1.65)
//
// An earlier such run (at 2076f5a) gave medians 1.59, 1.41, 1.90 and 1.61.
// Load swings CPU time by ±30% here, so cachegrind's counts (GOGC=off,
// GOMAXPROCS=1, one timed plus one untimed solve per op) are the steadier
// measure: instructions −30% on all four, L1d misses −37% to −44%, misses
// of a 1 MiB cache (this machine's L2) −44% to −49%. local/incremental
// (≈10 µs) moved within the noise: +3% instructions, −7% L1d misses.
func BenchmarkFlowStart(b *testing.B) {
	topo := benchTree(b)
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			s := loaded(b, topo, rng, c.pattern, c.full, c.traffic)
			runtime.GC() // do not charge the set-up's garbage to the first iterations
			var cpu int64
			b.ResetTimer()
			for range b.N {
				spec := traffic(topo, rng, c.pattern)
				before := processCPU()
				id := s.Start(0, spec)
				cpu += processCPU() - before
				b.StopTimer()
				s.Cancel(0, id)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "starts/s")
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkFlowEnd measures finishing the earliest flow (time advances to
// it) among 10,000 running flows; a new flow replaces it untimed.
// Figures: the End rows of BenchmarkFlowStart's table.
func BenchmarkFlowEnd(b *testing.B) {
	topo := benchTree(b)
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(2, 2))
			s := loaded(b, topo, rng, c.pattern, c.full, c.traffic)
			runtime.GC() // do not charge the set-up's garbage to the first iterations
			var cpu int64
			b.ResetTimer()
			for range b.N {
				before := processCPU()
				t, id, ok := s.NextCompletion()
				if !ok {
					b.Fatal("no completion")
				}
				s.Finish(t, id)
				cpu += processCPU() - before
				b.StopTimer()
				s.Start(t, traffic(topo, rng, c.pattern))
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ends/s")
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
