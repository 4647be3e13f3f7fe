package fluid_test

import (
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// bigTopologies builds each topology at about 6,000 hosts.
var bigTopologies = []struct {
	name  string
	build func() (fluid.Topology, error)
}{
	{"flat-6144", func() (fluid.Topology, error) {
		return fluid.NewFlat(fluid.FlatConfig{Hosts: 6144, Link: benchLink})
	}},
	{"fattree-6144", func() (fluid.Topology, error) {
		return fluid.NewFatTree(fluid.FatTreeConfig{Levels: 3, Down: []int{16, 16, 24}, Up: []int{1, 16, 16}, Parallel: []int{1, 1, 1}, Link: benchLink})
	}},
	{"torus-6000", func() (fluid.Topology, error) {
		return fluid.NewTorus(fluid.TorusConfig{Dims: []int{20, 20, 15}, Link: benchLink})
	}},
	{"dragonfly-5760", func() (fluid.Topology, error) {
		return fluid.NewDragonfly(fluid.DragonflyConfig{Groups: 10, GroupLinks: 1, Chassis: 6, ChassisLinks: 1, Routers: 16, RouterLinks: 1, Nodes: 6, Link: benchLink})
	}},
}

var benchLink = fluid.LinkSpec{Bandwidth: 12.5e9, Latency: 1e-6}

// BenchmarkBuild measures building a ~6,000-host topology (ns/op is per
// whole topology; ns/host per host).
func BenchmarkBuild(b *testing.B) {
	for _, c := range bigTopologies {
		b.Run(c.name, func(b *testing.B) {
			var hosts int
			for range b.N {
				t, err := c.build()
				if err != nil {
					b.Fatal(err)
				}
				hosts = t.Hosts()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*hosts), "ns/host")
		})
	}
}

// BenchmarkRoute measures computing one route between far-apart hosts.
func BenchmarkRoute(b *testing.B) {
	for _, c := range bigTopologies {
		b.Run(c.name, func(b *testing.B) {
			t, err := c.build()
			if err != nil {
				b.Fatal(err)
			}
			n := t.Hosts()
			b.ResetTimer()
			for i := range b.N {
				src := i % n
				t.Route(src, (src+n/2+7)%n)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "routes/s")
		})
	}
}
