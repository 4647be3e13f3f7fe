package platform

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/units"
)

// parseZones reads a SimGrid platform of zones (TopoZones): <zone>/<AS>
// (routing Full, Floyd, Dijkstra, DijkstraCache, None, Cluster) holding
// <host>, <router>, <link>, <route> with <link_ctn>, <zoneRoute>/<ASroute>,
// <bypassRoute>, <bypassZoneRoute>/<bypassASroute>, nested zones,
// <cluster>s (flat ones as star zones, fat-tree, torus and dragonfly ones
// through their topology: zonecluster.go), and in a Cluster zone
// <host_link>, <backbone> and <cabinet>. The platform is built as SimGrid
// 3.32 builds it (fluid.Zones), with its speed, bandwidth and latency
// profiles (speed_file, bandwidth_file, latency_file, <trace> and
// <trace_connect>: zoneprofile.go); what emu does not model (failures,
// Vivaldi and Wifi zones, actors) is refused, naming the line.
func parseZones(data []byte, file string) (*Platform, error) {
	z := &zoneParser{file: file, points: map[string]int{}, links: map[string]fluid.LinkID{}, split: map[string][2]fluid.LinkID{}, traces: map[string]fluid.Profile{}}
	start := func(t xml.StartElement, line int) error {
		z.line = line
		return z.start(t)
	}
	end := func(line int) error {
		z.line = line
		return z.end()
	}
	text := func(b []byte) {
		if z.openTrace != nil {
			z.openTrace.text.Write(b)
		}
	}
	if err := walkXMLText(data, file, start, end, text); err != nil {
		return nil, err
	}
	return z.platform()
}

// zoneParser is the state of a platform's reading: the fluid description
// grown element by element, the open elements, the names seen.
type zoneParser struct {
	file string
	line int
	cfg  fluid.ZonesConfig

	points map[string]int          // hosts, routers and zones by name (one namespace, SimGrid's netpoints)
	links  map[string]fluid.LinkID // links by name, a split link's halves as NAME_UP and NAME_DOWN
	split  map[string][2]fluid.LinkID

	open   []frame // the open elements, innermost last
	zone   int     // the innermost open zone; -1 none
	route  *fluid.ZoneRoute
	bypass bool // the open route is a bypass

	names  []string  // host names, in creation order
	speeds []float64 // host speeds (the initial pstate's), flop/s
	cores  []int

	config    []ConfigProp
	hostProps []HostProp
	sawRoot   bool
	ftCables  int // the fat-tree cables made so far (SimGrid numbers them across trees)
	dfCables  int // the dragonfly cables made so far (SimGrid numbers them across dragonflies)
	// noRouter holds the router_id of each fat-tree, torus or dragonfly
	// cluster (read past: SimGrid makes them no router), by name, for the
	// error of a route that names one.
	noRouter map[string]routerless

	traces    map[string]fluid.Profile // <trace>s by id
	openTrace *openTrace               // the <trace> being read
	uses      []profileUse             // the profiles named, resolved at the end
}

// frame is an open element: its name, and what closing it must undo.
type frame struct {
	name      string
	ignore    bool // a <prop>/<config>/<disk> subtree, read past
	config    bool // a <config>: its props are SimGrid settings
	zone      int  // the zone it opened (zone, AS, cluster); -1 otherwise
	prevZone  int
	hostLine  int         // first <host> of an opened zone
	hostLinks []hostLink  // a Cluster zone's <host_link>s
	cabinets  []cabinet   // a Cluster zone's <cabinet>s
	backbone  *fluid.Link // a Cluster zone's <backbone>
	bbLine    int         // its line
	hasChild  bool        // the opened zone holds zones
	routed    string      // the opened zone's first route element, once one started
	// hosts are the indices [from, to) of the hosts a <host> or a <cluster>
	// made, which its <prop>s are set on; to = 0 for other elements.
	hosts [2]int
}

func (z *zoneParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", z.file, z.line, fmt.Sprintf(format, args...))
}

// attrs reads an element's attributes, refusing one not in allowed.
func (z *zoneParser) attrs(t xml.StartElement, allowed ...string) (map[string]string, error) {
	a := map[string]string{}
	for _, at := range t.Attr {
		ok := false
		for _, name := range allowed {
			ok = ok || name == at.Name.Local
		}
		if !ok {
			return nil, z.errorf("<%s>: unknown attribute %q", t.Name.Local, at.Name.Local)
		}
		a[at.Name.Local] = at.Value
	}
	return a, nil
}

// require checks that the attributes named are given.
func (z *zoneParser) require(elem string, a map[string]string, names ...string) error {
	for _, n := range names {
		if _, ok := a[n]; !ok {
			return z.errorf("<%s>: attribute %q is required", elem, n)
		}
	}
	return nil
}

func (z *zoneParser) start(t xml.StartElement) error {
	name := t.Name.Local
	f := frame{name: name, zone: -1, prevZone: z.zone}
	if n := len(z.open); n > 0 && z.open[n-1].ignore {
		f.ignore = true
		if z.open[n-1].config && name == "prop" && n >= 1 && z.open[n-1].name == "config" {
			c, err := configProp(t, z.file, z.line)
			if err != nil {
				return err
			}
			z.config = append(z.config, c)
		}
		z.open = append(z.open, f)
		return nil
	}
	if len(z.open) == 0 {
		if name != "platform" {
			return z.errorf("root element is <%s>, want <platform>", name)
		}
		for _, a := range t.Attr {
			if v, err := strconv.ParseFloat(a.Value, 64); a.Name.Local == "version" && err == nil && v < 4 {
				return z.errorf("platform version %s: emu reads SimGrid's version 4 files (bandwidths with units, speed instead of power); convert it with SimGrid's simgrid_update_xml", a.Value)
			}
		}
		z.sawRoot, z.zone = true, -1
		z.open = append(z.open, f)
		return nil
	}
	if err := z.afterRoutes(name); err != nil {
		return err
	}
	var err error
	madeFrom := len(z.names)
	switch name {
	case "prop":
		f.ignore = true
		err = z.hostProp(t)
	case "disk":
		f.ignore = true
	case "config":
		f.ignore, f.config = true, true
	case "zone", "AS":
		err = z.startZone(t, &f)
	case "cluster":
		err = z.cluster(t, &f)
	case "host":
		err = z.host(t)
	case "router":
		err = z.router(t)
	case "link":
		err = z.link(t)
	case "backbone":
		err = z.backbone(t)
	case "host_link":
		err = z.hostLink(t)
	case "cabinet":
		err = z.cabinet(t)
	case "route", "zoneRoute", "ASroute", "bypassRoute", "bypassZoneRoute", "bypassASroute":
		err = z.startRoute(t)
	case "link_ctn":
		err = z.linkCtn(t)
	case "trace":
		err = z.trace(t)
	case "trace_connect":
		err = z.traceConnect(t)
	default:
		return z.errorf("<%s> is not supported: emu reads SimGrid's zones, hosts, routers, links, routes and flat clusters", name)
	}
	if err != nil {
		return err
	}
	if name == "host" || name == "cluster" {
		f.hosts = [2]int{madeFrom, len(z.names)}
	}
	if f.zone >= 0 {
		z.zone = f.zone
	}
	z.open = append(z.open, f)
	return nil
}

// afterRoutes refuses a zone's resource (a host, link, router, zone or
// cluster) after one of its routes, as SimGrid's DTD and parser do
// ("Starting tag <link> is not allowed here"): a zone lists its resources,
// then its routes. It notes a zone's first route.
func (z *zoneParser) afterRoutes(name string) error {
	parent := &z.open[len(z.open)-1]
	switch name {
	case "route", "zoneRoute", "ASroute", "bypassRoute", "bypassZoneRoute", "bypassASroute":
		if parent.routed == "" {
			parent.routed = name
		}
	case "zone", "AS", "cluster", "cabinet", "host", "router", "link", "backbone", "host_link", "peer", "storage", "storage_type", "include":
		if parent.routed != "" {
			return z.errorf("<%s> after <%s>: SimGrid's DTD puts a zone's routes after its hosts, links and zones (\"Starting tag <%s> is not allowed here\")", name, parent.routed, name)
		}
	}
	return nil
}

// hostProp keeps a <prop> of a <host> or a <cluster> that SMPI reads per
// host (HostPropIDs), with the hosts it is set on.
func (z *zoneParser) hostProp(t xml.StartElement) error {
	parent := z.open[len(z.open)-1]
	if parent.hosts[1] == 0 {
		return nil // a zone's or a link's property: SMPI reads none of them
	}
	c, err := configProp(t, z.file, z.line)
	if err != nil || !HostPropIDs[c.ID] {
		return nil // read past, as before: no SMPI setting
	}
	hp := HostProp{ConfigProp: c}
	for h := parent.hosts[0]; h < parent.hosts[1]; h++ {
		hp.Hosts = append(hp.Hosts, h)
	}
	z.hostProps = append(z.hostProps, hp)
	return nil
}

// parent is the innermost open element but the one being opened.
func (z *zoneParser) parent() string { return z.open[len(z.open)-1].name }

// inZone checks that an element sits directly in a zone.
func (z *zoneParser) inZone(elem string) error {
	if p := z.parent(); p != "zone" && p != "AS" {
		return z.errorf("<%s> inside <%s>: it belongs in a <zone>", elem, p)
	}
	return nil
}

// addPoint names a new netpoint of the current zone.
func (z *zoneParser) addPoint(elem, name string, kind fluid.PointKind, child int) (int, error) {
	if name == "" {
		return 0, z.errorf("<%s>: empty id", elem)
	}
	if _, dup := z.points[name]; dup {
		return 0, z.errorf("<%s id=%q>: a host, router or zone of that name already exists", elem, name)
	}
	p := len(z.cfg.Points)
	z.cfg.Points = append(z.cfg.Points, fluid.NetPoint{Name: name, Kind: kind, Zone: z.zone, Child: child})
	z.points[name] = p
	if kind == fluid.PointHost {
		z.cfg.Hosts = append(z.cfg.Hosts, p)
	}
	return p, nil
}

// newZone opens a zone of the given routing below the current one.
func (z *zoneParser) newZone(elem, id string, routing fluid.ZoneRouting, f *frame) error {
	if z.zone < 0 && len(z.cfg.Zones) > 0 {
		return z.errorf("<%s id=%q>: a second top-level zone (a platform has one root)", elem, id)
	}
	if z.zone >= 0 {
		if z.cfg.Zones[z.zone].Routing == fluid.ZoneStar {
			return z.errorf("<%s id=%q> inside the Cluster zone %s: not supported", elem, id, z.cfg.Zones[z.zone].Name)
		}
		z.markChild()
	}
	zi := len(z.cfg.Zones)
	pt, err := z.addPoint(elem, id, fluid.PointZone, zi)
	if err != nil {
		return err
	}
	z.cfg.Zones = append(z.cfg.Zones, fluid.ZoneSpec{Name: id, Routing: routing, Parent: z.zone, Point: pt, Where: fmt.Sprintf("%s:%d: <%s id=%q>", z.file, z.line, elem, id)})
	f.zone = zi
	return nil
}

// markChild records that the innermost open zone holds a zone.
func (z *zoneParser) markChild() {
	for i := len(z.open) - 1; i >= 0; i-- {
		if z.open[i].zone >= 0 {
			z.open[i].hasChild = true
			return
		}
	}
}

// zoneFrame is the frame of the innermost open zone.
func (z *zoneParser) zoneFrame() *frame {
	for i := len(z.open) - 1; i >= 0; i-- {
		if z.open[i].zone >= 0 {
			return &z.open[i]
		}
	}
	return nil
}

var routings = map[string]fluid.ZoneRouting{
	"full": fluid.ZoneFull, "floyd": fluid.ZoneFloyd, "dijkstra": fluid.ZoneDijkstra,
	"dijkstracache": fluid.ZoneDijkstraCache, "none": fluid.ZoneEmpty, "cluster": fluid.ZoneStar,
}

func (z *zoneParser) startZone(t xml.StartElement, f *frame) error {
	a, err := z.attrs(t, "id", "routing")
	if err != nil {
		return err
	}
	if err := z.require(t.Name.Local, a, "id", "routing"); err != nil {
		return err
	}
	if p := z.parent(); p != "platform" && p != "zone" && p != "AS" {
		return z.errorf("<%s> inside <%s>", t.Name.Local, p)
	}
	r, ok := routings[strings.ToLower(a["routing"])]
	if !ok {
		return z.errorf("<%s id=%q>: routing %q is not supported (Full, Floyd, Dijkstra, DijkstraCache, None or Cluster)", t.Name.Local, a["id"], a["routing"])
	}
	return z.newZone(t.Name.Local, a["id"], r, f)
}

// host reads a <host>: its speed is its initial pstate's.
func (z *zoneParser) host(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "speed", "core", "pstate", "availability_file", "state_file", "speed_file", "coordinates")
	if err != nil {
		return err
	}
	if err := z.require("host", a, "id", "speed"); err != nil {
		return err
	}
	if err := z.inZone("host"); err != nil {
		return err
	}
	if a["state_file"] != "" {
		return z.errorf("<host id=%q>: state_file is not supported (emu's hosts do not fail)", a["id"])
	}
	if a["availability_file"] != "" && a["speed_file"] != "" {
		return z.errorf("<host id=%q>: availability_file and speed_file: give one (SimGrid takes both as the speed profile)", a["id"])
	}
	for _, k := range []string{"availability_file", "speed_file"} {
		if a[k] != "" {
			if err := z.useFile("host", a["id"], k, a[k], kindSpeed); err != nil {
				return err
			}
		}
	}
	var speeds []float64
	for _, s := range strings.Split(a["speed"], ",") {
		v, err := units.ParseSpeed(s)
		if err != nil && !zeroSpeed(s) { // a pstate may be 0 (a host switched off)
			return z.errorf("<host id=%q> speed: %v", a["id"], err)
		}
		speeds = append(speeds, v)
	}
	pstate := 0
	if s, ok := a["pstate"]; ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64) // the DTD's default is "0.0"
		if pstate = int(v); err != nil || v != float64(pstate) || pstate < 0 || pstate >= len(speeds) {
			return z.errorf("<host id=%q> pstate: %q is not one of the %d speeds' index", a["id"], s, len(speeds))
		}
	}
	if speeds[pstate] == 0 {
		return z.errorf("<host id=%q> speed: its pstate %d has speed 0", a["id"], pstate)
	}
	cores := 1
	if s, ok := a["core"]; ok {
		if cores, err = strconv.Atoi(strings.TrimSpace(s)); err != nil || cores < 1 || cores > MaxHosts {
			return z.errorf("<host id=%q> core: %q is not a positive integer", a["id"], s)
		}
	}
	if _, err := z.addPoint("host", a["id"], fluid.PointHost, -1); err != nil {
		return err
	}
	if f := z.zoneFrame(); f.hostLine == 0 {
		f.hostLine = z.line
	}
	z.names = append(z.names, a["id"])
	z.speeds = append(z.speeds, speeds[pstate])
	z.cores = append(z.cores, cores)
	return nil
}

// zeroSpeed says whether s is a speed of 0 with a unit ("0f", "0Gf").
func zeroSpeed(s string) bool {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v != 0 || num == t {
		return false
	}
	_, err = units.ParseSpeed("1" + t[len(num):])
	return err == nil
}

func (z *zoneParser) router(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "coordinates")
	if err != nil {
		return err
	}
	if err := z.require("router", a, "id"); err != nil {
		return err
	}
	if err := z.inZone("router"); err != nil {
		return err
	}
	_, err = z.addPoint("router", a["id"], fluid.PointRouter, -1)
	return err
}

// addLink adds one fluid link, refusing a name taken.
func (z *zoneParser) addLink(elem, name, class string, bw, lat float64, sh fluid.Sharing) (fluid.LinkID, error) {
	if _, dup := z.links[name]; dup {
		return 0, z.errorf("<%s>: a link named %q already exists", elem, name)
	}
	id := fluid.LinkID(len(z.cfg.Links))
	z.cfg.Links = append(z.cfg.Links, fluid.Link{Name: name, Bandwidth: bw, Latency: lat, Sharing: sh, Class: class})
	z.links[name] = id
	return id, nil
}

// addCable adds a link of a sharing policy: SPLITDUPLEX makes NAME_UP and
// NAME_DOWN. It returns the links crossed up and down.
func (z *zoneParser) addCable(elem, name, class string, bw, lat float64, policy string) (up, down fluid.LinkID, err error) {
	switch policy {
	case SharingSplitDuplex:
		if _, dup := z.split[name]; dup {
			return 0, 0, z.errorf("<%s>: a link named %q already exists", elem, name)
		}
		if up, err = z.addLink(elem, name+"_UP", class, bw, lat, fluid.Shared); err != nil {
			return
		}
		if down, err = z.addLink(elem, name+"_DOWN", class, bw, lat, fluid.Shared); err != nil {
			return
		}
		z.split[name] = [2]fluid.LinkID{up, down}
		return up, down, nil
	case SharingFatPipe:
		up, err = z.addLink(elem, name, class, bw, lat, fluid.FatPipe)
	default:
		up, err = z.addLink(elem, name, class, bw, lat, fluid.Shared)
	}
	if _, dup := z.split[name]; dup && err == nil {
		return 0, 0, z.errorf("<%s>: a link named %q already exists", elem, name)
	}
	return up, up, err
}

func (z *zoneParser) link(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "bandwidth", "latency", "sharing_policy", "bandwidth_file", "latency_file", "state_file")
	if err != nil {
		return err
	}
	if err := z.require("link", a, "id", "bandwidth"); err != nil {
		return err
	}
	if err := z.inZone("link"); err != nil {
		return err
	}
	if a["state_file"] != "" {
		return z.errorf("<link id=%q>: state_file is not supported (emu's links do not fail)", a["id"])
	}
	for i, k := range []string{"bandwidth_file", "latency_file"} {
		if a[k] != "" {
			if err := z.useFile("link", a["id"], k, a[k], []profileKind{kindBandwidth, kindLatency}[i]); err != nil {
				return err
			}
		}
	}
	if a["id"] == "" {
		return z.errorf("<link>: empty id")
	}
	bw, err := units.ParseBandwidth(a["bandwidth"])
	if err != nil {
		return z.errorf("<link id=%q> bandwidth: %v", a["id"], err)
	}
	lat := 0.0
	if s, ok := a["latency"]; ok {
		if lat, err = units.ParseUnitTime(s); err != nil {
			return z.errorf("<link id=%q> latency: %v", a["id"], err)
		}
	}
	policy := SharingShared
	if s, ok := a["sharing_policy"]; ok {
		if policy, err = ParseSharing(s); err != nil {
			return z.errorf("<link id=%q> sharing_policy: %v", a["id"], err)
		}
	}
	_, _, err = z.addCable("link", a["id"], "link", bw, lat, policy)
	return err
}

// point finds a netpoint by name for an attribute of a route.
func (z *zoneParser) point(elem, attr, name string) (int, error) {
	p, ok := z.points[name]
	if !ok {
		if c, ok := z.noRouter[name]; ok {
			return 0, z.errorf("<%s> %s=%q: the router_id of cluster %q, a %s cluster, which has no router (SimGrid makes none): name one of its hosts, e.g. %q, as the gateway",
				elem, attr, name, c.cluster, c.topology, c.firstHost)
		}
		return 0, z.errorf("<%s> %s=%q: no host, router or zone of that name", elem, attr, name)
	}
	return p, nil
}

func (z *zoneParser) startRoute(t xml.StartElement) error {
	elem := t.Name.Local
	zoneRoute := elem != "route" && elem != "bypassRoute"
	allowed := []string{"src", "dst"}
	if zoneRoute {
		allowed = append(allowed, "gw_src", "gw_dst")
	}
	if elem == "route" || elem == "zoneRoute" || elem == "ASroute" {
		allowed = append(allowed, "symmetrical")
	}
	a, err := z.attrs(t, allowed...)
	if err != nil {
		return err
	}
	required := []string{"src", "dst"}
	if zoneRoute {
		required = append(required, "gw_src", "gw_dst")
	}
	if err := z.require(elem, a, required...); err != nil {
		return err
	}
	if err := z.inZone(elem); err != nil {
		return err
	}
	r := &fluid.ZoneRoute{GwSrc: -1, GwDst: -1, Symmetrical: true, Where: fmt.Sprintf("%s:%d: <%s>", z.file, z.line, elem)}
	if r.Src, err = z.point(elem, "src", a["src"]); err != nil {
		return err
	}
	if r.Dst, err = z.point(elem, "dst", a["dst"]); err != nil {
		return err
	}
	if zoneRoute {
		if r.GwSrc, err = z.point(elem, "gw_src", a["gw_src"]); err != nil {
			return err
		}
		if r.GwDst, err = z.point(elem, "gw_dst", a["gw_dst"]); err != nil {
			return err
		}
	}
	if s, ok := a["symmetrical"]; ok {
		switch s {
		case "YES", "yes":
		case "NO", "no":
			r.Symmetrical = false
		default:
			return z.errorf("<%s> symmetrical=%q: YES or NO", elem, s)
		}
	}
	z.bypass = strings.HasPrefix(elem, "bypass")
	if z.bypass {
		r.Symmetrical = false
	}
	z.route = r
	return nil
}

// linkCtn adds a link to the open route: a link by its name (a split
// link's half by NAME_UP or NAME_DOWN), or a split link with a direction.
func (z *zoneParser) linkCtn(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "direction")
	if err != nil {
		return err
	}
	if err := z.require("link_ctn", a, "id"); err != nil {
		return err
	}
	if z.route == nil || !strings.HasSuffix(strings.ToLower(z.parent()), "route") {
		return z.errorf("<link_ctn> outside a route")
	}
	id := a["id"]
	switch d := a["direction"]; d {
	case "", "NONE":
		l, ok := z.links[id]
		if !ok {
			if _, isSplit := z.split[id]; isSplit {
				return z.errorf("<link_ctn id=%q>: a SPLITDUPLEX link needs direction=\"UP\" or \"DOWN\" (or its half %s_UP or %s_DOWN)", id, id, id)
			}
			return z.errorf("<link_ctn id=%q>: no such link", id)
		}
		z.route.Hops = append(z.route.Hops, fluid.ZoneHop{Fwd: l, Back: l})
	case "UP", "DOWN":
		s, ok := z.split[id]
		if !ok {
			return z.errorf("<link_ctn id=%q direction=%q>: no such SPLITDUPLEX link", id, d)
		}
		if d == "DOWN" {
			s[0], s[1] = s[1], s[0]
		}
		z.route.Hops = append(z.route.Hops, fluid.ZoneHop{Fwd: s[0], Back: s[1]})
	default:
		return z.errorf("<link_ctn id=%q> direction=%q: UP, DOWN or NONE", id, d)
	}
	return nil
}

func (z *zoneParser) end() error {
	f := z.open[len(z.open)-1]
	z.open = z.open[:len(z.open)-1]
	if f.ignore {
		return nil
	}
	switch f.name {
	case "trace":
		return z.endTrace()
	case "route", "zoneRoute", "ASroute", "bypassRoute", "bypassZoneRoute", "bypassASroute":
		zs := &z.cfg.Zones[z.zone]
		if z.bypass {
			zs.Bypass = append(zs.Bypass, *z.route)
		} else {
			zs.Routes = append(zs.Routes, *z.route)
		}
		z.route = nil
	}
	if f.zone < 0 {
		return nil
	}
	if f.hasChild && f.hostLine > 0 {
		return fmt.Errorf("%s:%d: <host> in zone %s, which also holds zones: emu reads zones that hold either hosts or zones", z.file, f.hostLine, z.cfg.Zones[f.zone].Name)
	}
	if f.name != "cluster" && z.cfg.Zones[f.zone].Routing == fluid.ZoneStar {
		if err := z.populateStar(&f); err != nil {
			return err
		}
		if len(f.cabinets) > 0 && f.hasChild {
			return fmt.Errorf("%s:%d: <cabinet> in zone %s, which also holds zones", z.file, f.cabinets[0].line, z.cfg.Zones[f.zone].Name)
		}
	}
	z.zone = f.prevZone
	return nil
}

// platform is the Platform read.
func (z *zoneParser) platform() (*Platform, error) {
	switch {
	case !z.sawRoot:
		return nil, fmt.Errorf("%s:1: no <platform> element", z.file)
	case len(z.cfg.Zones) == 0:
		return nil, fmt.Errorf("%s:1: no <zone> or <cluster> element", z.file)
	case len(z.names) == 0:
		return nil, fmt.Errorf("%s:1: no host", z.file)
	case len(z.names) > MaxHosts:
		return nil, fmt.Errorf("%s:1: %d hosts: more than %d", z.file, len(z.names), MaxHosts)
	}
	prof, err := z.profiles()
	if err != nil {
		return nil, err
	}
	cfg := z.cfg
	cfg.Loopback = &fluid.Link{Name: "__loopback__", Bandwidth: fluid.DefaultLoopbackBandwidth, Sharing: fluid.FatPipe, Class: "loopback"}
	p := &Platform{
		Topology: TopoZones, Hosts: len(z.names), Names: z.names, HostCores: z.cores, Speeds: z.speeds,
		Speed: z.speeds[0], CoresPerHost: z.cores[0], Zones: &cfg, Config: z.config, HostProps: z.hostProps,
		Sharing: SharingShared, BackboneSharing: SharingShared, NoLoopback: true, Profiles: prof,
	}
	for _, c := range z.cores {
		p.CoresPerHost = max(p.CoresPerHost, c)
	}
	if _, err := p.Build(); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "fluid: "))
	}
	return p, nil
}
