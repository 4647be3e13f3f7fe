package fluid

import (
	"fmt"
	"strconv"
	"strings"
)

// LinkID indexes a Topology's Links() slice and a System's link table.
type LinkID int32

// Sharing is a link's bandwidth-sharing policy.
type Sharing uint8

const (
	// Shared links are max-min constraints: the rates of the flows crossing
	// the link (times their coefficients) sum to at most its bandwidth.
	Shared Sharing = iota
	// FatPipe links never make flows compete: each flow may use up to the
	// full bandwidth on its own (max of the rates ≤ bandwidth). SimGrid uses
	// them for loopbacks and FATPIPE backbones.
	FatPipe
)

// String names the policy as SimGrid's platform files spell it.
func (s Sharing) String() string {
	switch s {
	case Shared:
		return "SHARED"
	case FatPipe:
		return "FATPIPE"
	}
	return fmt.Sprintf("Sharing(%d)", uint8(s))
}

// Link is one network resource.
type Link struct {
	Name      string
	Bandwidth float64 // bytes/s; 0 makes every flow crossing it stall
	Latency   float64 // s
	Sharing   Sharing
	// Class is the link's place in its topology, for traffic reports
	// (ClassLevel orders them): "loopback", "host" (node↔switch),
	// "levelN" (fat-tree cables between switch levels N and N+1),
	// "torusN" (torus dimension N), "terminal", "intra", "inter"
	// (dragonfly), "backbone", "limiter" (per-node throughput caps, latency
	// 0). Split-duplex cables name their directions (_UP, _DOWN) in Name.
	Class string
}

// Route is the path of a message between two hosts.
type Route struct {
	Links   []LinkID // in order from source to destination
	Latency float64  // sum of the links' latencies, plus Hops × the switch latency (WithSwitchLatency), s
	Hops    int      // switches crossed: cables − 1 on a switched path (limiter links are not cables), 0 for loopback
}

// A Refuser is a Topology with routes SimGrid 3.32 cannot build, on which
// it fails only when a message needs one: Route gives such a route empty
// (no link, no latency) and Refusal says why (nil where Route is a route).
type Refuser interface {
	Refusal(src, dst int) error
}

// RouteRefusal is t's Refusal of the route from host src to host dst,
// through this package's wrappers; nil for a topology that routes every
// pair.
func RouteRefusal(t Topology, src, dst int) error {
	for {
		if r, ok := t.(Refuser); ok {
			return r.Refusal(src, dst)
		}
		w, ok := t.(interface{ unwrap() Topology })
		if !ok {
			return nil
		}
		t = w.unwrap()
	}
}

// A Topology is immutable once built; several engines may share one, also
// from several goroutines.
type Topology interface {
	Hosts() int
	Links() []Link
	// Route from host src to host dst; src == dst gives the host's loopback
	// route. Hosts out of range are a programmer error and panic.
	Route(src, dst int) Route
	HostName(h int) string
}

// routeOf sums the latencies of path and wraps it as a Route with the given
// number of switches crossed.
func routeOf(links []Link, path []LinkID, hops int) Route {
	lat := 0.0
	for _, l := range path {
		lat += links[l].Latency
	}
	return Route{Links: path, Latency: lat, Hops: hops}
}

// ClassLevel is the height of a link class in its topology, for ranking
// the classes a route crosses (the highest one says how far a message
// went): limiter and loopback 0, a host's cable ("host", "terminal") 1,
// "levelN" N+1, "intra" and "backbone" 2, "inter" 3, "torusN" N+1
// (dimension order: a route crosses dimension 0 first). An unknown class
// is 0.
func ClassLevel(class string) int {
	switch class {
	case "host", "terminal":
		return 1
	case "intra", "backbone":
		return 2
	case "inter":
		return 3
	}
	for _, prefix := range []string{"level", "torus"} {
		if n, err := strconv.Atoi(strings.TrimPrefix(class, prefix)); err == nil && strings.HasPrefix(class, prefix) {
			return n + 1
		}
	}
	return 0
}

// ClassCount is how many cables of one link class a route crosses and the
// sum of their latencies (s).
type ClassCount struct {
	Class   string
	Links   int
	Latency float64
}

// RouteClasses tallies the cables of a route per link class, in the order the
// route first crosses each class (the execution graph's latency terms, one
// variable per class). Limiter links are not cables (Route.Hops), so on a
// switched route the counts sum to Hops+1 and the latencies to the route's.
func RouteClasses(links []Link, rt Route) []ClassCount {
	var out []ClassCount
	for _, id := range rt.Links {
		l := &links[id]
		if l.Class == limiterClass {
			continue
		}
		k := 0
		for k < len(out) && out[k].Class != l.Class {
			k++
		}
		if k == len(out) {
			out = append(out, ClassCount{Class: l.Class})
		}
		out[k].Links++
		out[k].Latency += l.Latency
	}
	return out
}
