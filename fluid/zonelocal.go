package fluid

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/internal/heap"
)

// localRoute is a zone's get_local_route between two of its points: it
// adds the route's links to *links (where each routing puts them: Dijkstra
// in front) and their latencies to *lat, and returns the route's gateways
// (-1 outside zones of zones).
func (t *Zones) localRoute(z *zone, src, dst int, links *[]LinkID, lat *float64) (gwSrc, gwDst int) {
	s, d := t.local[src], t.local[dst]
	switch z.Routing {
	case ZoneFull:
		if r := z.table[[2]int{s, d}]; r != nil {
			t.addLinks(links, r.links, lat)
			return r.gwSrc, r.gwDst
		}
	case ZoneFloyd:
		return t.floydRoute(z, s, d, links, lat)
	case ZoneDijkstra, ZoneDijkstraCache:
		return t.dijkstraRoute(z, s, d, links, lat)
	case ZoneStar:
		return t.starRoute(z, s, d, links, lat)
	case ZoneCluster:
		t.clusterRoute(z, s, d, links, lat)
	case ZoneEmpty:
		t.abort(fmt.Errorf("%s: a zone of routing None routes nothing (SimGrid's constant network model), from %s to %s", z.Where, t.points[src].Name, t.points[dst].Name))
	}
	return -1, -1
}

// floydRoute walks a Floyd zone's predecessors back from dst, then adds
// the declared routes from src on; in a zone of zones, consecutive routes
// whose gateways differ are joined by the global route between them.
func (t *Zones) floydRoute(z *zone, s, d int, links *[]LinkID, lat *float64) (gwSrc, gwDst int) {
	n := len(z.vertices)
	var stack []*zroute
	cur := d
	for {
		p := z.pred[s*n+cur]
		if p < 0 {
			t.abort(fmt.Errorf("%s: no route from %s to %s (Floyd)", z.Where, t.points[z.vertices[s]].Name, t.points[z.vertices[d]].Name))
			return -1, -1
		}
		stack = append(stack, z.table[[2]int{int(p), cur}])
		if cur = int(p); cur == s {
			break
		}
	}
	gwSrc, gwDst = -1, -1
	if z.recursive {
		gwSrc, gwDst = stack[len(stack)-1].gwSrc, stack[0].gwDst
	}
	prev := -1
	for i := len(stack) - 1; i >= 0; i-- {
		r := stack[i]
		if z.recursive && prev >= 0 && t.points[prev].Name != t.points[r.gwSrc].Name {
			t.global(prev, r.gwSrc, links, lat)
		}
		t.addLinks(links, r.links, lat)
		prev = r.gwDst
	}
	return gwSrc, gwDst
}

// dgraph is a Dijkstra zone's graph: nodes in the order routes first name
// them, out-edges in declaration order (xbt_graph's).
type dgraph struct {
	node  map[int]int // local id → node
	local []int       // node → local id
	out   [][]dedge
	pred  map[int][]int // source node → predecessors, computed once
}

type dedge struct {
	to int
	r  *zroute
}

// edge is the first edge from a to b, or nil.
func (g *dgraph) edge(a, b int) *zroute {
	for _, e := range g.out[a] {
		if e.to == b {
			return e.r
		}
	}
	return nil
}

func (g *dgraph) nodeOf(local int) int {
	if n, ok := g.node[local]; ok {
		return n
	}
	g.node[local] = len(g.local)
	g.local = append(g.local, local)
	g.out = append(g.out, nil)
	return len(g.local) - 1
}

// sealDijkstra builds the graph of a Dijkstra zone's declared routes.
func (t *Zones) sealDijkstra(z *zone) error {
	g := &dgraph{node: map[int]int{}, pred: map[int][]int{}}
	add := func(r ZoneRoute, src, dst, gwSrc, gwDst int, links []LinkID) error {
		a, b := g.nodeOf(t.local[src]), g.nodeOf(t.local[dst])
		if g.edge(a, b) != nil {
			return fmt.Errorf("%s: the route from %s to %s already exists (routes are symmetrical unless symmetrical=\"NO\")", r.Where, t.points[src].Name, t.points[dst].Name)
		}
		g.out[a] = append(g.out[a], dedge{to: b, r: &zroute{gwSrc: gwSrc, gwDst: gwDst, links: links}})
		return nil
	}
	for _, r := range z.Routes {
		if err := add(r, r.Src, r.Dst, r.GwSrc, r.GwDst, hops(r, false)); err != nil {
			return err
		}
		if r.Symmetrical {
			if err := add(r, r.Dst, r.Src, r.GwDst, r.GwSrc, reversed(hops(r, true))); err != nil {
				return err
			}
		}
	}
	if t.loop >= 0 && !z.recursive {
		for a := range g.local {
			if g.edge(a, a) == nil {
				g.out[a] = append(g.out[a], dedge{to: a, r: &zroute{gwSrc: -1, gwDst: -1, links: []LinkID{t.loop}}})
			}
		}
	}
	z.dijkstra = g
	return nil
}

// dijkstraPred returns the predecessors of every node on the paths from
// node src, as SimGrid 3.32 computes them: costs are links crossed, in
// unsigned 64-bit arithmetic that wraps (an unreached node's cost is the
// maximum, and relaxing from it wraps around), every node queued at the
// start, the queue ordered by (cost as a double, node).
func (t *Zones) dijkstraPred(g *dgraph, src int) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := g.pred[src]; ok {
		return p
	}
	n := len(g.local)
	cost := make([]uint64, n)
	pred := make([]int, n)
	var q heap.Heap[float64, uint64]
	for i := range n {
		if i != src {
			cost[i] = math.MaxUint64
		}
		q.Push(heap.Entry[float64, uint64]{Key: float64(cost[i]), ID: uint64(i)})
	}
	for q.Len() > 0 {
		v := int(q.Pop().ID)
		for _, e := range g.out[v] {
			c := uint64(len(e.r.links)) + cost[v]
			if c < cost[e.to] {
				pred[e.to], cost[e.to] = v, c
				q.Push(heap.Entry[float64, uint64]{Key: float64(c), ID: uint64(e.to)})
			}
		}
	}
	g.pred[src] = pred
	return pred
}

// dijkstraRoute is DijkstraZone::get_local_route: a point's route to itself
// is its own edge; else the edges of the path, from dst back to src, each
// put in front of the links found so far with its links backwards.
func (t *Zones) dijkstraRoute(z *zone, s, d int, links *[]LinkID, lat *float64) (gwSrc, gwDst int) {
	g := z.dijkstra
	name := func(l int) string { return t.points[z.vertices[l]].Name }
	fail := func() (int, int) {
		t.abort(fmt.Errorf("%s: no route from %s to %s (Dijkstra)", z.Where, name(s), name(d)))
		return -1, -1
	}
	sn, ok1 := g.node[s]
	dn, ok2 := g.node[d]
	if !ok1 || !ok2 {
		return fail()
	}
	front := func(r []LinkID) {
		*links = append(reversed(r), *links...)
		for _, l := range r {
			*lat += t.links[l].Latency
		}
	}
	if sn == dn {
		r := g.edge(sn, dn)
		if r == nil {
			return fail()
		}
		front(r.links)
	}
	pred := t.dijkstraPred(g, sn)
	gwSrc, first := -1, -1
	steps := 0
	for v := dn; v != sn; v = pred[v] {
		r := g.edge(pred[v], v)
		if steps++; r == nil || steps > len(pred) {
			return fail()
		}
		prevGwSrc := gwSrc
		gwSrc = r.gwSrc
		if v == dn {
			first = r.gwDst
		}
		if z.recursive && v != dn && t.points[r.gwDst].Name != t.points[prevGwSrc].Name {
			// SimGrid 3.32 looks up the route between two null points
			// here, and aborts: where a message needs this route.
			t.refuse(fmt.Errorf("%s: the zone routes from %s to %s meet at different gateways, which SimGrid 3.32 cannot route (Dijkstra)", z.Where, name(s), name(d)))
			return -1, -1
		}
		front(r.links)
	}
	if z.recursive {
		return gwSrc, first
	}
	return -1, -1
}

// starEntry is a star zone's routes of one point.
type starEntry struct {
	up, down, loopback  []LinkID
	upSet, downSet, has bool
	loopSet             bool
	gateway             int
}

// sealStar applies a star zone's routes in order (a later one replaces an
// earlier one, as SimGrid's StarZone::add_route does) and gives every point
// without any its empty routes up and down.
func (t *Zones) sealStar(z *zone) error {
	z.star = make([]starEntry, len(z.vertices))
	for i := range z.star {
		z.star[i].gateway = -1
	}
	for _, r := range z.Routes {
		switch {
		case r.Src < 0 && r.Dst < 0, r.Src >= 0 && r.Dst >= 0 && r.Src != r.Dst:
			return fmt.Errorf("%s: a star zone's route goes from a point to every point, from every point to one, or from a point to itself", r.Where)
		case r.Symmetrical && r.Src < 0:
			return fmt.Errorf("%s: a star zone's symmetrical route goes from a point to every point", r.Where)
		}
		if r.Src >= 0 && r.Src == r.Dst {
			e := &z.star[t.local[r.Src]]
			e.loopback, e.loopSet, e.has = hops(r, false), true, true
			continue
		}
		if r.Src >= 0 {
			e := &z.star[t.local[r.Src]]
			e.up, e.upSet, e.has, e.gateway = hops(r, false), true, true, r.GwSrc
			if r.Symmetrical {
				e.down, e.downSet = reversed(hops(r, true)), true
			}
		}
		if r.Dst >= 0 {
			e := &z.star[t.local[r.Dst]]
			e.down, e.downSet, e.has, e.gateway = hops(r, false), true, true, r.GwDst
		}
	}
	for i := range z.star {
		if e := &z.star[i]; !e.has {
			e.upSet, e.downSet = true, true
		}
	}
	return nil
}

// starRoute is StarZone::get_local_route: the loopback of a point to
// itself if it has one, else src's links up then dst's links down, a link
// met twice kept once.
func (t *Zones) starRoute(z *zone, s, d int, links *[]LinkID, lat *float64) (gwSrc, gwDst int) {
	src, dst := &z.star[s], &z.star[d]
	added := map[LinkID]bool{}
	add := func(ls []LinkID) {
		for _, l := range ls {
			if !added[l] {
				added[l] = true
				t.addLinks(links, []LinkID{l}, lat)
			}
		}
	}
	if s == d && src.loopSet {
		add(src.loopback)
		return -1, -1
	}
	// SimGrid 3.32 builds a star zone whose point has no links up or down
	// (a host without <host_link>) and aborts at the first message that
	// needs them: a refusal, not a build error.
	if !src.upSet {
		t.refuse(fmt.Errorf("%s: no link up from %s, on its route to %s (a star zone)", z.Where, t.points[z.vertices[s]].Name, t.points[z.vertices[d]].Name))
		return -1, -1
	}
	if !dst.downSet {
		t.refuse(fmt.Errorf("%s: no link down to %s, on its route from %s (a star zone)", z.Where, t.points[z.vertices[d]].Name, t.points[z.vertices[s]].Name))
		return -1, -1
	}
	add(src.up)
	add(dst.down)
	return src.gateway, dst.gateway
}
