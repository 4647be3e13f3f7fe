package ranks

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// path caches what the network model needs about a route between two hosts.
//
// Layout: 128 bytes, a size class of 64-byte aligned objects, with what a
// flow's start (flowSpec, startTransfer) reads in the first line and what
// the hooks' events and cross traffic read in the second: at Stampede's
// scale a route is out of the cache when its message's latency phase ends,
// and a start then reads one line, not two.
type path struct {
	links   []fluid.LinkID
	loads   *fluid.Loads // links and reverse merged once for the route's flows (FlowSpec.Loads)
	bound   float64      // TCP window bound γ/(2·latency), and under SimGrid's arithmetic the route's least bandwidth, bytes/s; 0 = none
	penalty float64      // sharing penalty: latency + Σ WeightS/bandwidth (SimGrid), s
	latency float64      // raw route latency (sum of link latencies), s
	delay   bool         // messages on the route get Config.MessageDelay
	_       [7]byte      // the second line starts at byte 64

	reverse []fluid.LinkID     // the reverse route, under Config.CrossTraffic
	classes []fluid.ClassCount // cables per link class, for the events of routeKinds (nil if none is heard)
	hops    int
	alone   float64 // a flow's rate alone on the route (aloneTime), bytes/s; 0 until needed
}

// path returns the cached route facts from host a to host b.
func (w *World) path(a, b int) *path {
	key := uint64(a)<<32 | uint64(uint32(b))
	if p := w.routes[key]; p != nil {
		return p
	}
	rt := w.topo.Route(a, b)
	if len(rt.Links) == 0 && !(rt.Latency > 0) {
		// SimGrid refuses to move data over nothing (network_cm02's "no
		// connecting path" assertion).
		panic(&UnroutedError{From: w.topo.HostName(a), To: w.topo.HostName(b), Why: fluid.RouteRefusal(w.topo, a, b)})
	}
	rt.Latency = w.routeLatency(rt)
	p := &path{links: rt.Links, latency: rt.Latency, hops: rt.Hops}
	if w.heard&routeKinds != 0 {
		p.classes = fluid.RouteClasses(w.links, rt)
	}
	if w.cfg.CrossTraffic > 0 {
		p.reverse = w.reverseRoute(a, b)
	}
	p.loads = w.eng.System().Loads(fluid.FlowSpec{Links: p.links, Reverse: p.reverse, ReverseShare: w.cfg.CrossTraffic})
	if w.cfg.TCPGamma > 0 && rt.Latency > 0 {
		p.bound = w.cfg.TCPGamma / (2 * rt.Latency)
	}
	if w.simgrid {
		// SimGrid's user bound: the least bandwidth of the route's links
		// (network_cm02.cpp's comm_action_set_bounds). Exact max-min never
		// needs it, but SimGrid's selective solve can rate a flow without
		// the constraint of each of its links, and the bound then binds.
		user := 0.0
		for _, l := range rt.Links {
			if bw := w.links[l].Bandwidth; bw > 0 && (user == 0 || bw < user) {
				user = bw
			}
		}
		if user > 0 && (p.bound == 0 || user < p.bound) {
			p.bound = user
		}
		if w.userBounds != nil {
			w.userBounds[p] = user // a latency change re-bounds its flows with it (profile.go)
		}
	}
	p.penalty = rt.Latency
	p.delay = w.cfg.MessageDelay > 0 && w.delayed(p)
	if w.cfg.WeightS > 0 {
		for _, l := range rt.Links {
			if bw := w.links[l].Bandwidth; bw > 0 {
				p.penalty += w.cfg.WeightS / bw
			}
		}
	}
	w.routes[key] = p
	return p
}

// pathTo returns the cached route from the rank's host to the host of world
// rank dst, through a small per-rank cache (direct-mapped on a hash of dst,
// allocated at the first message): SPMD ranks talk to a few peers over and
// over — an HPL rank to its row and column neighbours — and a hit spares
// the World's map lookup, a tenth of a small message's cost. The cache is
// keyed by the destination rank, not its host, and keeps the route's
// latency beside it, so that a hit reads neither the placement nor the
// route: at Stampede's scale both are out of the cache.
//
// On a platform of few hosts (World.pairs) the World's table of host pairs
// serves instead: it never misses, and it is small where the ranks' caches
// are not. Dahu's 1,024 ranks on 32 hosts talk over 1,024 routes, 16 KB in
// the table, where their caches took 2 MB, past the second-level cache, and
// missed 12% of their lookups.
func (r *Rank) pathTo(dst int) *routeEntry {
	w := r.w
	if w.pairs != nil {
		e := &w.pairs[int(r.host)*w.hosts+w.place[dst]]
		if e.p == nil {
			p := w.path(int(r.host), w.place[dst])
			e.p, e.latency = p, p.latency
		}
		return e
	}
	if r.paths == nil {
		r.paths = new([pathCacheSize]cachedPath)
	}
	c := &r.paths[(uint32(dst)*0x9e3779b1)>>(32-pathCacheBits)]
	if c.p == nil || c.dst != dst {
		p := w.path(int(r.host), w.place[dst])
		c.dst, c.p, c.latency = dst, p, p.latency
	}
	return &c.routeEntry
}

// pairHosts is the most hosts whose route pairs World.pairs holds: 64²
// entries of 16 bytes, 64 KB.
const pairHosts = 64

// The per-rank route cache: 64 entries of 32 bytes, 2 KB a rank that
// talks (12 MB at Stampede's 6,006 ranks). At 16 entries, HPL's pivot
// search, row swaps and broadcasts missed 31% of a Stampede panel's
// lookups (125 K of 403 K, merged rolls with local re-solves, by a
// counter here that was not kept), each a probe of the World's map of
// host pairs; at 64, 3%.
const (
	pathCacheBits = 6
	pathCacheSize = 1 << pathCacheBits
)

type cachedPath struct {
	routeEntry
	dst int // world rank
	_   int // to 32 bytes: an entry never straddles a cache line
}

// routeEntry is a cached route and its latency.
type routeEntry struct {
	p       *path
	latency float64 // p.latency
}

// wire returns a message's size on the wire: payload + envelope.
func (w *World) wire(s *Request) int { return s.msg.Bytes + w.cfg.Envelope }

// route looks up message s's route from its sender r, once per message (its
// transfer and the hooks' events need it), and sets s.path and s.latency:
// the raw route latency times the latency factor of the wire size. Post
// calls it, while the sender runs: its Rank and route cache are in the
// cache then, where at the match (the receiver running) or at a latency
// phase's end they are likely not.
func (w *World) route(s *Request, r *Rank) {
	c := r.pathTo(int(s.peer))
	s.path = c.p
	s.latency = w.memo.lat.lookup(&w.cfg.LatFactor, w.wire(s), 1) * c.latency
}

// reverseRoute is the route back from b to a, which a message from a to b
// loads with its cross traffic (SimGrid's back route). Where SimGrid 3.32
// cannot build it (fluid.RouteRefusal), it fails at that message too.
func (w *World) reverseRoute(a, b int) []fluid.LinkID {
	rt := w.topo.Route(b, a)
	if len(rt.Links) == 0 {
		if err := fluid.RouteRefusal(w.topo, b, a); err != nil {
			panic(&UnroutedError{From: w.topo.HostName(a), To: w.topo.HostName(b), Why: fmt.Errorf("its cross traffic's route back: %w", err)})
		}
	}
	return rt.Links
}

// xfer is a send Request seen as the emu.Handler of its network transfer,
// the state machine SimGrid models (reference/smpi-model.md §2.1): a latency
// phase of f_lat(size)·L during which the flow loads nothing, then a max-min
// flow of size/f_bw(size) "link bytes" — so that its throughput is f_bw
// times its max-min rate while it occupies the links at the full rate. The
// conversion costs nothing: no closure, no extra allocation per message.
type xfer Request

// startTransfer starts message s's network transfer at the current time.
func (w *World) startTransfer(s *Request) {
	s.started = true
	s.span = w.eng.Now() // the first instant (Handle turns it into the duration)
	if w.varying {
		w.reroute(s) // a profile may have changed the route since the send was posted
	}
	p := s.path
	// An injected delay lengthens the latency phase; the events' Latency
	// stays the route's, so a recorded graph keeps the delay in the
	// message's constant part.
	if lat := s.latency + w.messageDelay(s, p); lat > 0 {
		if w.simgrid {
			// SimGrid's latency phase is part of the network action: its
			// place among actions due at one date follows the network
			// model's heap, not the timers'
			s.inFlow = true
			w.eng.StartLatentFlowHandler(w.flowSpec(&w.spec, s, p, true), lat, (*xfer)(s))
			return
		}
		w.eng.AfterHandler(lat, (*xfer)(s))
		return
	}
	w.startFlow(s, p, false)
}

// Handle advances the transfer: the end of the latency phase starts the
// flow; the end of the flow delivers the message.
func (x *xfer) Handle() {
	s := (*Request)(x)
	w := s.w
	if !s.inFlow {
		w.startFlow(s, s.path, true)
		return
	}
	s.span = w.eng.Now() - s.span // from the first instant to the transfer's duration
	s.arrived = true
	if s.match != nil {
		w.delivered(s)
	}
}

// startFlow enters s into the max-min system. afterLatency says whether the
// flow had a latency phase: SimGrid gives such flows their penalty, and
// flows without one penalty 1.
func (w *World) startFlow(s *Request, p *path, afterLatency bool) {
	s.inFlow = true
	spec := w.flowSpec(&w.spec, s, p, afterLatency)
	if w.simgrid {
		w.eng.StartLatentFlowHandler(spec, 0, (*xfer)(s)) // StartFlowHandler's SimGrid branch
		return
	}
	w.eng.BatchFlowHandler(spec, (*xfer)(s)) // inlines, where StartFlowHandler stays a call
}

// flowSpec sets spec to message s's flow on route p, and returns it:
// filled in place (World.spec), as the engine and fluid take it, so that
// it is not copied on its way.
func (w *World) flowSpec(spec *fluid.FlowSpec, s *Request, p *path, afterLatency bool) *fluid.FlowSpec {
	size := w.wire(s)
	fb := w.memo.bw.lookup(&w.cfg.BwFactor, size, 1)
	*spec = fluid.FlowSpec{Links: p.links, Bytes: float64(size) / fb, Bound: p.bound, Weight: 1, Loads: p.loads}
	if w.simgrid { // SimGrid's own arithmetic: size bytes at f_bw × the max-min rate
		spec.Bytes, spec.RateFactor = float64(size), fb
	}
	if afterLatency && p.penalty > 0 {
		spec.Weight = p.penalty
	}
	if w.cfg.CrossTraffic > 0 && p.loads == nil { // p.loads holds the reverse route's loads
		spec.Reverse, spec.ReverseShare = p.reverse, w.cfg.CrossTraffic
	}
	if math.IsInf(spec.Bytes, 1) {
		spec.Bytes = math.MaxFloat64
	}
	return spec
}
