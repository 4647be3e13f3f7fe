package fluid

import (
	"reflect"
	"testing"
)

// linkList is a Topology of given links and one route, for tests of what
// reads a topology's links.
type linkList []Link

func (l linkList) Hosts() int            { return 2 }
func (l linkList) Links() []Link         { return l }
func (l linkList) HostName(h int) string { return "h" }
func (l linkList) Route(src, dst int) Route {
	return Route{Links: []LinkID{0, 1}, Latency: 2e-6, Hops: 1}
}

// TestClassBandwidths: per class, the most common bandwidth of its links,
// the larger one on a tie, classes in the order first listed; loopbacks
// and limiters are not cables.
func TestClassBandwidths(t *testing.T) {
	topo := linkList{
		{Class: "loopback", Bandwidth: 9e9}, {Class: "host", Bandwidth: 1e9}, {Class: "level1", Bandwidth: 4e9},
		{Class: "host", Bandwidth: 2e9}, {Class: "host", Bandwidth: 1e9}, {Class: "limiter", Bandwidth: 5e8},
		{Class: "level1", Bandwidth: 3e9},
	}
	names, bw := ClassBandwidths(topo)
	if !reflect.DeepEqual(names, []string{"host", "level1"}) || !reflect.DeepEqual(bw, []float64{1e9, 4e9}) {
		t.Errorf("ClassBandwidths = %v %v, want host 1e9 (2 of 3 links) and level1 4e9 (the larger of a tie)", names, bw)
	}
}

// TestWithClassBandwidth: the links of the classes named get the new
// bandwidth, the others and the routes stay; a map naming no class of the
// topology gives the topology itself, and the original is never changed.
func TestWithClassBandwidth(t *testing.T) {
	topo := linkList{{Name: "a", Class: "host", Bandwidth: 1e9, Latency: 1e-6}, {Name: "b", Class: "backbone", Bandwidth: 4e9, Latency: 1e-6}}
	got := WithClassBandwidth(topo, map[string]float64{"backbone": 1e8, "level3": 7})
	want := []Link{topo[0], {Name: "b", Class: "backbone", Bandwidth: 1e8, Latency: 1e-6}}
	if !reflect.DeepEqual(got.Links(), want) {
		t.Errorf("links %+v, want %+v", got.Links(), want)
	}
	if topo[1].Bandwidth != 4e9 {
		t.Error("the original topology's links changed")
	}
	if !reflect.DeepEqual(got.Route(0, 1), topo.Route(0, 1)) || got.Hosts() != 2 {
		t.Error("routes or hosts changed")
	}
	for _, bw := range []map[string]float64{nil, {"level3": 7}} {
		if same := WithClassBandwidth(topo, bw); !reflect.DeepEqual(same, Topology(topo)) {
			t.Errorf("%v: got a new topology, want the original", bw)
		}
	}
}
