package fluid

import (
	"strings"
	"sync"
	"testing"
)

// dijkstraABC is a Dijkstra zone of hosts A, B, C (graph nodes in that
// order) with one-way routes A→B over links l1, l2 and, if cb, C→B over l3;
// links of 1 µs, the network model's loopback.
func dijkstraABC(cb bool) ZonesConfig {
	c := ZonesConfig{
		Links:    []Link{{Name: "l1", Bandwidth: 1e9, Latency: 1e-6}, {Name: "l2", Bandwidth: 1e9, Latency: 2e-6}, {Name: "l3", Bandwidth: 1e9, Latency: 4e-6}},
		Loopback: &Link{Name: "__loopback__", Bandwidth: DefaultLoopbackBandwidth, Sharing: FatPipe},
		Points:   []NetPoint{{Name: "d", Kind: PointZone, Zone: -1}, {Name: "A", Zone: 0}, {Name: "B", Zone: 0}, {Name: "C", Zone: 0}},
		Hosts:    []int{1, 2, 3},
	}
	z := ZoneSpec{Name: "d", Routing: ZoneDijkstra, Parent: -1, Point: 0, Where: "d.xml:2: <zone>"}
	z.Routes = append(z.Routes, ZoneRoute{Src: 1, Dst: 2, GwSrc: -1, GwDst: -1, Hops: []ZoneHop{{0, 0}, {1, 1}}, Where: "d.xml:3: <route>"})
	if cb {
		z.Routes = append(z.Routes, ZoneRoute{Src: 3, Dst: 2, GwSrc: -1, GwDst: -1, Hops: []ZoneHop{{2, 2}}, Where: "d.xml:4: <route>"})
	}
	c.Zones = []ZoneSpec{z}
	return c
}

// dijkstraAB is dijkstraABC without C, its route A–B symmetrical.
func dijkstraAB() ZonesConfig {
	c := dijkstraABC(false)
	c.Points, c.Hosts = c.Points[:3], c.Hosts[:2]
	c.Zones[0].Routes[0].Symmetrical = true
	return c
}

// TestZonesDijkstraQuirks: SimGrid 3.32's Dijkstra zone, solved by hand.
// With A→B alone (C in no route: no graph node), A→B is the edge's links
// backwards (insert_link_latency puts them in front reversed): l2 l1, 3 µs;
// A to itself its loopback; C is unroutable, an error at build.
// With C→B too, SimGrid's unsigned costs wrap: from A, C is unreached (cost
// 2⁶⁴−1), and when it is popped its edge to B costs 1 + 2⁶⁴−1 = 0 < 2, its
// loopback 0 < 2⁶⁴−1: B's predecessor becomes C, C's C, and the walk from B
// never reaches A (SimGrid loops there for ever): an error naming A and B.
func TestZonesDijkstraQuirks(t *testing.T) {
	_, err := NewZones(dijkstraABC(false))
	if err == nil || !strings.Contains(err.Error(), "no route from A to C") {
		t.Errorf("C in no route: %v", err)
	}
	_, err = NewZones(dijkstraABC(true))
	if err == nil || err.Error() != "d.xml:2: <zone>: no route from A to B (Dijkstra)" {
		t.Errorf("the wrapped costs: %v", err)
	}
	// The reversal, on A and B alone (A–B symmetrical).
	z, err := NewZones(dijkstraAB())
	if err != nil {
		t.Fatal(err)
	}
	names := func(rt Route) string {
		var s []string
		for _, l := range rt.Links {
			s = append(s, z.Links()[l].Name)
		}
		return strings.Join(s, " ")
	}
	if rt := z.Route(0, 1); names(rt) != "l2 l1" || rt.Latency != 2e-6+1e-6 || rt.Hops != 1 {
		t.Errorf("A→B: %s, %v s, %d hops; want l2 l1, 3 µs (SimGrid's sum: l2 then l1), 1 hop", names(rt), rt.Latency, rt.Hops)
	}
	if rt := z.Route(1, 0); names(rt) != "l1 l2" {
		t.Errorf("B→A: %s; want the reverse edge (l2 l1) backwards", names(rt))
	}
	if rt := z.Route(0, 0); names(rt) != "__loopback__" || rt.Latency != 0 {
		t.Errorf("A→A: %s, %v s", names(rt), rt.Latency)
	}
}

// TestZonesRouteConcurrent: engines may share a topology across goroutines;
// the Dijkstra zones' per-source cache is guarded (go test -race).
func TestZonesRouteConcurrent(t *testing.T) {
	z, err := NewZones(dijkstraAB())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				a, b := (g+i)%2, i%2
				if rt := z.Route(a, b); len(rt.Links) == 0 {
					t.Errorf("route %d→%d empty", a, b)
				}
			}
		}()
	}
	wg.Wait()
}
