package fluid

import (
	"math"
	"strings"
	"testing"
)

// latTol is the absolute error allowed on a route latency, s: a sum of at
// most a dozen link latencies of order 1e-6 s.
const latTol = 1e-15

var spec = LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}

func names(t Topology, r Route) []string {
	var ns []string
	for _, l := range r.Links {
		ns = append(ns, t.Links()[l].Name)
	}
	return ns
}

func sameStrings(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") }

// checkRouteBasics: every route's latency is the sum of its links', hops
// are len-1 (0 for a loopback), and a host's route to itself is its
// loopback unless disabled.
func checkRouteBasics(t *testing.T, topo Topology) {
	t.Helper()
	n := topo.Hosts()
	for s := range n {
		for d := range n {
			r := topo.Route(s, d)
			sum := 0.0
			for _, l := range r.Links {
				sum += topo.Links()[l].Latency
			}
			if math.Abs(sum-r.Latency) > latTol {
				t.Fatalf("route %d→%d: latency %v, links sum to %v", s, d, r.Latency, sum)
			}
			if len(r.Links) == 0 {
				t.Fatalf("route %d→%d is empty", s, d)
			}
			if want := max(0, cables(topo, r)-1); r.Hops != want {
				t.Fatalf("route %d→%d: %d hops over %d links", s, d, r.Hops, len(r.Links))
			}
			// RouteClasses: the cables per class sum to the route's cables
			// and latency (the execution graph's per-class latency terms).
			cls, nc, lc := RouteClasses(topo.Links(), r), 0, 0.0
			for _, c := range cls {
				nc, lc = nc+c.Links, lc+c.Latency
			}
			if nc != cables(topo, r) || math.Abs(lc-r.Latency) > latTol {
				t.Fatalf("route %d→%d: classes %+v, want %d cables and %v s", s, d, cls, cables(topo, r), r.Latency)
			}
		}
	}
}

func TestFlat(t *testing.T) {
	f, err := NewFlat(FlatConfig{Hosts: 3, Link: spec, Backbone: &Backbone{Bandwidth: 1e10, Latency: 2e-6}})
	if err != nil {
		t.Fatal(err)
	}
	checkRouteBasics(t, f)
	r := f.Route(0, 2)
	// Private link of 0 up, backbone, private link of 2 down: 1+2+1 µs.
	if want := []string{"link_0_UP", "backbone", "link_2_DOWN"}; !sameStrings(names(f, r), want) {
		t.Errorf("route 0→2 = %v, want %v", names(f, r), want)
	}
	if math.Abs(r.Latency-4e-6) > latTol || r.Hops != 2 {
		t.Errorf("route 0→2: latency %v hops %d, want 4e-6, 2", r.Latency, r.Hops)
	}
	self := f.Route(1, 1)
	if l := f.Links()[self.Links[0]]; len(self.Links) != 1 || l.Class != "loopback" || l.Sharing != FatPipe ||
		l.Bandwidth != DefaultLoopbackBandwidth || self.Hops != 0 {
		t.Errorf("self route %+v over %+v, want the 10 GB/s fat-pipe loopback", self, l)
	}
	if got := f.HostName(2); got != "host-2" {
		t.Errorf("default name %q", got)
	}

	// SHARED private links without loopback: 0→0 uses its link once, 0→1
	// uses both hosts' single links, named by the cluster id and the hosts'
	// radicals as SimGrid names them.
	g, err := NewFlat(FlatConfig{Hosts: 2, Link: LinkSpec{Bandwidth: 1, Policy: SharedDuplex},
		Loopback: Loopback{Disabled: true}, Naming: Naming{Prefix: "n", Suffix: ".org", Radical: []int{7, 9}, Cluster: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(g, g.Route(0, 0)); !sameStrings(got, []string{"c_link_7"}) {
		t.Errorf("shared self route %v", got)
	}
	if got := names(g, g.Route(0, 1)); !sameStrings(got, []string{"c_link_7", "c_link_9"}) {
		t.Errorf("shared route %v", got)
	}
	if got := g.HostName(1); got != "n9.org" {
		t.Errorf("name %q, want n9.org", got)
	}
}

// TestValidateNamesField: each bad config's error names the bad field.
func TestValidateNamesField(t *testing.T) {
	cases := []struct {
		err   error
		field string
	}{
		{FlatConfig{Hosts: 0, Link: spec}.Validate(), "FlatConfig.Hosts"},
		{FlatConfig{Hosts: 1, Link: LinkSpec{Bandwidth: -1}}.Validate(), "FlatConfig.Link.Bandwidth"},
		{FlatConfig{Hosts: 1, Link: spec, Backbone: &Backbone{Bandwidth: 1, Latency: math.NaN()}}.Validate(), "FlatConfig.Backbone.Latency"},
		{FlatConfig{Hosts: 2, Link: spec, Naming: Naming{Radical: []int{1}}}.Validate(), "FlatConfig.Naming.Radical"},
		{FatTreeConfig{Levels: 2, Down: []int{2}, Up: []int{1, 1}, Parallel: []int{1, 1}, Link: spec}.Validate(), "FatTreeConfig.Down"},
		{FatTreeConfig{Levels: 1, Down: []int{2}, Up: []int{0}, Parallel: []int{1}, Link: spec}.Validate(), "FatTreeConfig.Up[0]"},
		{FatTreeConfig{Levels: 1, Down: []int{2}, Up: []int{1}, Parallel: []int{1}, Link: spec, Loopback: Loopback{Latency: -1}}.Validate(), "FatTreeConfig.Loopback.Latency"},
		{FatTreeConfig{Levels: 20, Down: repeat(2, 20), Up: append([]int{1}, repeat(2, 19)...), Parallel: repeat(1, 20), Link: spec}.Validate(), "FatTreeConfig.Levels"},
		{FatTreeConfig{Levels: 2, Down: []int{2, 2}, Up: []int{1, 9000000}, Parallel: []int{1, 1}, Link: spec}.Validate(), "FatTreeConfig.Levels"},
		{TorusConfig{Dims: []int{2, 0}, Link: spec}.Validate(), "TorusConfig.Dims[1]"},
		{DragonflyConfig{Groups: 1, GroupLinks: 1, Chassis: 1, ChassisLinks: 0, Routers: 1, RouterLinks: 1, Nodes: 1, Link: spec}.Validate(), "DragonflyConfig.ChassisLinks"},
		{DragonflyConfig{Groups: 0, GroupLinks: 1, Chassis: 1, ChassisLinks: 1, Routers: 2, RouterLinks: 1, Nodes: 1, Link: spec}.Validate(), "DragonflyConfig.Groups"},
		{DragonflyConfig{Groups: 1, GroupLinks: 1, Chassis: 1, ChassisLinks: 1, Routers: 1, RouterLinks: 1, Nodes: 1, Link: spec, Limiter: -1}.Validate(), "DragonflyConfig.Limiter"},
		{FlatConfig{Hosts: 1, Link: spec, Limiter: math.Inf(1)}.Validate(), "FlatConfig.Limiter"},
	}
	for i, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.field) {
			t.Errorf("case %d: error %v, want one naming %s", i, c.err, c.field)
		}
	}
}

// TestLargeBuilds: 6,000-host topologies build without N² tables.
func TestLargeBuilds(t *testing.T) {
	ft, err := NewFatTree(FatTreeConfig{Levels: 3, Down: []int{16, 16, 24}, Up: []int{1, 16, 16}, Parallel: []int{1, 1, 1}, Link: spec})
	if err != nil {
		t.Fatal(err)
	}
	to, err := NewTorus(TorusConfig{Dims: []int{20, 20, 15}, Link: spec})
	if err != nil {
		t.Fatal(err)
	}
	df, err := NewDragonfly(DragonflyConfig{Groups: 10, GroupLinks: 1, Chassis: 6, ChassisLinks: 1, Routers: 16, RouterLinks: 1, Nodes: 6, Link: spec})
	if err != nil {
		t.Fatal(err)
	}
	for _, topo := range []Topology{ft, to, df} {
		if n := topo.Hosts(); n < 5000 {
			t.Errorf("%T has %d hosts", topo, n)
		}
		last := topo.Hosts() - 1
		if r := topo.Route(0, last); len(r.Links) < 2 {
			t.Errorf("%T: route 0→%d = %+v", topo, last, r)
		}
	}
}

// repeat is n copies of v.
func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}
