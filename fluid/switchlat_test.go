package fluid_test

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestSwitchLatencyAddsHopsTimesL checks WithSwitchLatency's routes on a
// 2-level fat tree (4 hosts a leaf, 2 top switches) against what LLAMP's
// Appendix H writes by hand: a route inside a leaf crosses 1 switch and 2
// cables, one across leaves 3 switches and 4 cables, a loopback none.
func TestSwitchLatencyAddsHopsTimesL(t *testing.T) {
	c, err := fluid.ParseFatTreeParams("2;4,4;1,2;1,1")
	if err != nil {
		t.Fatal(err)
	}
	c.Link = fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6, Policy: fluid.SplitDuplex}
	c.Loopback = fluid.Loopback{Bandwidth: 1e10, Latency: 2e-8}
	ft, err := fluid.NewFatTree(c)
	if err != nil {
		t.Fatal(err)
	}
	const ls = 3e-7
	sw, err := fluid.WithSwitchLatency(ft, ls)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		src, dst int
		hops     int
		latency  float64 // (h+1)·ℓ_wire + h·ℓ_switch
	}{
		{"same leaf", 0, 1, 1, 2*1e-6 + 1*ls},
		{"across leaves", 0, 5, 3, 4*1e-6 + 3*ls},
		{"loopback", 2, 2, 0, 2e-8},
	} {
		rt, inner := sw.Route(tc.src, tc.dst), ft.Route(tc.src, tc.dst)
		if rt.Hops != tc.hops || math.Abs(rt.Latency-tc.latency) > 1e-18 {
			t.Errorf("%s: %d switches, %g s; want %d, %g s", tc.name, rt.Hops, rt.Latency, tc.hops, tc.latency)
		}
		if len(rt.Links) != len(inner.Links) || rt.Latency != inner.Latency+float64(tc.hops)*ls {
			t.Errorf("%s: the links or the cables' latency changed", tc.name)
		}
	}
	if same, _ := fluid.WithSwitchLatency(ft, 0); same != fluid.Topology(ft) {
		t.Error("a zero switch latency must leave the topology as it is")
	}
	for _, bad := range []float64{-1e-9, math.NaN(), math.Inf(1)} {
		if _, err := fluid.WithSwitchLatency(ft, bad); err == nil {
			t.Errorf("switch latency %v accepted", bad)
		}
	}
}
