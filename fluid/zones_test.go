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

// torusAmongZones is a Full zone "w" holding a torus "tor" of hosts t0, t1
// (links tor_link_from_0_to_1 and _1_to_0, shared, 1 µs, and loopbacks)
// and a star zone "s" of host x without links, joined by a zone route over
// link "wan" (1 ms) from the torus's host t1 to x.
func torusAmongZones(t *testing.T) ZonesConfig {
	tor, err := NewTorus(TorusConfig{Dims: []int{2}, Link: LinkSpec{Bandwidth: 1e9, Latency: 1e-6, Policy: SharedDuplex}, Naming: Naming{Prefix: "t", Cluster: "tor"}})
	if err != nil {
		t.Fatal(err)
	}
	c := ZonesConfig{
		Links:  append([]Link{{Name: "wan", Bandwidth: 1e9, Latency: 1e-3}}, tor.Links()...),
		Points: []NetPoint{{Name: "w", Kind: PointZone, Zone: -1}, {Name: "tor", Kind: PointZone, Zone: 0, Child: 1}, {Name: "t0", Zone: 1}, {Name: "t1", Zone: 1}, {Name: "s", Kind: PointZone, Zone: 0, Child: 2}, {Name: "x", Zone: 2}},
		Hosts:  []int{2, 3, 5},
	}
	c.Zones = []ZoneSpec{
		{Name: "w", Routing: ZoneFull, Parent: -1, Point: 0, Where: "w.xml:2: <zone>", Routes: []ZoneRoute{{Src: 1, Dst: 4, GwSrc: 3, GwDst: 5, Hops: []ZoneHop{{0, 0}}, Symmetrical: true, Where: "w.xml:9: <zoneRoute>"}}},
		{Name: "tor", Routing: ZoneCluster, Parent: 0, Point: 1, Where: "w.xml:3: <cluster>", Cluster: tor, ClusterLinks: 1},
		{Name: "s", Routing: ZoneStar, Parent: 0, Point: 4, Where: "w.xml:5: <zone>"},
	}
	return c
}

// TestZonesCluster: a torus among zones routes its hosts as the torus
// alone, its links where the platform holds them, and is reached through
// the host its zone route names (hand-solved): t0 → x climbs the torus to
// the gateway t1 (t0's + cable) then crosses wan, SimGrid adding wan's
// latency first (the zone route before the route to its gateway); x → t0
// crosses wan then t1's − hop to t0, the same shared cable.
func TestZonesCluster(t *testing.T) {
	z, err := NewZones(torusAmongZones(t))
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
	tests := []struct {
		src, dst int
		links    string
		lat      float64 // s
	}{
		{0, 1, "tor_link_from_0_to_1", 1e-6},
		{0, 0, "tor_link_0_loopback", 0},
		{0, 2, "tor_link_from_0_to_1 wan", 1e-3 + 1e-6},
		{2, 0, "wan tor_link_from_0_to_1", 1e-3 + 1e-6},
		{1, 2, "wan", 1e-3},
	}
	for _, tt := range tests {
		if rt := z.Route(tt.src, tt.dst); names(rt) != tt.links || rt.Latency != tt.lat {
			t.Errorf("%s → %s: %s, %v s; want %s, %v s", z.HostName(tt.src), z.HostName(tt.dst), names(rt), rt.Latency, tt.links, tt.lat)
		}
	}
	// What NewZones refuses: a cluster zone whose links or hosts are not its topology's.
	broken := []struct {
		edit func(c *ZonesConfig)
		want string
	}{
		{func(c *ZonesConfig) { c.Links[1].Name = "other" }, `w.xml:3: <cluster>: cluster zone tor: link 1 is "other", want its topology's "tor_link_from_0_to_1"`},
		{func(c *ZonesConfig) { c.Points[3].Name = "u1" }, `w.xml:3: <cluster>: cluster zone tor: point 1 is "u1", want its topology's host "t1"`},
		{func(c *ZonesConfig) { c.Zones[1].Cluster = nil }, `w.xml:3: <cluster>: a cluster zone without its topology`},
		{func(c *ZonesConfig) { c.Zones[1].ClusterLinks = 2 }, `w.xml:3: <cluster>: cluster zone tor: links 2 to 6 out of range`},
	}
	for _, b := range broken {
		c := torusAmongZones(t)
		b.edit(&c)
		if _, err := NewZones(c); err == nil || err.Error() != b.want {
			t.Errorf("got %v, want %s", err, b.want)
		}
	}
}

// TestZonesFlatClusterAsStar: a flat cluster as a ZoneCluster zone over
// NewFlat routes every pair of hosts, and each host to and from its router,
// as the star zone of the same links does (SimGrid's StarZone, which the
// platform reader built before): clustersConfig against starsConfig.
func TestZonesFlatClusterAsStar(t *testing.T) {
	star, err := NewZones(starsConfig(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := NewZones(clustersConfig(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	names := func(z *Zones, rt Route) string {
		var s []string
		for _, l := range rt.Links {
			s = append(s, z.Links()[l].Name)
		}
		return strings.Join(s, " ")
	}
	for a := range star.Hosts() {
		for b := range star.Hosts() {
			rs, rc := star.Route(a, b), cl.Route(a, b)
			if names(star, rs) != names(cl, rc) || rs.Latency != rc.Latency || rs.Hops != rc.Hops {
				t.Errorf("%s → %s: star %s (%v s), cluster %s (%v s)", star.HostName(a), star.HostName(b), names(star, rs), rs.Latency, names(cl, rc), rc.Latency)
			}
		}
	}
}
