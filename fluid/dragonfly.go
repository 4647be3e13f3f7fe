package fluid

import (
	"fmt"
	"strconv"
)

// DragonflyConfig describes a SimGrid DRAGONFLY <cluster>, topo_parameters
// "g,nb;c,nk;r,ng;n": Groups groups of Chassis chassis of Routers routers
// of Nodes hosts. GroupLinks, ChassisLinks and RouterLinks count parallel
// cables of the blue (between groups), black (between chassis) and green
// (within a chassis) levels; each level's logical link has that many times
// the cable bandwidth.
type DragonflyConfig struct {
	Groups, GroupLinks    int
	Chassis, ChassisLinks int
	Routers, RouterLinks  int
	Nodes                 int
	Link                  LinkSpec
	Loopback              Loopback
	Naming                Naming
	// Limiter is the bandwidth (bytes/s) of a Shared link given to every
	// host and router and crossed by all its traffic (SimGrid's
	// limiter_link); 0 = none.
	Limiter float64
	// FirstCable is the number SimGrid gives the first cable in its name
	// (the suffix _<k>): SimGrid 3.32's DragonflyZone numbers the cables
	// of all the dragonflies of a platform in one sequence (a counter
	// static to its process), in the order it builds them, so a second
	// dragonfly's start where the first's end (Cables).
	FirstCable int
	// SimGridGroups refuses the routes towards a group numbered at or past
	// Routers (a chassis's routers), which SimGrid 3.32 cannot build (its
	// route takes the source router's green link of the group's number, of
	// which there are Routers: it reads past their end and crashes; seeds
	// 1423, 1438, 1458 and 1495 of validation's smpifuzz). A platform file's
	// dragonfly sets it; emu's own go on to router g of the group, blade
	// g mod Routers of chassis g div Routers.
	SimGridGroups bool
}

// Validate reports the first bad field.
func (c DragonflyConfig) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"Groups", c.Groups}, {"GroupLinks", c.GroupLinks}, {"Chassis", c.Chassis},
		{"ChassisLinks", c.ChassisLinks}, {"Routers", c.Routers}, {"RouterLinks", c.RouterLinks}, {"Nodes", c.Nodes}} {
		if f.v < 1 {
			return errorf("DragonflyConfig.%s: must be ≥ 1, got %d", f.name, f.v)
		}
		if f.v > maxNodes {
			return errorf("DragonflyConfig.%s: %d is more than %d", f.name, f.v, maxNodes)
		}
	}
	if c.hosts() > maxNodes || c.Groups*c.Chassis*c.Routers*c.Routers > maxNodes {
		return errorf("DragonflyConfig: %d×%d×%d×%d is too large", c.Groups, c.Chassis, c.Routers, c.Nodes)
	}
	if c.FirstCable < 0 {
		return errorf("DragonflyConfig.FirstCable: must be ≥ 0, got %d", c.FirstCable)
	}
	if err := c.Link.validate("DragonflyConfig.Link"); err != nil {
		return wrap(err)
	}
	if err := c.Loopback.validate("DragonflyConfig.Loopback"); err != nil {
		return wrap(err)
	}
	if err := validateLimiter("DragonflyConfig.Limiter", c.Limiter); err != nil {
		return wrap(err)
	}
	return wrap(c.Naming.validate("DragonflyConfig.Naming", c.hosts()))
}

func (c DragonflyConfig) hosts() int {
	n := 1
	for _, x := range []int{c.Groups, c.Chassis, c.Routers, c.Nodes} {
		if n *= x; n > maxNodes {
			return maxNodes + 1
		}
	}
	return n
}

// Dragonfly uses SimGrid's minimal routing: host → its router; towards
// another group, a green hop to the blade wired to that group, a black hop
// to its chassis and the blue hop; then a green hop to the destination's
// blade and a black hop to its chassis; router → host. Link classes:
// "terminal" (host↔router), "intra" (green and black), "inter" (blue),
// "limiter", "loopback". With limiters, as in SimGrid, the source host's
// comes first, a router's precedes each green or black hop leaving it and
// follows the blue hop leaving it, and the destination router's and host's
// surround the last link.
//
// The blue link of group i towards group j sits on router number j of
// group i, counting blades fastest (SimGrid's placement). SimGrid's routing
// assumes j < Routers (chassis 0); emu also accepts Routers ≤ j <
// Chassis·Routers and reaches that router by its real chassis.
//
// As SimGrid 3.32's DragonflyZone, after the green hop within the
// destination group the route continues from the router of that blade in
// chassis 0, whatever chassis the green hop was in: from chassis c ≠ 0,
// a route to another blade of chassis 0 has no black hop, and one to
// chassis c ≠ 0 takes chassis 0's black link to c (SimGrid's routes,
// checked pair by pair in platform's TestRoutesMatchSimGrid; not a
// physical path).
//
// Links have SimGrid's names, suffixed with the number of cables made
// before them, in this dragonfly and those before it (FirstCable; no
// cluster prefix; _UP and _DOWN when split):
// "local_link_from_router_<r>_to_node_<n>_<k>",
// "green_link_in_chassis_<c>_between_routers_<b1>_and_<b2>_<k>" (c counted
// within the group), "black_link_in_group_<g>_between_chassis_<c1>_and_<c2>_blade_<b>_<k>",
// "blue_link_between_group_<g1>_and_<g2>_routers_<r1>_and_<r2>_<k>"; a
// limiter "<cluster>_link_<id>_limiter", where a host's id is its index and
// router r's is 2·hosts−1−r; a loopback "<cluster>_link_<radical>_loopback".
type Dragonfly struct {
	base
	cfg        DragonflyConfig
	nodeUp     []LinkID // per host
	nodeDown   []LinkID
	green      []LinkID // router ρ towards blade k of its chassis: green[ρ·Routers+k]
	black      []LinkID // router ρ towards chassis k of its group: black[ρ·Chassis+k]
	blue       []LinkID // router ρ's link to another group, -1 if none
	hostLims   []LinkID // per host, -1 if none
	routerLims []LinkID // per router, -1 if none
	cables     int      // cables made (Cables)
}

// Cables returns the number of cables between the dragonfly's hosts and
// routers (each one link, or two when split): where the next dragonfly's
// names start.
func (t *Dragonfly) Cables() int { return t.cables }

// NewDragonfly builds the dragonfly.
func NewDragonfly(c DragonflyConfig) (*Dragonfly, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := &Dragonfly{base: base{hosts: c.hosts(), naming: c.Naming.clone(), loopback: c.Loopback, limiter: c.Limiter}, cfg: c}
	G, C, R := c.Groups, c.Chassis, c.Routers
	routers := G * C * R
	t.nodeUp, t.nodeDown = make([]LinkID, t.hosts), make([]LinkID, t.hosts)
	t.green = make([]LinkID, routers*R)
	t.black = make([]LinkID, routers*C)
	t.blue = make([]LinkID, routers)
	for i := range t.blue {
		t.blue[i] = -1
	}
	cables := c.FirstCable // SimGrid's name suffix: the cables made so far
	name := func(parts ...any) string {
		n := fmt.Sprint(parts...) + "_" + strconv.Itoa(cables)
		cables++
		return n
	}
	for h := range t.hosts {
		n := name("local_link_from_router_", h/c.Nodes, "_to_node_", h%c.Nodes)
		t.nodeUp[h], t.nodeDown[h] = t.cable(n, "terminal", c.Link, 1)
	}
	for gc := 0; gc < G*C; gc++ { // green: all pairs of blades of a chassis
		for j := 0; j < R; j++ {
			for k := j + 1; k < R; k++ {
				n := name("green_link_in_chassis_", gc%C, "_between_routers_", j, "_and_", k)
				up, down := t.cable(n, "intra", c.Link, float64(c.RouterLinks))
				t.green[(gc*R+j)*R+k], t.green[(gc*R+k)*R+j] = up, down
			}
		}
	}
	for g := range G { // black: same blade of every pair of chassis of a group
		for j := 0; j < C; j++ {
			for k := j + 1; k < C; k++ {
				for b := range R {
					n := name("black_link_in_group_", g, "_between_chassis_", j, "_and_", k, "_blade_", b)
					up, down := t.cable(n, "intra", c.Link, float64(c.ChassisLinks))
					t.black[((g*C+j)*R+b)*C+k], t.black[((g*C+k)*R+b)*C+j] = up, down
				}
			}
		}
	}
	for i := range G { // blue: group i's router j ↔ group j's router i
		for j := i + 1; j < G; j++ {
			// With more groups than routers a group, SimGrid's indices
			// run into the next group's routers, whose blue link a later
			// cable replaces, or past the last router (its write is lost
			// here: no route can reach it).
			ri, rj := i*C*R+j, j*C*R+i
			n := name("blue_link_between_group_", i, "_and_", j, "_routers_", ri, "_and_", rj)
			up, down := t.cable(n, "inter", c.Link, float64(c.GroupLinks))
			if ri < routers {
				t.blue[ri] = up
			}
			if rj < routers {
				t.blue[rj] = down
			}
		}
	}
	t.cables = cables - c.FirstCable
	t.hostLims, t.routerLims = make([]LinkID, t.hosts), make([]LinkID, routers)
	for h := range t.hosts {
		t.hostLims[h] = t.addLimiter(h)
	}
	for r := range routers { // SimGrid's router ids count down from 2·hosts−1
		t.routerLims[r] = t.addLimiter(2*t.hosts - 1 - r)
	}
	t.addLoopbacks()
	return t, nil
}

// Route returns the minimal route from src to dst, empty where SimGrid
// cannot build it (Refusal).
func (t *Dragonfly) Route(src, dst int) Route {
	r, _ := t.route(src, dst)
	return r
}

// Refusal says why SimGrid 3.32 cannot route from host src to host dst,
// nil where it can. Only a dragonfly of more groups than routers a group
// has such routes: towards a group g ≥ Chassis·Routers there is no router
// g to leave by (under SimGridGroups, g ≥ Routers: SimGrid reads past a
// router's green links), a group's
// router with no blue link has none to cross (SimGrid's is null), and the
// router SimGrid lands on in the other group, number (group of the
// source) of that group counted on through the next groups, may be past
// the last one. SimGrid fails there, at the first message that needs
// such a route; emu stops there too (ranks.UnroutedError).
func (t *Dragonfly) Refusal(src, dst int) error {
	_, err := t.route(src, dst)
	return err
}

func (t *Dragonfly) route(src, dst int) (Route, error) {
	t.check(src)
	t.check(dst)
	if src == dst {
		if r, ok := t.loopRoute(src); ok {
			return r, nil
		}
	}
	G, C, R, N := t.cfg.Groups, t.cfg.Chassis, t.cfg.Routers, t.cfg.Nodes
	path := make([]LinkID, 0, 16)
	path = appendLimiter(path, t.hostLims[src])
	path = append(path, t.nodeUp[src])
	sr, dr := src/N, dst/N // global router indices
	refuse := func(format string, a ...any) (Route, error) {
		return Route{}, fmt.Errorf("a dragonfly of %d groups of %d routers: "+format+", which SimGrid 3.32 cannot route", append([]any{G, C * R}, a...)...)
	}
	if sr != dr {
		g, ch, b := sr/(C*R), (sr/R)%C, sr%R
		dg, dch, db := dr/(C*R), (dr/R)%C, dr%R
		router := func() int { return (g*C+ch)*R + b }
		if g != dg {
			if dg >= C*R {
				return refuse("group %d has no router %d, wired to group %d", g, dg, dg)
			}
			if t.cfg.SimGridGroups && dg >= R {
				return refuse("a router of group %d has no green link %d, towards group %d (a chassis has %d routers)", g, dg, dg, R)
			}
			// Go to the router wired to group dg: router number dg of
			// this group (blade dg mod R of chassis dg div R).
			if b != dg%R {
				path = appendLimiter(path, t.routerLims[router()])
				path = append(path, t.green[router()*R+dg%R])
				b = dg % R
			}
			if ch != dg/R {
				path = appendLimiter(path, t.routerLims[router()])
				path = append(path, t.black[router()*C+dg/R])
				ch = dg / R
			}
			if t.blue[router()] < 0 {
				return refuse("router %d of group %d has no blue link", dg, g)
			}
			path = append(path, t.blue[router()])
			path = appendLimiter(path, t.routerLims[router()])
			// Arrive at router number g of group dg, counted on through
			// the next groups as SimGrid's index runs.
			x := dg*C*R + sr/(C*R)
			if x >= G*C*R {
				return refuse("router %d of group %d is past the last router", sr/(C*R), dg)
			}
			g, ch, b = x/(C*R), (x/R)%C, x%R
		}
		if b != db {
			path = appendLimiter(path, t.routerLims[router()])
			path = append(path, t.green[router()*R+db])
			g, b, ch = dg, db, 0 // SimGrid's: blade db of chassis 0, whatever ch was
		}
		if ch != dch {
			path = appendLimiter(path, t.routerLims[router()])
			path = append(path, t.black[router()*C+dch])
		}
	}
	path = appendLimiter(path, t.routerLims[dr])
	path = append(path, t.nodeDown[dst])
	path = appendLimiter(path, t.hostLims[dst])
	return t.switched(path), nil
}
