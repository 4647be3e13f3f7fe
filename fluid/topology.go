package fluid

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// LinkPolicy says how a topology turns one cable into Links, as the
// sharing_policy attribute of a SimGrid <cluster>.
type LinkPolicy uint8

const (
	// SplitDuplex (the zero value and SimGrid's <cluster> default) makes
	// each cable two Shared links, one per direction (SimGrid's _UP/_DOWN).
	SplitDuplex LinkPolicy = iota
	// SharedDuplex makes each cable one Shared link carrying both
	// directions (SimGrid's SHARED).
	SharedDuplex
	// FatPipeDuplex makes each cable one FatPipe link (SimGrid's FATPIPE).
	FatPipeDuplex
)

// DefaultLoopbackBandwidth is SimGrid's network/loopback-bw, bytes/s.
const DefaultLoopbackBandwidth = 10e9

// LinkSpec describes the cables of a topology.
type LinkSpec struct {
	Bandwidth float64 // bytes/s, > 0
	Latency   float64 // s, ≥ 0
	Policy    LinkPolicy
}

// Loopback describes each host's link to itself, used by messages between
// ranks on the same host. It is a FatPipe, as SimGrid's loopbacks are.
type Loopback struct {
	Bandwidth float64 // bytes/s; 0 means DefaultLoopbackBandwidth
	Latency   float64 // s, ≥ 0; SimGrid's default is 0
	// Disabled routes a host's traffic to itself through the network, as a
	// SimGrid <cluster> without loopback_bw/loopback_lat does (not allowed
	// on a torus, where that route would be empty).
	Disabled bool
}

// Naming gives hosts and links SimGrid's names. Host h is Prefix + number +
// Suffix, where its number is Radical[h], or h when Radical is nil; with no
// prefix, suffix or radical, hosts are named "host-<h>". Links take the names
// SimGrid's <cluster> gives them (each topology's doc), most of them prefixed
// with Cluster, the cluster's id, and "_" ("<id>_link_7_UP"); without an id
// that prefix is left out ("link_7_UP").
type Naming struct {
	Prefix, Suffix string
	Radical        []int  // at least as many entries as hosts, or nil
	Cluster        string // SimGrid's cluster id
}

func (s LinkSpec) validate(field string) error {
	if !(s.Bandwidth > 0) || math.IsInf(s.Bandwidth, 1) {
		return fmt.Errorf("%s.Bandwidth: must be a positive number of bytes/s, got %v", field, s.Bandwidth)
	}
	if !(s.Latency >= 0) || math.IsInf(s.Latency, 1) {
		return fmt.Errorf("%s.Latency: must be ≥ 0 s, got %v", field, s.Latency)
	}
	if s.Policy > FatPipeDuplex {
		return fmt.Errorf("%s.Policy: unknown policy %d", field, s.Policy)
	}
	return nil
}

func (l Loopback) validate(field string) error {
	if !(l.Bandwidth >= 0) || math.IsInf(l.Bandwidth, 1) {
		return fmt.Errorf("%s.Bandwidth: must be ≥ 0 bytes/s (0 = default), got %v", field, l.Bandwidth)
	}
	if !(l.Latency >= 0) || math.IsInf(l.Latency, 1) {
		return fmt.Errorf("%s.Latency: must be ≥ 0 s, got %v", field, l.Latency)
	}
	return nil
}

// clone copies the radical list so that a built topology stays immutable
// whatever the caller later does with its config.
func (n Naming) clone() Naming {
	n.Radical = slices.Clone(n.Radical)
	return n
}

// number is host h's number in its name: Radical[h], or h.
func (n Naming) number(h int) int {
	if n.Radical != nil {
		return n.Radical[h]
	}
	return h
}

// cluster prefixes name with the cluster's id: "<id>_name", or name alone
// without an id.
func (n Naming) cluster(name string) string {
	if n.Cluster == "" {
		return name
	}
	return n.Cluster + "_" + name
}

// link is SimGrid's name of a cluster's per-node link: "<id>_link_<x>" (a
// flat cluster's private links by radical, limiters by node index,
// loopbacks by radical).
func (n Naming) link(x int) string { return n.cluster("link_" + strconv.Itoa(x)) }

func (n Naming) validate(field string, hosts int) error {
	if n.Radical != nil && len(n.Radical) < hosts {
		return fmt.Errorf("%s.Radical: %d numbers for %d hosts", field, len(n.Radical), hosts)
	}
	return nil
}

// base holds what every topology has: its links, its hosts' names and
// loopbacks.
type base struct {
	hosts    int
	links    []Link
	naming   Naming
	loopback Loopback
	loop0    LinkID  // loopback of host h is loop0+h, unless disabled
	limiter  float64 // bandwidth of limiter links, bytes/s; 0 = none
}

// limiterClass is the Class of limiter links. They are not cables between
// switches, so routes do not count them as hops.
const limiterClass = "limiter"

// validateLimiter checks a config's Limiter field.
func validateLimiter(field string, bw float64) error {
	if !(bw >= 0) || math.IsInf(bw, 1) {
		return fmt.Errorf("%s: must be ≥ 0 bytes/s (0 = no limiter links), got %v", field, bw)
	}
	return nil
}

// addLimiter adds the limiter link of node id (SimGrid's limiter_link: a
// Shared link of the node used in both directions, capping its total
// throughput), named "<cluster>_link_<id>_limiter", and returns it, or -1
// when the topology has none.
func (b *base) addLimiter(id int) LinkID {
	if b.limiter == 0 {
		return -1
	}
	return b.add(b.naming.link(id)+"_limiter", limiterClass, b.limiter, 0, Shared)
}

// appendLimiter appends limiter l to path unless there is none (-1).
func appendLimiter(path []LinkID, l LinkID) []LinkID {
	if l < 0 {
		return path
	}
	return append(path, l)
}

// Hosts returns the number of hosts.
func (b *base) Hosts() int { return b.hosts }

// Links returns the topology's links, indexed by LinkID. The slice is
// shared: callers must not modify it.
func (b *base) Links() []Link { return b.links }

// HostName returns host h's name.
func (b *base) HostName(h int) string {
	b.check(h)
	n := b.naming.number(h)
	if b.naming.Prefix == "" && b.naming.Suffix == "" && b.naming.Radical == nil {
		return "host-" + strconv.Itoa(n)
	}
	return b.naming.Prefix + strconv.Itoa(n) + b.naming.Suffix
}

func (b *base) check(h int) {
	if h < 0 || h >= b.hosts {
		panic(fmt.Sprintf("fluid: host %d out of range [0, %d)", h, b.hosts))
	}
}

// add appends one link and returns its id.
func (b *base) add(name, class string, bw, lat float64, sh Sharing) LinkID {
	b.links = append(b.links, Link{Name: name, Bandwidth: bw, Latency: lat, Sharing: sh, Class: class})
	return LinkID(len(b.links) - 1)
}

// cable adds the links of one cable of bandwidth scale × spec.Bandwidth and
// returns the link used in each direction (the same one unless split).
func (b *base) cable(name, class string, spec LinkSpec, scale float64) (up, down LinkID) {
	bw := spec.Bandwidth * scale
	switch spec.Policy {
	case SplitDuplex:
		up = b.add(name+"_UP", class, bw, spec.Latency, Shared)
		return up, b.add(name+"_DOWN", class, bw, spec.Latency, Shared)
	case FatPipeDuplex:
		up = b.add(name, class, bw, spec.Latency, FatPipe)
	default:
		up = b.add(name, class, bw, spec.Latency, Shared)
	}
	return up, up
}

// addLoopbacks gives every host its loopback link (unless disabled), named
// by the host's number as SimGrid names it: "<cluster>_link_<radical>_loopback".
func (b *base) addLoopbacks() {
	if b.loopback.Disabled {
		return
	}
	bw := b.loopback.Bandwidth
	if bw == 0 {
		bw = DefaultLoopbackBandwidth
	}
	b.loop0 = LinkID(len(b.links))
	for h := range b.hosts {
		b.add(b.naming.link(b.naming.number(h))+"_loopback", "loopback", bw, b.loopback.Latency, FatPipe)
	}
}

// loopRoute is host h's route to itself over its loopback; ok is false
// when loopbacks are disabled.
func (b *base) loopRoute(h int) (Route, bool) {
	if b.loopback.Disabled {
		return Route{}, false
	}
	return routeOf(b.links, []LinkID{b.loop0 + LinkID(h)}, 0), true
}

// switched wraps a path through the network as a Route crossing one switch
// between consecutive cables (limiter links are not cables).
func (b *base) switched(path []LinkID) Route {
	cables := 0
	for _, l := range path {
		if b.links[l].Class != limiterClass {
			cables++
		}
	}
	return routeOf(b.links, path, max(0, cables-1))
}
