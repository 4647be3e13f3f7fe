package platform

import (
	"fmt"

	"github.com/emu-hpc/emu/fluid"
)

// LinkBound is what one of seed 002's bounds (scenario.Plan.ApplyBound)
// makes of a platform of zones' links, which the [platform] keys do not
// reach: each link keeps its own bandwidth and latency from the file, and
// every route its links, so the bound is taken link by link.
type LinkBound uint8

const (
	// LinksAsBuilt: the links as the file gives them.
	LinksAsBuilt LinkBound = iota
	// LinksContentionFree: every link caps each flow at its bandwidth
	// instead of sharing it (SimGrid's FATPIPE), a limiter link (every
	// flow of its host at once) excepted; latencies stay.
	LinksContentionFree
	// LinksFree: communication is free: every link of FreeBandwidth and
	// no latency, every route of latency 0.
	LinksFree
)

// FreeBandwidth stands for an infinitely fast link: a message of a GB takes
// 1e-21 s, below the resolution of any simulated time, while the max-min
// arithmetic stays finite.
const FreeBandwidth = 1e30 // B/s

// SetLinkBound turns a platform of zones' links into b's. A link profile
// has no meaning on free links and is dropped (a host's speed profile
// stays: computations keep their time); under contention-free a bandwidth
// profile on a link that becomes a fat pipe is refused, naming it (a fat
// pipe caps each flow when it starts: its capacity cannot follow a
// profile), and a latency profile stays.
func (p *Platform) SetLinkBound(b LinkBound) error {
	if p.Topology != TopoZones {
		return fmt.Errorf("SetLinkBound on a %s platform: its bounds are its [platform] keys'", p.Topology)
	}
	if !p.Profiles.Empty() {
		switch b {
		case LinksContentionFree:
			topo, err := p.Build()
			if err != nil {
				return err
			}
			links := topo.Links()
			for _, lp := range p.Profiles.Bandwidth {
				if links[lp.Link].Class != classLimiter {
					return fmt.Errorf("%s: contention-free makes link %q a fat pipe, which caps each flow when it starts and cannot follow a bandwidth profile: drop the profile for this bound", lp.Where, links[lp.Link].Name)
				}
			}
		case LinksFree:
			pr := *p.Profiles
			pr.Bandwidth, pr.Latency = nil, nil
			p.Profiles = &pr
		}
	}
	p.LinkBound = b
	return nil
}

// classLimiter is a limiter link's class (fluid's): the bandwidth of every
// flow of its host at once, which stays shared in the contention-free bound.
const classLimiter = "limiter"

// boundLinks is a topology whose links and routes are another's under a
// LinkBound (Build's, for a platform of zones).
type boundLinks struct {
	fluid.Topology
	links []fluid.Link
	free  bool // LinksFree: routes of latency 0
}

// withLinkBound returns topo under b (topo itself for LinksAsBuilt).
func withLinkBound(topo fluid.Topology, b LinkBound) fluid.Topology {
	if b == LinksAsBuilt {
		return topo
	}
	links := append([]fluid.Link(nil), topo.Links()...)
	for i := range links {
		switch b {
		case LinksContentionFree:
			if links[i].Class != classLimiter {
				links[i].Sharing = fluid.FatPipe
			}
		case LinksFree:
			links[i].Bandwidth, links[i].Latency = FreeBandwidth, 0
		}
	}
	return boundLinks{Topology: topo, links: links, free: b == LinksFree}
}

func (t boundLinks) Links() []fluid.Link { return t.links }

func (t boundLinks) Route(src, dst int) fluid.Route {
	rt := t.Topology.Route(src, dst)
	if t.free {
		rt.Latency = 0
	}
	return rt
}
