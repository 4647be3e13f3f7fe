package fluidtest

import (
	"math/rand/v2"

	"github.com/emu-hpc/emu/fluid"
)

// RandomConfig sizes the problems Random draws.
type RandomConfig struct {
	MaxLinks int // ≥ 1
	MaxFlows int // ≥ 1
	MaxRoute int // links per flow, ≥ 1
}

// Random draws a problem meant to find corner cases rather than to look
// realistic: capacities and bounds come from small sets so that ties are
// frequent, some links are fat pipes or have zero capacity, some flows are
// weighted, bounded, repeat a link or carry cross-traffic.
func Random(rng *rand.Rand, c RandomConfig) Problem {
	caps := []float64{0, 1, 2, 3, 4, 10, 12.5}
	var p Problem
	nl := 1 + rng.IntN(c.MaxLinks)
	for range nl {
		l := fluid.Link{Bandwidth: caps[1+rng.IntN(len(caps)-1)]}
		switch r := rng.Float64(); {
		case r < 0.15:
			l.Sharing = fluid.FatPipe
		case r < 0.18:
			l.Bandwidth = 0
		case r < 0.4:
			l.Bandwidth = 0.5 + 20*rng.Float64()
		}
		p.Links = append(p.Links, l)
	}
	nf := 1 + rng.IntN(c.MaxFlows)
	for range nf {
		p.Flows = append(p.Flows, RandomFlow(rng, nl, c.MaxRoute))
	}
	return p
}

// RandomFlow draws one flow over links 0..links-1 as Random does, with
// Bytes between 1 and 100.
func RandomFlow(rng *rand.Rand, links, maxRoute int) fluid.FlowSpec {
	f := fluid.FlowSpec{Bytes: 1 + 99*rng.Float64()}
	for range 1 + rng.IntN(maxRoute) {
		f.Links = append(f.Links, fluid.LinkID(rng.IntN(links)))
	}
	if rng.Float64() < 0.3 {
		f.Weight = []float64{0.5, 1, 2, 3, 1e-4 + 10*rng.Float64()}[rng.IntN(5)]
	}
	if rng.Float64() < 0.3 {
		f.Bound = []float64{1, 2, 5, 0.1 + 10*rng.Float64()}[rng.IntN(4)]
	}
	if rng.Float64() < 0.3 {
		f.ReverseShare = 0.05
		for range 1 + rng.IntN(maxRoute) {
			f.Reverse = append(f.Reverse, fluid.LinkID(rng.IntN(links)))
		}
	}
	return f
}
