package fluid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ends maps a split-duplex link to the two network nodes it connects, in
// its direction of travel, and a limiter link to {its node, ""}; tests
// build it from a topology's internals and walk routes over it.
type ends map[LinkID][2]string

func host(h int) string { return fmt.Sprintf("h%d", h) }

// walk checks that r is a connected path from host src to host dst and,
// if it holds limiter links, that it holds exactly one per node visited.
func (e ends) walk(r Route, src, dst int) error { return e.walkJumping(r, src, dst, nil) }

// walkJumping is walk where the route may also move, between two links,
// from node at to node jump(at) without a link (jump returns "" where it
// may not): the jumped-from node counts as not visited.
func (e ends) walkJumping(r Route, src, dst int, jump func(at string) string) error {
	at := host(src)
	visited, limited := []string{at}, []string(nil)
	for _, l := range r.Links {
		end, ok := e[l]
		if !ok {
			return fmt.Errorf("link %d has no known ends", l)
		}
		if end[1] == "" {
			limited = append(limited, end[0])
			continue
		}
		if end[0] != at && jump != nil && jump(at) == end[0] {
			at = end[0]
			visited[len(visited)-1] = at
		}
		if end[0] != at {
			return fmt.Errorf("link %d leaves %s, but the route is at %s", l, end[0], at)
		}
		at = end[1]
		visited = append(visited, at)
	}
	if at != host(dst) {
		return fmt.Errorf("route ends at %s, want %s", at, host(dst))
	}
	slices.Sort(visited)
	slices.Sort(limited)
	if e.hasLimiters() && !slices.Equal(visited, limited) {
		return fmt.Errorf("limiters of %v on a route through %v", limited, visited)
	}
	return nil
}

func (e ends) hasLimiters() bool {
	for _, end := range e {
		if end[1] == "" {
			return true
		}
	}
	return false
}

// cables counts the links of r that are not limiters.
func cables(topo Topology, r Route) int {
	n := 0
	for _, l := range r.Links {
		if topo.Links()[l].Class != limiterClass {
			n++
		}
	}
	return n
}

func fatTreeEnds(t *FatTree) ends {
	e := ends{}
	name := func(g int) string {
		if g < t.hosts {
			return host(g)
		}
		return fmt.Sprintf("s%d", g)
	}
	for g, l := range t.limiters {
		if l >= 0 {
			e[l] = [2]string{name(g), ""}
		}
	}
	for g := range t.parents {
		for _, c := range t.parents[g] {
			e[c.upLink] = [2]string{name(int(c.child)), name(int(c.parent))}
			e[c.downLink] = [2]string{name(int(c.parent)), name(int(c.child))}
		}
	}
	return e
}

// TestFatTreeShape checks SimGrid's example "2;4,4;1,2;1,2" (reference
// §4.6): 16 hosts under 4 level-1 switches, each with 2 parents reached
// through 2 parallel cables; 2 level-2 switches.
func TestFatTreeShape(t *testing.T) {
	c, err := ParseFatTreeParams("2;4,4;1,2;1,2")
	if err != nil {
		t.Fatal(err)
	}
	c.Link = spec
	ft, err := NewFatTree(c)
	if err != nil {
		t.Fatal(err)
	}
	// Cables: 16 host↔level-1 + 4 switches × 2 parents × 2 parallel = 32,
	// two links each (split duplex), plus 16 loopbacks.
	if ft.Hosts() != 16 || fmt.Sprint(ft.Switches()) != "[4 2]" || len(ft.Links()) != 80 {
		t.Fatalf("hosts %d switches %v links %d, want 16 [4 2] 80", ft.Hosts(), ft.Switches(), len(ft.Links()))
	}
	classes := map[string]int{}
	for _, l := range ft.Links() {
		classes[l.Class]++
	}
	if classes["host"] != 32 || classes["level1"] != 32 || classes["loopback"] != 16 {
		t.Errorf("link classes %v", classes)
	}
}

// TestFatTreeRoutes: on several shapes, every route is a connected path
// that climbs exactly to the lowest level whose subtree holds both hosts:
// level k = 1 + the highest digit where the hosts' positions differ in
// radix d (2k links).
func TestFatTreeRoutes(t *testing.T) {
	for i, p := range []string{"1;4;1;1", "2;4,4;1,2;1,2", "2;2,3;2,2;1,2", "3;2,2,3;1,2,2;1,2,1", "3;4,4,4;1,4,4;1,1,1"} {
		c, err := ParseFatTreeParams(p)
		if err != nil {
			t.Fatal(err)
		}
		c.Link = spec
		c.Loopback.Disabled = true
		if i%2 == 1 {
			c.Limiter = 2e9
		}
		ft, err := NewFatTree(c)
		if err != nil {
			t.Fatal(err)
		}
		checkRouteBasics(t, ft)
		e := fatTreeEnds(ft)
		for s := range ft.Hosts() {
			for d := range ft.Hosts() {
				r := ft.Route(s, d)
				if err := e.walk(r, s, d); err != nil {
					t.Fatalf("%s: route %d→%d: %v", p, s, d, err)
				}
				k, a, b := 1, s/c.Down[0], d/c.Down[0]
				for i := 1; a != b; i++ {
					k, a, b = k+1, a/c.Down[i], b/c.Down[i]
				}
				if cables(ft, r) != 2*k {
					t.Fatalf("%s: route %d→%d has %d cables, want 2×%d", p, s, d, cables(ft, r), k)
				}
			}
		}
	}
}

// TestFatTreeShiftIsContentionFree: d-mod-k routing on a full-bisection
// fat-tree sends every shift permutation (host i → i+s) over disjoint
// links, the property that makes it the standard static routing.
func TestFatTreeShiftIsContentionFree(t *testing.T) {
	for _, p := range []string{"2;4,4;1,4;1,1", "3;4,4,4;1,4,4;1,1,1"} {
		c, _ := ParseFatTreeParams(p)
		c.Link = spec
		ft, err := NewFatTree(c)
		if err != nil {
			t.Fatal(err)
		}
		n := ft.Hosts()
		for shift := 1; shift < n; shift++ {
			used := map[LinkID]int{}
			for s := range n {
				for _, l := range ft.Route(s, (s+shift)%n).Links {
					if used[l]++; used[l] > 1 {
						t.Fatalf("%s shift %d: link %s used twice", p, shift, ft.Links()[l].Name)
					}
				}
			}
		}
	}
}

func torusEnds(t *Torus) ends {
	e := ends{}
	D := len(t.dims)
	for n := range t.hosts {
		for i, d := range t.dims {
			next := n + t.stride[i]
			if (n/t.stride[i])%d == d-1 {
				next = n - (d-1)*t.stride[i]
			}
			if t.lims[n] >= 0 {
				e[t.lims[n]] = [2]string{host(n), ""}
			}
			e[t.up[n*D+i]] = [2]string{host(n), host(next)}
			e[t.down[n*D+i]] = [2]string{host(next), host(n)}
		}
	}
	return e
}

// TestTorusRing checks the direction rule on a ring of 5 (d/2 = 2): 0→2
// goes + over 0's and 1's links; 0→3 goes − (3 is not within +2), through
// 4, over the DOWN sides of 4's and 3's links.
func TestTorusRing(t *testing.T) {
	dims, err := ParseTorusParams("5")
	if err != nil {
		t.Fatal(err)
	}
	to, err := NewTorus(TorusConfig{Dims: dims, Link: spec})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src, dst int
		want     []string
	}{
		{0, 2, []string{"link_from_0_to_1_UP", "link_from_1_to_2_UP"}},
		{0, 3, []string{"link_from_4_to_0_DOWN", "link_from_3_to_4_DOWN"}},
		{4, 1, []string{"link_from_4_to_0_UP", "link_from_0_to_1_UP"}},
		{3, 4, []string{"link_from_3_to_4_UP"}},
	} {
		if got := names(to, to.Route(c.src, c.dst)); !sameStrings(got, c.want) {
			t.Errorf("route %d→%d = %v, want %v", c.src, c.dst, got, c.want)
		}
	}
}

// TestTorusRoutes: on 1-, 2- and 3-D tori every route is connected and as
// long as the sum over dimensions of the ring distances min(|s−t|, d−|s−t|).
func TestTorusRoutes(t *testing.T) {
	for i, dims := range [][]int{{6}, {4, 3}, {4, 3, 2}, {1, 5, 2}} {
		to, err := NewTorus(TorusConfig{Dims: dims, Link: spec, Limiter: float64(i%2) * 2e9})
		if err != nil {
			t.Fatal(err)
		}
		checkRouteBasics(t, to)
		e := torusEnds(to)
		for s := range to.Hosts() {
			for d := range to.Hosts() {
				if s == d {
					continue
				}
				r := to.Route(s, d)
				if err := e.walk(r, s, d); err != nil {
					t.Fatalf("%v: route %d→%d: %v", dims, s, d, err)
				}
				want, a, b := 0, s, d
				for _, n := range dims {
					diff := a%n - b%n
					diff = max(diff, -diff)
					want += min(diff, n-diff)
					a, b = a/n, b/n
				}
				if cables(to, r) != want {
					t.Fatalf("%v: route %d→%d has %d cables, want %d", dims, s, d, cables(to, r), want)
				}
			}
		}
	}
}

func dragonflyEnds(t *Dragonfly) ends {
	e := ends{}
	C, R, N := t.cfg.Chassis, t.cfg.Routers, t.cfg.Nodes
	router := func(r int) string { return fmt.Sprintf("r%d", r) }
	for h := range t.hosts {
		if t.hostLims[h] >= 0 {
			e[t.hostLims[h]] = [2]string{host(h), ""}
		}
		e[t.nodeUp[h]] = [2]string{host(h), router(h / N)}
		e[t.nodeDown[h]] = [2]string{router(h / N), host(h)}
	}
	for r := range len(t.blue) {
		if t.routerLims[r] >= 0 {
			e[t.routerLims[r]] = [2]string{router(r), ""}
		}
		g, ch, b := r/(C*R), (r/R)%C, r%R
		for k := range R {
			if k != b {
				e[t.green[r*R+k]] = [2]string{router(r), router((g*C+ch)*R + k)}
			}
		}
		for k := range C {
			if k != ch {
				e[t.black[r*C+k]] = [2]string{router(r), router((g*C+k)*R + b)}
			}
		}
		if t.blue[r] >= 0 {
			j := r % (C * R) // router number j of group g leads to group j, router number g
			e[t.blue[r]] = [2]string{router(r), router(j*C*R + g)}
		}
	}
	return e
}

// TestDragonflyRoutes: on SimGrid's example "3,4;4,3;5,1;2" and on shapes
// with several chassis, every route is connected but for SimGrid's one jump
// (after a green hop in the destination group, from the router reached to
// the router of the same blade in chassis 0), crosses at most one blue link
// and at most 7 links; aggregated levels carry count × bandwidth.
func TestDragonflyRoutes(t *testing.T) {
	for i, p := range []string{"3,4;4,3;5,1;2", "2,2;2,1;1,2;2", "4,1;3,2;2,1;1", "1,1;3,1;3,1;2"} {
		c, err := ParseDragonflyParams(p)
		if err != nil {
			t.Fatal(err)
		}
		c.Link = spec
		c.Limiter = float64(i%2) * 2e9
		df, err := NewDragonfly(c)
		if err != nil {
			t.Fatal(err)
		}
		checkRouteBasics(t, df)
		e := dragonflyEnds(df)
		jump := func(at string) string { // router (g, ch, b) → (g, 0, b)
			var r int
			if _, err := fmt.Sscanf(at, "r%d", &r); err != nil || (r/c.Routers)%c.Chassis == 0 {
				return ""
			}
			return fmt.Sprintf("r%d", r-((r/c.Routers)%c.Chassis)*c.Routers)
		}
		for s := range df.Hosts() {
			for d := range df.Hosts() {
				if s == d {
					continue
				}
				r := df.Route(s, d)
				if err := e.walkJumping(r, s, d, jump); err != nil {
					t.Fatalf("%s: route %d→%d: %v %v", p, s, d, err, names(df, r))
				}
				inter := 0
				for _, l := range r.Links {
					if df.Links()[l].Class == "inter" {
						inter++
					}
				}
				sameGroup := s/(c.Chassis*c.Routers*c.Nodes) == d/(c.Chassis*c.Routers*c.Nodes)
				if cables(df, r) > 7 || (sameGroup && inter != 0) || (!sameGroup && inter != 1) {
					t.Fatalf("%s: route %d→%d = %v", p, s, d, names(df, r))
				}
			}
		}
		want := map[string]float64{"terminal": spec.Bandwidth, "inter": spec.Bandwidth * float64(c.GroupLinks)}
		for _, l := range df.Links() {
			if w, ok := want[l.Class]; ok && l.Bandwidth != w {
				t.Errorf("%s: %s has %v B/s, want %v", p, l.Name, l.Bandwidth, w)
			}
		}
	}
}

// TestDragonflyNamedRoute follows SimGrid's algorithm by hand on its
// example "3,4;4,3;5,1;2" (5 blades, 4 chassis, 2 nodes per blade): host 0
// is (group 0, chassis 0, blade 0, node 0); host 97 = ((2·4+1)·5+3)·2+1 is
// (group 2, chassis 1, blade 3, node 1), on router 48. Path: node link up;
// green to blade 2 (the router wired to group 2); blue to group 2, arriving
// at its router number 0 (chassis 0, blade 0); green to blade 3; black to
// chassis 1; node link down.
func TestDragonflyNamedRoute(t *testing.T) {
	c, _ := ParseDragonflyParams("3,4;4,3;5,1;2")
	c.Link = spec
	df, err := NewDragonfly(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{ // SimGrid's names end in the count of cables made before
		"local_link_from_router_0_to_node_0_0_UP",
		"green_link_in_chassis_0_between_routers_0_and_2_121_UP",
		"blue_link_between_group_0_and_2_routers_2_and_40_331_UP",
		"green_link_in_chassis_0_between_routers_0_and_3_202_UP",
		"black_link_in_group_2_between_chassis_0_and_1_blade_3_303_UP",
		"local_link_from_router_48_to_node_1_97_DOWN",
	}
	r := df.Route(0, 97)
	if got := names(df, r); !sameStrings(got, want) {
		t.Errorf("route 0→97 =\n%v\nwant\n%v", got, want)
	}
	if r.Hops != 5 || math.Abs(r.Latency-6*spec.Latency) > latTol {
		t.Errorf("hops %d latency %v", r.Hops, r.Latency)
	}
	// 120 local, 120 green, 90 black and 3 blue cables: a second
	// dragonfly of the platform numbers its own from 333, as SimGrid
	// 3.32's counter (static to its process) goes on.
	if n := df.Cables(); n != 333 {
		t.Errorf("%d cables, want 333", n)
	}
	c.FirstCable = df.Cables()
	df2, err := NewDragonfly(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := names(df2, df2.Route(0, 97))[1], "green_link_in_chassis_0_between_routers_0_and_2_454_UP"; got != w {
		t.Errorf("second dragonfly: %s, want %s", got, w)
	}
}

// TestLimiters follows SimGrid's limiter placement by hand. Flat cluster:
// source limiter, up, backbone, down, destination limiter. Fat-tree
// "2;4,4;1,2;1,2", host 0 → host 5: hosts are nodes 0–15, level-1
// switches 16–19, top switches 20–21. Host 5 sits under switch 17; from
// switch 16 the up port is (5 / u1) mod (u2·c2) = 5 mod 4 = 1, the cable to
// the top switch of label digit 1 = 1, node 21. Limiters: host 0 before
// its up-link, switch 16 before its up-link, switch 21 after its down-link,
// switch 17 after its down-link, host 5 at the end. SimGrid names a
// switch's limiter by its id, counting down from 2·16−1 = 31 over switches
// 16, 17, ..., 21: switch 16 is 31, 17 is 30, 21 is 26.
func TestLimiters(t *testing.T) {
	f, err := NewFlat(FlatConfig{Hosts: 3, Link: spec, Backbone: &Backbone{Bandwidth: 1e10}, Limiter: 1e9,
		Loopback: Loopback{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(f, f.Route(0, 2)), []string{"link_0_limiter", "link_0_UP", "backbone", "link_2_DOWN", "link_2_limiter"}; !sameStrings(got, want) {
		t.Errorf("flat 0→2 = %v, want %v", got, want)
	}
	if r := f.Route(0, 2); r.Hops != 2 {
		t.Errorf("flat 0→2: %d hops, want 2 (limiters are not cables)", r.Hops)
	}
	if got, want := names(f, f.Route(1, 1)), []string{"link_1_limiter", "link_1_UP", "backbone", "link_1_DOWN"}; !sameStrings(got, want) {
		t.Errorf("flat 1→1 = %v, want %v (limiter once, as SimGrid's star zone dedupes)", got, want)
	}

	c, _ := ParseFatTreeParams("2;4,4;1,2;1,2")
	c.Link, c.Limiter = spec, 1e9
	ft, err := NewFatTree(c)
	if err != nil {
		t.Fatal(err)
	}
	r := ft.Route(0, 5)
	var classes, lims []string
	for _, l := range r.Links {
		link := ft.Links()[l]
		classes = append(classes, link.Class)
		if link.Class == limiterClass {
			lims = append(lims, link.Name)
			if link.Bandwidth != 1e9 || link.Latency != 0 || link.Sharing != Shared {
				t.Errorf("limiter %+v", link)
			}
		}
	}
	wantClasses := []string{"limiter", "host", "limiter", "level1", "level1", "limiter", "host", "limiter", "limiter"}
	wantLims := []string{"link_0_limiter", "link_31_limiter", "link_26_limiter", "link_30_limiter", "link_5_limiter"}
	if !sameStrings(classes, wantClasses) || !sameStrings(lims, wantLims) || r.Hops != 3 {
		t.Errorf("fat-tree 0→5: classes %v limiters %v hops %d\nwant %v %v 3", classes, lims, r.Hops, wantClasses, wantLims)
	}
}

// routeByScan is FatTree.Route as SimGrid writes its descent: the children
// of each switch scanned one by one for the next index whose residue is
// dst's digit, the scan index carried over to the next level. Route
// computes that index instead; this is the reference it must match. (The
// climb is Route's own: only the descent differs.)
func routeByScan(t *FatTree, src, dst int) Route {
	if src == dst {
		if r, ok := t.loopRoute(src); ok {
			return r
		}
	}
	path, cur, level := t.climb(src, dst)
	for cur != dst {
		start := (src % t.par[level-1]) * t.down[level-1]
		for i := start; i < len(t.children[cur]); i++ {
			if i%t.down[level-1] == t.label(dst, level-1) {
				cable := t.children[cur][i]
				path = append(path, cable.downLink)
				path = appendLimiter(path, t.limiters[cur])
				cur, level = int(cable.child), level-1
			}
		}
	}
	path = appendLimiter(path, t.limiters[dst])
	return t.switched(path)
}

// TestFatTreeRouteMatchesScan: Route takes the very cables of SimGrid's
// scan (routeByScan) — every pair of hosts on shapes with parallel cables,
// several parents and limiters, and random pairs of Stampede's 6,006-host
// tree, whose top switches have hundreds of children.
func TestFatTreeRouteMatchesScan(t *testing.T) {
	for i, p := range []string{"1;4;1;1", "2;4,4;1,2;1,2", "2;2,3;2,2;1,2", "3;2,2,3;1,2,2;1,2,1",
		"3;4,4,4;1,4,4;1,1,1", "2;3,5;2,3;3,2", "3;3,2,4;2,3,2;2,1,3", "2;22,273;1,8;1,1"} {
		c, err := ParseFatTreeParams(p)
		if err != nil {
			t.Fatal(err)
		}
		c.Link = spec
		if i%2 == 1 {
			c.Limiter = 2e9
		}
		ft, err := NewFatTree(c)
		if err != nil {
			t.Fatal(err)
		}
		n := ft.Hosts()
		check := func(s, d int) {
			got, want := ft.Route(s, d), routeByScan(ft, s, d)
			if !slices.Equal(got.Links, want.Links) || got.Latency != want.Latency || got.Hops != want.Hops {
				t.Fatalf("%s: route %d→%d: %v, SimGrid's scan gives %v", p, s, d, got, want)
			}
		}
		if n <= 100 {
			for s := range n {
				for d := range n {
					check(s, d)
				}
			}
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for range 20000 {
			check(rng.IntN(n), rng.IntN(n))
		}
	}
}
