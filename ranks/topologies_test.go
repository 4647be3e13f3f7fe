package ranks

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestOnFluidTopologies runs the collectives check and a one-way message on
// each of fluid's topologies (two ranks per host, so loopback routes are
// used too), under both presets. The one-way time on an idle path must be
// the route's closed form: f_L·L + s'/(f_B·B) with B the links' common
// bandwidth (no window bound binds at 1 µs links).
func TestOnFluidTopologies(t *testing.T) {
	link := fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}
	flat, err1 := fluid.NewFlat(fluid.FlatConfig{Hosts: 8, Link: link, Backbone: &fluid.Backbone{Bandwidth: 1e10, Latency: 1e-6}})
	ft, err2 := fluid.NewFatTree(fluid.FatTreeConfig{Levels: 2, Down: []int{4, 2}, Up: []int{1, 2}, Parallel: []int{1, 1}, Link: link})
	torus, err3 := fluid.NewTorus(fluid.TorusConfig{Dims: []int{2, 2, 2}, Link: link})
	df, err4 := fluid.NewDragonfly(fluid.DragonflyConfig{Groups: 2, GroupLinks: 1, Chassis: 1, ChassisLinks: 1, Routers: 2, RouterLinks: 1, Nodes: 2, Link: link})
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, topo := range []fluid.Topology{flat, ft, torus, df} {
		for _, model := range []string{"cm02", "smpi"} {
			name := fmt.Sprintf("%T/%s", topo, model)
			cfg := preset(t, model)
			hosts := topo.Hosts()
			place := make([]int, 2*hosts)
			for i := range place {
				place[i] = i / 2
			}
			w, err := NewWorld(cfg, topo, place, 1)
			if err != nil {
				t.Fatal(err)
			}
			const size = 5000
			last := len(place) - 1
			var sent, posted, arrived float64
			err = w.Run(func(r *Rank) {
				c := r.World()
				// After a barrier and a pause, nothing else is in flight.
				c.Barrier()
				r.Compute(1e-3, "quiet")
				switch r.ID() {
				case 0:
					sent = r.Now()
					c.Send(last, 0, Msg{Bytes: size})
				case last:
					posted = r.Now()
					c.Recv(0, 0)
					arrived = r.Now()
				default:
					r.Compute(1e-3, "stay out of the way")
				}
				c.Barrier()
				checkCollectives(t, c)
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rt := topo.Route(0, hosts-1)
			wire := size + 16
			want := cfg.LatFactor.Value(wire, 1)*rt.Latency + float64(wire)/(cfg.BwFactor.Value(wire, 1)*1e9)
			if got := arrived - max(sent, posted); !near(got, want) {
				t.Errorf("%s: one-way %.12g s over %d links, want %.12g", name, got, len(rt.Links), want)
			}
		}
	}
}
