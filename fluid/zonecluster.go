package fluid

import "fmt"

// A ZoneCluster zone is a <cluster> among zones: a flat one (SimGrid 3.32's
// star zone, with a router), a fat tree, torus or dragonfly (its
// FatTreeZone, TorusZone, DragonflyZone, without). Its hosts route between
// themselves as the cluster alone routes them, through the topology's own
// code (NewFlat, NewFatTree, NewTorus, NewDragonfly), its links shifted to
// where the platform holds them. A flat cluster's router is its zone's last
// point: a host's route to it climbs the host's links, its route to itself
// is empty (SimGrid's star). SimGrid makes no router for the other three (a
// <cluster>'s router_id is read past there): a zone route reaches them
// through one of their hosts, named as the route's gateway.

// routered is a cluster topology with a router beside its hosts (Flat):
// they append the links from host h to the router, from the router to h.
type routered interface {
	toRouter(path []LinkID, h int) []LinkID
	fromRouter(path []LinkID, h int) []LinkID
}

// sealCluster checks that a cluster zone's points and links are its
// topology's hosts and links, in order, and that no route is declared in it.
func (t *Zones) sealCluster(z *zone) error {
	c := z.Cluster
	if c == nil {
		return fmt.Errorf("%s: a cluster zone without its topology", z.Where)
	}
	if len(z.Routes) > 0 || len(z.Bypass) > 0 {
		return fmt.Errorf("%s: cluster zone %s accepts no routes", z.Where, z.Name)
	}
	_, hasRouter := c.(routered)
	if n := len(z.vertices); n != c.Hosts() && (!hasRouter || n != c.Hosts()+1) {
		return fmt.Errorf("%s: cluster zone %s holds %d points, its topology %d hosts", z.Where, z.Name, n, c.Hosts())
	}
	for i, p := range z.vertices {
		if i == c.Hosts() {
			if t.points[p].Kind != PointRouter {
				return fmt.Errorf("%s: cluster zone %s: point %q after its hosts is not a router", z.Where, z.Name, t.points[p].Name)
			}
		} else if pt := t.points[p]; pt.Kind != PointHost || pt.Name != c.HostName(i) {
			return fmt.Errorf("%s: cluster zone %s: point %d is %q, want its topology's host %q", z.Where, z.Name, i, pt.Name, c.HostName(i))
		}
	}
	own := c.Links()
	if z.ClusterLinks < 0 || int(z.ClusterLinks)+len(own) > len(t.links) {
		return fmt.Errorf("%s: cluster zone %s: links %d to %d out of range", z.Where, z.Name, z.ClusterLinks, int(z.ClusterLinks)+len(own))
	}
	for i, l := range own {
		if t.links[z.ClusterLinks+LinkID(i)] != l {
			return fmt.Errorf("%s: cluster zone %s: link %d is %q, want its topology's %q", z.Where, z.Name, z.ClusterLinks+LinkID(i), t.links[z.ClusterLinks+LinkID(i)].Name, l.Name)
		}
	}
	return nil
}

// clusterRoute is the cluster zone's get_local_route between two of its
// points: the topology's route between hosts, a host's links to or from
// the router, their latencies added in order.
func (t *Zones) clusterRoute(z *zone, s, d int, links *[]LinkID, lat *float64) {
	from := len(*links)
	switch n := z.Cluster.Hosts(); {
	case s < n && d < n:
		rt := z.Cluster.Route(s, d)
		if len(rt.Links) == 0 {
			if err := RouteRefusal(z.Cluster, s, d); err != nil { // a dragonfly's
				t.refuse(fmt.Errorf("%s: %v", z.Where, err))
			}
		}
		*links = append(*links, rt.Links...)
	case s < n:
		*links = z.Cluster.(routered).toRouter(*links, s)
	case d < n:
		*links = z.Cluster.(routered).fromRouter(*links, d)
	}
	for i := from; i < len(*links); i++ {
		(*links)[i] += z.ClusterLinks
		*lat += t.links[(*links)[i]].Latency
	}
}
