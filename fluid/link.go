package fluid

import "fmt"

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
	// Class groups links whose latency the sensitivity analysis varies
	// together: "loopback", "host" (node↔switch), "levelN" (fat-tree switch
	// level N), "torus", "terminal", "intra", "inter" (dragonfly),
	// "backbone", "limiter" (per-node throughput caps, latency 0).
	Class string
}

// Route is the path of a message between two hosts.
type Route struct {
	Links   []LinkID // in order from source to destination
	Latency float64  // sum of the links' latencies, s
	Hops    int      // switches crossed: cables − 1 on a switched path (limiter links are not cables), 0 for loopback
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
