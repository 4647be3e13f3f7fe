package platform

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emu-hpc/emu/fluid"
)

// Build makes the platform's fluid topology. SimGrid's rules for loopbacks apply:
// a platform from XML without loopback_bw/loopback_lat routes a host's messages to
// itself through its private link (on a torus through its limiter link alone, or
// without limiters over a loopback: SimGrid has no route there);
// a TOML platform has loopbacks (10 GB/s, 0 s unless given). A limiter bandwidth
// gives every host (and dragonfly router, fat-tree switch) SimGrid's limiter link.
func (p *Platform) Build() (fluid.Topology, error) {
	var (
		topo fluid.Topology
		err  error
	)
	if p.Topology == TopoZones {
		if p.Zones == nil {
			return nil, fmt.Errorf("a platform of zones without its zones")
		}
		if topo, err = fluid.NewZones(*p.Zones); err == nil {
			topo = withLinkBound(topo, p.LinkBound)
		}
	} else {
		topo, err = p.cluster(0)
	}
	if err == nil {
		topo, err = fluid.WithSwitchLatency(topo, p.SwitchLatency)
	}
	if err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "fluid: "))
	}
	return topo, nil
}

// cluster is the topology of a platform that is one cluster (flat,
// fat-tree, torus or dragonfly), without the switch latency: Build's, and
// a fat-tree, torus or dragonfly <cluster> among zones (ZoneCluster).
// firstCable numbers a fat tree's or a dragonfly's first cable
// (FatTreeConfig.FirstCable, DragonflyConfig.FirstCable).
func (p *Platform) cluster(firstCable int) (fluid.Topology, error) {
	policy := map[string]fluid.LinkPolicy{SharingSplitDuplex: fluid.SplitDuplex, SharingShared: fluid.SharedDuplex, SharingFatPipe: fluid.FatPipeDuplex}[p.Sharing]
	link := fluid.LinkSpec{Bandwidth: p.LinkBandwidth, Latency: p.LinkLatency, Policy: policy}
	loop := fluid.Loopback{Bandwidth: p.LoopbackBandwidth, Latency: p.LoopbackLatency, Disabled: p.NoLoopback}
	naming := fluid.Naming{Prefix: p.Prefix, Suffix: p.Suffix, Radical: p.Radical, Cluster: p.Name}
	switch p.Topology {
	case TopoFlat:
		c := fluid.FlatConfig{Hosts: p.Hosts, Link: link, Loopback: loop, Naming: naming, Limiter: p.LimiterBandwidth}
		if p.BackboneBandwidth > 0 {
			c.Backbone = &fluid.Backbone{Bandwidth: p.BackboneBandwidth, Latency: p.BackboneLatency, FatPipe: p.BackboneSharing == SharingFatPipe}
		}
		return fluid.NewFlat(c)
	case TopoFatTree:
		c, err := fluid.ParseFatTreeParams(p.FatTree)
		if err != nil {
			return nil, err
		}
		c.Link, c.Loopback, c.Naming, c.Limiter, c.FirstCable = link, loop, naming, p.LimiterBandwidth, firstCable
		return fluid.NewFatTree(c)
	case TopoTorus:
		return fluid.NewTorus(fluid.TorusConfig{Dims: p.Torus, Link: link, Loopback: loop, Naming: naming, Limiter: p.LimiterBandwidth})
	case TopoDragonfly:
		c, err := fluid.ParseDragonflyParams(p.Dragonfly)
		if err != nil {
			return nil, err
		}
		c.Link, c.Loopback, c.Naming, c.Limiter, c.FirstCable = link, loop, naming, p.LimiterBandwidth, firstCable
		c.SimGridGroups = p.FromFile
		return fluid.NewDragonfly(c)
	}
	return nil, fmt.Errorf("unknown topology %q", p.Topology)
}

// Placement puts ranks on hosts: rank r on the host of hostfile line r mod lines
// (smpirun's rule), or without a hostfile in order, CoresPerHost ranks per host:
// rank r on host r / CoresPerHost (a hostfile of "name:cores" lines). With NP and
// no hostfile, smpirun's rule without one: rank r on host r mod Hosts, the hosts
// taken in the order of their names. With RandomPlacement the slots those rules
// offer (every hostfile line, or every core of every host) are shuffled with
// PlacementSeed first, and rank r takes the r-th.
func (p *Platform) Placement(ranks int) []int {
	n := ranks
	if p.RandomPlacement {
		n = max(ranks, p.Ranks())
	}
	var byName []int
	if p.NP > 0 && len(p.Hostfile) == 0 {
		byName = p.hostsByName()
	}
	out := make([]int, n)
	var first []int // the first rank of each host, when hosts differ in cores
	if p.HostCores != nil && len(p.Hostfile) == 0 && byName == nil {
		first = make([]int, p.Hosts+1)
		for h := range p.Hosts {
			first[h+1] = first[h] + p.HostCores[h]
		}
	}
	for r := range out {
		switch lines := len(p.Hostfile); {
		case lines > 0:
			out[r] = p.Hostfile[r%lines]
		case byName != nil:
			out[r] = byName[r%len(byName)]
		case first != nil:
			h, _ := slices.BinarySearch(first, r+1) // the first host whose cores end past r
			out[r] = min(h-1, p.Hosts-1)
		default:
			out[r] = r / p.CoresPerHost
		}
	}
	if p.RandomPlacement {
		rng := rand.New(rand.NewPCG(p.PlacementSeed, placementStream))
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out[:ranks]
}

// placementStream is the second word of the random placement's PCG seed: the
// scenario's seed is the first, so placement draws differ from every rank's.
const placementStream = 0x706c616365 // "place"

// hostsByName lists the hosts in the order of their names, as SimGrid's
// Engine::get_all_hosts returns them to smpirun (a byte-wise sort: "n-10"
// before "n-2").
func (p *Platform) hostsByName() []int {
	hosts := make([]int, p.Hosts)
	names := make([]string, p.Hosts)
	for h := range hosts {
		hosts[h], names[h] = h, p.HostName(h)
	}
	slices.SortStableFunc(hosts, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	return hosts
}
