package fluid

import "fmt"

// A ZoneCluster zone is a fat-tree, torus or dragonfly <cluster> among
// zones (SimGrid 3.32's FatTreeZone, TorusZone, DragonflyZone): its hosts
// route between themselves as the cluster alone routes them, through the
// topology's own code (NewFatTree, NewTorus, NewDragonfly), its links
// shifted to where the platform holds them. SimGrid makes no router for
// such a cluster (a <cluster>'s router_id is read past): a zone route
// reaches it through one of its hosts, named as the route's gateway.

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
	if len(z.vertices) != c.Hosts() {
		return fmt.Errorf("%s: cluster zone %s holds %d points, its topology %d hosts", z.Where, z.Name, len(z.vertices), c.Hosts())
	}
	for i, p := range z.vertices {
		if pt := t.points[p]; pt.Kind != PointHost || pt.Name != c.HostName(i) {
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
// hosts: the topology's route, its latencies added in order.
func (t *Zones) clusterRoute(z *zone, s, d int, links *[]LinkID, lat *float64) {
	for _, l := range z.Cluster.Route(s, d).Links {
		id := z.ClusterLinks + l
		*links = append(*links, id)
		*lat += t.links[id].Latency
	}
}
