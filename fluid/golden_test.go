package fluid_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/fluid/fluidtest"
	"github.com/emu-hpc/emu/internal/golden"
)

// goldenTopologies are small instances of every topology, as a scenario
// would build them (1.25 GB/s, 1 µs links).
func goldenTopologies(t *testing.T) map[string]fluid.Topology {
	link := fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}
	flat, err1 := fluid.NewFlat(fluid.FlatConfig{Hosts: 8, Link: link, Backbone: &fluid.Backbone{Bandwidth: 2.5e9, Latency: 1e-6}})
	ftc, _ := fluid.ParseFatTreeParams("2;4,4;1,2;1,2")
	ftc.Link = link
	ft, err2 := fluid.NewFatTree(ftc)
	torus, err3 := fluid.NewTorus(fluid.TorusConfig{Dims: []int{4, 4}, Link: link})
	dfc, _ := fluid.ParseDragonflyParams("2,2;2,1;2,2;2")
	dfc.Link = link
	df, err4 := fluid.NewDragonfly(dfc)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return map[string]fluid.Topology{"flat": flat, "fattree": ft, "torus": torus, "dragonfly": df}
}

// TestGoldenShares pins the max-min shares of 24 seeded flows (SMPI-like:
// weight = route latency, 5% cross-traffic) on each reference topology.
// The shares are also checked against the max-min invariants, so a golden
// can only be updated to another max-min fair answer.
func TestGoldenShares(t *testing.T) {
	topos := goldenTopologies(t)
	for _, name := range []string{"dragonfly", "fattree", "flat", "torus"} {
		topo := topos[name]
		rng := rand.New(rand.NewPCG(7, 7))
		p := fluidtest.Problem{Links: topo.Links()}
		var out bytes.Buffer
		var pairs [][2]int
		for range 24 {
			src, dst := rng.IntN(topo.Hosts()), rng.IntN(topo.Hosts())
			r, back := topo.Route(src, dst), topo.Route(dst, src)
			p.Flows = append(p.Flows, fluid.FlowSpec{Links: r.Links, Reverse: back.Links, ReverseShare: 0.05, Weight: r.Latency, Bytes: 1})
			pairs = append(pairs, [2]int{src, dst})
		}
		s := fluid.NewSystem(topo.Links())
		ids := s.StartAll(0, p.Flows, nil)
		rates := make([]float64, len(ids))
		for i, id := range ids {
			rates[i] = s.Rate(id)
			fmt.Fprintf(&out, "%s→%s hops=%d rate=%.6e B/s\n", topo.HostName(pairs[i][0]), topo.HostName(pairs[i][1]),
				topo.Route(pairs[i][0], pairs[i][1]).Hops, rates[i])
		}
		if err := fluidtest.Check(p, rates, diffTol); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		file := filepath.Join("testdata", "shares_"+name+".golden")
		if !golden.Check(t, file, out.Bytes()) {
			t.Errorf("%s: max-min shares changed", name)
		}
	}
}
