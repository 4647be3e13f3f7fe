package observe

import (
	"sort"
	"strconv"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/sensitivity"
)

// ClassGraph is the execution graph of a WireLatency recording with one latency
// class per link class of the topology (fluid's Link.Class: "host", fat-tree
// "levelN", dragonfly "terminal"/"intra"/"inter", "torusN", "backbone"): a
// message's edges carry, per class, the number of its route's cables of that
// class, so T depends on each class's latency separately (LLAMP's per-wire
// latency, one variable per kind of wire). SMPI's latency factors keep their
// excess classes ((f−1)·L0, as in the one-ℓ graph) in the same numbering.
// Merging every link class into one gives the recorder's one-ℓ graph, bit for
// bit (sensitivity.Graph.Merge).
//
// With a switch latency (platform.switch_latency > 0) the switches a message's
// route crosses are the class "switch" (LLAMP Appendix H's h·ℓ_switch), at
// that latency.
type ClassGraph struct {
	Graph *sensitivity.Graph
	// Names per class: the link class, or "factorF" for the excess of
	// latency factor F; "route" for messages whose cables per class were
	// not known (a route that is not a chain of cables).
	Names []string
	// Link says which classes are latencies of the route (cables, and the
	// switches' class): a placement moves them with the route; the others
	// are factor excesses.
	Link []bool
}

// Class returns the class named name, or false.
func (c *ClassGraph) Class(name string) (int, bool) {
	for i, n := range c.Names {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// classInfo is one latency class of a wire-mode recording: a link class
// (name) with the tally of its links' latencies, or a factor's excess.
type classInfo struct {
	name     string
	lats     latTally
	factor   float64 // > 1 for a factor class
	switches bool    // the switches' class: its terms count switches, not cables
}

// SwitchClass names the latency class of the platform's per-switch latency
// (platform.switch_latency > 0) in a ClassGraph.
const SwitchClass = "switch"

// routeClass names the class of messages whose route's cables per class do not
// add up to its hops+1 (kept exact as one class of the whole route).
const routeClass = "route"

// newClass numbers a new latency class; false when the classes run out.
func (g *GraphRecorder) newClass(ci classInfo) (uint8, bool) {
	if len(g.classes) > sensitivity.MaxClass {
		return 0, false
	}
	g.classes = append(g.classes, ci)
	return uint8(len(g.classes) - 1), true
}

// classOf is the latency class of link class name, numbered at first use. When
// the classes run out the link class shares class 0 (its per-class figures
// are then mixed; the one-ℓ graph is unaffected).
func (g *GraphRecorder) classOf(name string) uint8 {
	if c, ok := g.linkClass[name]; ok {
		return c
	}
	c, _ := g.newClass(classInfo{name: name})
	g.linkClass[name] = c
	return c
}

// linkTerms appends a wire-mode message's link latency terms to buf: one per
// link class of its route with the count of its cables, links in all (so that
// merging the classes gives the one-ℓ term of links). The terms are worked out
// once per route (routes share their ClassCount slice) and a RecvDone counts
// one message of its route for the class baselines.
func (g *GraphRecorder) linkTerms(ev *ranks.Event, links int, route float64, buf []sensitivity.LatTerm) []sensitivity.LatTerm {
	if len(ev.Classes) == 0 {
		return g.routeTerm(ev, links, route, buf)
	}
	ri := g.routes[&ev.Classes[0]]
	if ri == nil {
		n := 0
		for _, cc := range ev.Classes {
			n += cc.Links
		}
		if n != links {
			return g.routeTerm(ev, links, route, buf)
		}
		ri = &routeInfo{}
		for _, cc := range ev.Classes {
			ri.terms = append(ri.terms, sensitivity.LatTerm{Class: g.classOf(cc.Class), Count: int32(cc.Links)})
			ri.perLink = append(ri.perLink, cc.Latency/float64(cc.Links))
		}
		g.routes[&ev.Classes[0]] = ri
		g.routeOrder = append(g.routeOrder, ri)
	}
	if ev.Kind == ranks.RecvDone {
		ri.messages++
	}
	return append(buf, ri.terms...)
}

// routeTerm is the one class of the whole route for a message whose cables
// per class are not known or do not add up to its hops+1.
func (g *GraphRecorder) routeTerm(ev *ranks.Event, links int, route float64, buf []sensitivity.LatTerm) []sensitivity.LatTerm {
	c := g.classOf(routeClass)
	if ev.Kind == ranks.RecvDone {
		g.classes[c].lats.add(route/float64(links), 1)
	}
	return append(buf, sensitivity.LatTerm{Class: c, Count: int32(links)})
}

// routeInfo is what the recorder keeps per route: its link terms, each term's
// latency per link (s), and how many messages it delivered.
type routeInfo struct {
	terms    []sensitivity.LatTerm
	perLink  []float64
	messages int
}

// classBaseline is the latency per class of the per-link-class graph, s: a
// link class at the most common latency of one of its links, a factor class at
// (f−1)·BaselineLatency as in the one-ℓ graph. With one latency per link class
// and factor 1 the graph evaluated there is the run.
func (g *GraphRecorder) classBaseline() []float64 {
	for _, ri := range g.routeOrder { // in order of first use
		for i, t := range ri.terms {
			if ri.messages > 0 {
				g.classes[t.Class].lats.add(ri.perLink[i], ri.messages)
			}
		}
	}
	l0 := g.BaselineLatency()
	lat := make([]float64, len(g.classes))
	for c, ci := range g.classes {
		switch {
		case ci.factor > 1:
			lat[c] = (ci.factor - 1) * l0
		case ci.switches:
			lat[c] = g.switchLat
		default:
			lat[c] = ci.lats.mode()
		}
	}
	return lat
}

// mergeMap sends every link class to class 0 and the factor classes and the
// switches' class to 1, 2, ... in their order: the numbering of the one-ℓ graph.
func (g *GraphRecorder) mergeMap() []uint8 {
	into := make([]uint8, len(g.classes))
	next := uint8(1)
	for c, ci := range g.classes {
		if ci.factor > 1 || ci.switches {
			into[c] = next
			next++
		}
	}
	return into
}

// classGraph wraps the per-link-class graph with its class names.
func (g *GraphRecorder) classGraph(pg *sensitivity.Graph) *ClassGraph {
	cg := &ClassGraph{Graph: pg}
	for _, ci := range g.classes {
		name := ci.name
		if ci.factor > 1 {
			name = "factor" + strconv.FormatFloat(ci.factor, 'g', -1, 64) // shortest exact: unique
		}
		cg.Names = append(cg.Names, name)
		cg.Link = append(cg.Link, ci.factor == 0) // the switches' terms are part of the route, as cables are
	}
	return cg
}

// ClassGraph is the per-link-class graph of a WireLatency recording, after
// Graph; nil before, and in EndToEndLatency mode.
func (g *GraphRecorder) ClassGraph() *ClassGraph { return g.perClass }

// latTally counts latencies on a grid (latencyQuantum) to find the most
// common one.
type latTally struct {
	n   map[float64]int     // quantized latency → messages
	rep map[float64]float64 // quantized latency → the first exact value seen
}

// add counts n messages of latency l (s).
func (t *latTally) add(l float64, n int) {
	if t.n == nil {
		t.n, t.rep = map[float64]int{}, map[float64]float64{}
	}
	q := quantize(l)
	if t.n[q] == 0 {
		t.rep[q] = l
	}
	t.n[q] += n
}

// mode is the most common latency, s: the first exact value seen in the most
// common cell, the smallest of equally common cells; 0 without any.
func (t *latTally) mode() float64 {
	keys := make([]float64, 0, len(t.n))
	for l := range t.n {
		keys = append(keys, l)
	}
	sort.Float64s(keys)
	best, n := 0.0, 0
	for _, l := range keys {
		if t.n[l] > n {
			best, n = t.rep[l], t.n[l]
		}
	}
	return best
}
