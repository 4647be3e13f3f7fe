package fluid

import (
	"fmt"
	"strconv"
	"testing"
)

// starsConfig is a Full zone of k star zones (flat clusters) of m hosts each,
// every host behind its split-duplex link, every two clusters joined by a
// zone route between their routers: g5k's shape.
func starsConfig(k, m int) ZonesConfig {
	c := ZonesConfig{Points: []NetPoint{{Name: "root", Kind: PointZone, Zone: -1}}}
	root := ZoneSpec{Name: "root", Routing: ZoneFull, Parent: -1, Point: 0}
	routers := make([]int, k)
	c.Zones = []ZoneSpec{root}
	for z := range k {
		zi := len(c.Zones)
		name := "c" + strconv.Itoa(z)
		c.Points = append(c.Points, NetPoint{Name: name, Kind: PointZone, Zone: 0, Child: zi})
		star := ZoneSpec{Name: name, Routing: ZoneStar, Parent: 0, Point: len(c.Points) - 1}
		for h := range m {
			c.Points = append(c.Points, NetPoint{Name: name + "-" + strconv.Itoa(h), Zone: zi})
			p := len(c.Points) - 1
			c.Hosts = append(c.Hosts, p)
			up := LinkID(len(c.Links))
			c.Links = append(c.Links, Link{Name: name + "_link_" + strconv.Itoa(h) + "_UP", Bandwidth: 1e9, Latency: 1e-6},
				Link{Name: name + "_link_" + strconv.Itoa(h) + "_DOWN", Bandwidth: 1e9, Latency: 1e-6})
			star.Routes = append(star.Routes, ZoneRoute{Src: p, Dst: -1, GwSrc: -1, GwDst: -1, Hops: []ZoneHop{{up, up + 1}}, Symmetrical: true})
		}
		c.Points = append(c.Points, NetPoint{Name: name + "_router", Kind: PointRouter, Zone: zi})
		routers[z] = len(c.Points) - 1
		star.Routes = append(star.Routes, ZoneRoute{Src: routers[z], Dst: -1, GwSrc: -1, GwDst: -1, Symmetrical: true})
		c.Zones = append(c.Zones, star)
	}
	for a := range k {
		for b := a + 1; b < k; b++ {
			l := LinkID(len(c.Links))
			c.Links = append(c.Links, Link{Name: fmt.Sprintf("wan_%d_%d", a, b), Bandwidth: 1e10, Latency: 1e-3})
			c.Zones[0].Routes = append(c.Zones[0].Routes, ZoneRoute{Src: c.Zones[a+1].Point, Dst: c.Zones[b+1].Point,
				GwSrc: routers[a], GwDst: routers[b], Hops: []ZoneHop{{l, l}}, Symmetrical: true})
		}
	}
	return c
}

// clustersConfig is starsConfig with each cluster a flat <cluster> as the
// platform reader builds one: a ZoneCluster zone over NewFlat, its router
// last (the same hosts, links and routes).
func clustersConfig(k, m int) ZonesConfig {
	c := starsConfig(k, m)
	wan := c.Links[k*m*2:]
	c.Links = nil
	radical := make([]int, m)
	for h := range radical {
		radical[h] = h
	}
	for z := 1; z <= k; z++ {
		zs := &c.Zones[z]
		f, err := NewFlat(FlatConfig{Hosts: m, Link: LinkSpec{Bandwidth: 1e9, Latency: 1e-6}, Loopback: Loopback{Disabled: true},
			Naming: Naming{Prefix: zs.Name + "-", Radical: radical, Cluster: zs.Name}})
		if err != nil {
			panic(err)
		}
		zs.Routing, zs.Routes, zs.Cluster, zs.ClusterLinks = ZoneCluster, nil, f, LinkID(len(c.Links))
		c.Links = append(c.Links, f.Links()...)
	}
	c.Links = append(c.Links, wan...) // at the same ids as in starsConfig: the zone routes' hops hold
	return c
}

// BenchmarkZones builds platforms of clusters joined by zone routes
// (NewZones: its checks included) and routes between hosts of different
// clusters, the calls a World makes once per pair of hosts that talk.
func BenchmarkZones(b *testing.B) {
	for _, size := range []struct{ k, m int }{{8, 64}, {32, 64}} {
		c := starsConfig(size.k, size.m)
		b.Run(fmt.Sprintf("build/hosts=%d", size.k*size.m), func(b *testing.B) {
			for range b.N {
				if _, err := NewZones(c); err != nil {
					b.Fatal(err)
				}
			}
		})
		z, err := NewZones(c)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("route/hosts=%d", size.k*size.m), func(b *testing.B) {
			n := z.Hosts()
			for i := range b.N {
				if rt := z.Route(i%n, (i*7919+size.m)%n); rt.Latency < 0 {
					b.Fatal(rt)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/route")
		})
		// The same clusters as ZoneCluster zones over NewFlat (the platform
		// reader's flat <cluster>s).
		cc := clustersConfig(size.k, size.m)
		b.Run(fmt.Sprintf("clusterbuild/hosts=%d", size.k*size.m), func(b *testing.B) {
			for range b.N {
				if _, err := NewZones(cc); err != nil {
					b.Fatal(err)
				}
			}
		})
		zc, err := NewZones(cc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("clusterroute/hosts=%d", size.k*size.m), func(b *testing.B) {
			n := zc.Hosts()
			for i := range b.N {
				if rt := zc.Route(i%n, (i*7919+size.m)%n); rt.Latency < 0 {
					b.Fatal(rt)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/route")
		})
		// The baseline: a flat cluster of as many hosts, routes computed on demand.
		flat := FlatConfig{Hosts: size.k * size.m, Link: LinkSpec{Bandwidth: 1e9, Latency: 1e-6}, Loopback: Loopback{Disabled: true}}
		b.Run(fmt.Sprintf("flatbuild/hosts=%d", size.k*size.m), func(b *testing.B) {
			for range b.N {
				if _, err := NewFlat(flat); err != nil {
					b.Fatal(err)
				}
			}
		})
		f, err := NewFlat(flat)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("flatroute/hosts=%d", size.k*size.m), func(b *testing.B) {
			n := f.Hosts()
			for i := range b.N {
				if rt := f.Route(i%n, (i*7919+size.m)%n); rt.Latency < 0 {
					b.Fatal(rt)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/route")
		})
	}
}
