package platform

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/units"
)

// The parts of a platform of zones that are clusters: a Cluster zone's
// <backbone>, <host_link> and <cabinet>, its star of private links
// (populateStar), as SimGrid 3.32's ClusterZone builds it, and a <cluster>
// among zones, through the cluster's own topology.

// hostLink is a <host_link>: the up and down links of a Cluster zone's host.
type hostLink struct {
	id, up, down string
	line         int
}

// cabinet is a <cabinet>: hosts PREFIX<radical>SUFFIX of one speed, each
// with its links link_HOST_UP and link_HOST_DOWN.
type cabinet struct {
	prefix, suffix string
	radical        []int
	speed, bw, lat float64
	line           int
}

// backbone reads a Cluster zone's <backbone>, a SHARED link that every
// <host_link> route crosses (made when the zone closes, as SimGrid does).
func (z *zoneParser) backbone(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "bandwidth", "latency")
	if err != nil {
		return err
	}
	if err := z.require("backbone", a, "id", "bandwidth", "latency"); err != nil {
		return err
	}
	f := z.zoneFrame()
	if err := z.inZone("backbone"); err != nil || z.cfg.Zones[f.zone].Routing != fluid.ZoneStar {
		return z.errorf("<backbone> belongs in a <zone routing=\"Cluster\">")
	}
	if f.backbone != nil {
		return z.errorf("<backbone id=%q>: the zone has a backbone already", a["id"])
	}
	bw, err := units.ParseBandwidth(a["bandwidth"])
	if err != nil {
		return z.errorf("<backbone id=%q> bandwidth: %v", a["id"], err)
	}
	lat, err := units.ParseUnitTime(a["latency"])
	if err != nil {
		return z.errorf("<backbone id=%q> latency: %v", a["id"], err)
	}
	f.backbone, f.bbLine = &fluid.Link{Name: a["id"], Bandwidth: bw, Latency: lat, Class: "backbone"}, z.line
	return nil
}

func (z *zoneParser) hostLink(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "up", "down")
	if err != nil {
		return err
	}
	if err := z.require("host_link", a, "id", "up", "down"); err != nil {
		return err
	}
	f := z.zoneFrame()
	if err := z.inZone("host_link"); err != nil || z.cfg.Zones[f.zone].Routing != fluid.ZoneStar {
		return z.errorf("<host_link> belongs in a <zone routing=\"Cluster\">")
	}
	f.hostLinks = append(f.hostLinks, hostLink{id: a["id"], up: a["up"], down: a["down"], line: z.line})
	return nil
}

func (z *zoneParser) cabinet(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "prefix", "suffix", "radical", "speed", "bw", "lat")
	if err != nil {
		return err
	}
	if err := z.require("cabinet", a, "id", "prefix", "suffix", "radical", "speed", "bw", "lat"); err != nil {
		return err
	}
	f := z.zoneFrame()
	if err := z.inZone("cabinet"); err != nil || z.cfg.Zones[f.zone].Routing != fluid.ZoneStar {
		return z.errorf("<cabinet> belongs in a <zone routing=\"Cluster\">")
	}
	c := cabinet{prefix: a["prefix"], suffix: a["suffix"], line: z.line}
	if c.radical, err = ParseRadical(a["radical"]); err != nil {
		return z.errorf("<cabinet id=%q> radical: %v", a["id"], err)
	}
	if c.speed, err = units.ParseSpeed(a["speed"]); err != nil {
		return z.errorf("<cabinet id=%q> speed: %v", a["id"], err)
	}
	if c.bw, err = units.ParseBandwidth(a["bw"]); err != nil {
		return z.errorf("<cabinet id=%q> bw: %v", a["id"], err)
	}
	if c.lat, err = units.ParseUnitTime(a["lat"]); err != nil {
		return z.errorf("<cabinet id=%q> lat: %v", a["id"], err)
	}
	f.cabinets = append(f.cabinets, c)
	return nil
}

// populateStar adds a Cluster zone's backbone and host_link routes, as
// SimGrid does when the zone closes: up through the host's up link (then
// the backbone), down through the backbone and the host's down link.
func (z *zoneParser) populateStar(f *frame) error {
	var bb []fluid.ZoneHop
	if f.backbone != nil {
		z.line = f.bbLine
		l, err := z.addLink("backbone", f.backbone.Name, "backbone", f.backbone.Bandwidth, f.backbone.Latency, fluid.Shared)
		if err != nil {
			return err
		}
		bb = []fluid.ZoneHop{{Fwd: l, Back: l}}
	}
	zs := &z.cfg.Zones[f.zone]
	for _, hl := range f.hostLinks {
		z.line = hl.line
		p, ok := z.points[hl.id]
		if !ok || z.cfg.Points[p].Kind != fluid.PointHost || z.cfg.Points[p].Zone != f.zone {
			return z.errorf("<host_link id=%q>: no host of that name in zone %s", hl.id, zs.Name)
		}
		var ends [2]fluid.ZoneHop
		for i, name := range []string{hl.up, hl.down} {
			l, ok := z.links[name]
			if !ok {
				return z.errorf("<host_link id=%q>: no link named %q", hl.id, name)
			}
			ends[i] = fluid.ZoneHop{Fwd: l, Back: l}
		}
		where := fmt.Sprintf("%s:%d: <host_link>", z.file, hl.line)
		zs.Routes = append(zs.Routes,
			fluid.ZoneRoute{Src: p, Dst: -1, GwSrc: -1, GwDst: -1, Hops: append([]fluid.ZoneHop{ends[0]}, bb...), Where: where},
			fluid.ZoneRoute{Src: -1, Dst: p, GwSrc: -1, GwDst: -1, Hops: append(append([]fluid.ZoneHop(nil), bb...), ends[1]), Where: where})
	}
	for _, c := range f.cabinets {
		z.line = c.line
		where := fmt.Sprintf("%s:%d: <cabinet>", z.file, c.line)
		for _, r := range c.radical {
			host := c.prefix + strconv.Itoa(r) + c.suffix
			p, err := z.addPoint("cabinet", host, fluid.PointHost, -1)
			if err != nil {
				return err
			}
			z.names, z.speeds, z.cores = append(z.names, host), append(z.speeds, c.speed), append(z.cores, 1)
			var ends [2]fluid.ZoneHop
			for i, dir := range []string{"_UP", "_DOWN"} {
				l, err := z.addLink("cabinet", "link_"+host+dir, "host", c.bw, c.lat, fluid.Shared)
				if err != nil {
					return err
				}
				ends[i] = fluid.ZoneHop{Fwd: l, Back: l}
			}
			zs.Routes = append(zs.Routes,
				fluid.ZoneRoute{Src: p, Dst: -1, GwSrc: -1, GwDst: -1, Hops: append([]fluid.ZoneHop{ends[0]}, bb...), Where: where},
				fluid.ZoneRoute{Src: -1, Dst: p, GwSrc: -1, GwDst: -1, Hops: append(append([]fluid.ZoneHop(nil), bb...), ends[1]), Where: where})
		}
	}
	return nil
}

// cluster reads a <cluster> among zones: a zone of its own (ZoneCluster)
// whose hosts, links and routes are those of the cluster alone
// (Platform.cluster: the same names, SimGrid's), as SimGrid 3.32 builds
// its star zone (FLAT), FatTreeZone, TorusZone or DragonflyZone. A flat
// cluster has a router, router_id or PREFIX ID_router SUFFIX; the others
// have none (router_id is read past, as SimGrid does): a zone route names
// one of their hosts as its gateway. The cables of a platform's fat trees
// are numbered in one sequence (z.ftCables), and so are its dragonflies'
// (z.dfCables), as SimGrid 3.32 names them.
func (z *zoneParser) cluster(t xml.StartElement, f *frame) error {
	c, err := clusterFromXML(t.Attr)
	if err != nil {
		return z.errorf("%v", err)
	}
	if p := z.parent(); p != "platform" && p != "zone" && p != "AS" {
		return z.errorf("<cluster> inside <%s>", p)
	}
	first := z.ftCables
	if c.Topology == TopoDragonfly {
		first = z.dfCables
	}
	topo, err := c.cluster(first)
	if err != nil {
		return z.errorf("<cluster id=%q>: %s", c.Name, strings.TrimPrefix(err.Error(), "fluid: "))
	}
	switch t := topo.(type) {
	case *fluid.FatTree:
		z.ftCables += t.Cables()
	case *fluid.Dragonfly:
		z.dfCables += t.Cables()
	}
	if err := z.newZone("cluster", c.Name, fluid.ZoneCluster, f); err != nil {
		return err
	}
	prev := z.zone
	z.zone = f.zone
	defer func() { z.zone = prev }()
	for h := range topo.Hosts() {
		if _, err := z.addPoint("cluster", topo.HostName(h), fluid.PointHost, -1); err != nil {
			return err
		}
		z.names, z.speeds, z.cores = append(z.names, topo.HostName(h)), append(z.speeds, c.Speed), append(z.cores, c.CoresPerHost)
	}
	firstLink := fluid.LinkID(len(z.cfg.Links))
	for _, l := range topo.Links() {
		if _, err := z.addLink("cluster", l.Name, l.Class, l.Bandwidth, l.Latency, l.Sharing); err != nil {
			return err
		}
	}
	zs := &z.cfg.Zones[f.zone]
	zs.Cluster, zs.ClusterLinks = topo, firstLink
	routerID := ""
	for _, a := range t.Attr {
		if a.Name.Local == "router_id" {
			routerID = strings.TrimSpace(a.Value)
		}
	}
	if c.Topology != TopoFlat {
		if routerID != "" {
			if z.noRouter == nil {
				z.noRouter = map[string]routerless{}
			}
			z.noRouter[routerID] = routerless{cluster: c.Name, topology: c.Topology, firstHost: topo.HostName(0)}
		}
		return nil
	}
	if routerID == "" {
		routerID = c.Prefix + c.Name + "_router" + c.Suffix
	}
	_, err = z.addPoint("cluster", routerID, fluid.PointRouter, -1)
	return err
}

// routerless is a fat-tree, torus or dragonfly cluster named by its
// router_id, which SimGrid makes no router of: what the error of a route
// through it says.
type routerless struct{ cluster, topology, firstHost string }
