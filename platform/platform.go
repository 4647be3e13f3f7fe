package platform

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/fluid"
)

// Platform is a validated machine description in the core's units, whether it came
// from a scenario's [platform] table or from a SimGrid <cluster>. Build turns it into a
// fluid topology.
type Platform struct {
	Topology     string // TopoFlat, TopoFatTree, TopoTorus, TopoDragonfly or TopoZones
	Hosts        int    // number of hosts (for fat-tree, torus and dragonfly: the topology's node count)
	CoresPerHost int    // ranks placed per host (≥ 1)
	// RandomPlacement shuffles the ranks over the slots of the hosts (or the
	// hostfile's lines) with PlacementSeed, the scenario's seed (Placement).
	RandomPlacement bool
	PlacementSeed   uint64
	Speed           float64

	LinkBandwidth float64 // B/s, each host's private link (flat) or every topology link
	LinkLatency   float64 // s
	Sharing       string  // SharingSplitDuplex, SharingShared or SharingFatPipe

	BackboneBandwidth float64 // B/s; 0 = no backbone (flat only)
	BackboneLatency   float64 // s
	BackboneSharing   string

	LoopbackBandwidth float64 // B/s; 0 = the topology's default loopback
	LoopbackLatency   float64 // s
	NoLoopback        bool    // route a host's messages to itself through the network (SimGrid XML default)
	LimiterBandwidth  float64 // B/s; 0 = no per-host limiter link
	// SwitchLatency is added at every switch a route crosses, s (LLAMP's
	// ℓ_switch; SimGrid's platforms have none: 0).
	SwitchLatency float64

	FatTree   string // SimGrid "levels;down;up;links", e.g. "2;4,4;1,2;1,2"
	Torus     []int  // dimensions, e.g. [4,4,4]
	Dragonfly string // SimGrid "groups,links;chassis,links;routers,links;nodes"
	// FromFile: the cluster was read from a SimGrid platform file, whose
	// routes are SimGrid 3.32's, refusals included (a dragonfly's routes
	// towards a group past a chassis's routers: DragonflyConfig.SimGridGroups).
	FromFile bool

	// Host names are Prefix + number + Suffix, numbers taken in order from Radical
	// (SimGrid's radical list); an empty Radical numbers hosts 0..Hosts-1.
	Prefix, Suffix string
	Radical        []int
	Name           string // the cluster id, used as a prefix of link names

	// SocketsPerHost is a host's CPU (socket) count, 1 by default; the
	// ranks of a host fill them in SocketOrder (Socket), and a rank's kernels
	// take the per-CPU models keyed "HOST/cpuS" first (models.Set.ForCPU).
	SocketsPerHost int
	SocketOrder    string // SocketsBlock or SocketsCyclic

	// Hostfile is the host of each line of an smpirun hostfile (platform.hostfile,
	// "name:N" lines expanded); nil places ranks in host order, CoresPerHost a host.
	Hostfile []int
	// Config is what the file's <config> elements set (SimGrid configuration
	// items, <prop id="smpi/bw-factor" value="..."/>), in file order, for the
	// scenario to apply or report; nil for a platform not from XML.
	Config []ConfigProp
	// HostProps are the file's per-host SMPI settings (HostPropIDs), in file
	// order; the scenario applies them or refuses them.
	HostProps []HostProp
	// Zones is a platform of SimGrid zones (TopoZones): its hosts, links
	// and routes as fluid.NewZones builds them; nil for the other
	// topologies. Names, HostCores and Speeds are then each host's name,
	// core count and speed (flop/s), in the file's order; Speed and
	// CoresPerHost are the first host's speed and the most cores a host has.
	Zones     *fluid.ZonesConfig
	Names     []string
	HostCores []int
	Speeds    []float64
	// Profiles are the file's availability profiles (speed, bandwidth and
	// latency in time); nil without any.
	Profiles *Profiles
	// LinkBound is a platform of zones' links under one of seed 002's
	// bounds (SetLinkBound); LinksAsBuilt otherwise.
	LinkBound LinkBound
	// NP is smpirun's -np (platform.np): the ranks the platform offers,
	// placed as smpirun places them, rank i on hostfile line i mod lines or,
	// without a hostfile, on host i mod Hosts in the order of their names
	// (SimGrid sorts its hosts by name: n-10 comes before n-2). 0: not given.
	NP int
}

// A ConfigProp is one SimGrid configuration item a platform file sets.
type ConfigProp struct {
	ID, Value string
	File      string // the platform file, and the prop's line in it
	Line      int
}

// HostProp is a <prop> of a <host>, or of a <cluster> (SimGrid gives it to
// each of the cluster's hosts), whose id is one SMPI reads per host
// (HostPropIDs): Hosts are the indices of the hosts it is set on, nil for
// every host of the platform (a platform of one <cluster>).
type HostProp struct {
	ConfigProp
	Hosts []int
}

// HostPropIDs are the host properties SMPI reads: its software overheads,
// which a host's property sets for the ranks on that host over the global
// setting (shared/reference/smpi-model.md §2.7). Other host properties
// change no time and are read past.
var HostPropIDs = map[string]bool{"smpi/os": true, "smpi/ois": true, "smpi/or": true}

// Topology names as scenario files write them.
const (
	TopoFlat      = "flat"
	TopoFatTree   = "fat-tree"
	TopoTorus     = "torus"
	TopoDragonfly = "dragonfly"
	// TopoZones is a SimGrid platform of zones, hosts, links and routes
	// (ParseXML): no [platform] table describes one.
	TopoZones = "zones"
)

// Socket orders: how the ranks of a host are spread over its sockets.
const (
	SocketsBlock  = "block"  // the first cores_per_host/sockets ranks on socket 0, and so on
	SocketsCyclic = "cyclic" // rank after rank on the next socket (Dahu's: cpu = rank parity)
)

// Sockets gives the socket of every rank of a placement: the rank's slot
// among the ranks of its host, in rank order, spread over SocketsPerHost
// sockets in SocketOrder. Without sockets every rank is on socket 0.
func (p *Platform) Sockets(placement []int) []int {
	out := make([]int, len(placement))
	s := p.SocketsPerHost
	if s <= 1 {
		return out
	}
	perSocket := (p.CoresPerHost + s - 1) / s
	slot := map[int]int{}
	for r, h := range placement {
		i := slot[h]
		slot[h] = i + 1
		if p.SocketOrder == SocketsCyclic {
			out[r] = i % s
		} else {
			out[r] = min(i/perSocket, s-1)
		}
	}
	return out
}

// Sharing policies, SimGrid's names in lower case.
const (
	SharingSplitDuplex = "splitduplex"
	SharingShared      = "shared"
	SharingFatPipe     = "fatpipe"
)

// ParseTopology accepts our names and SimGrid's (FLAT, FAT_TREE, TORUS, DRAGONFLY).
func ParseTopology(s string) (string, error) {
	switch strings.ToLower(strings.ReplaceAll(s, "_", "-")) {
	case "flat", "":
		return TopoFlat, nil
	case "fat-tree", "fattree":
		return TopoFatTree, nil
	case "torus":
		return TopoTorus, nil
	case "dragonfly":
		return TopoDragonfly, nil
	}
	return "", fmt.Errorf("unknown topology %q (flat, fat-tree, torus or dragonfly)", s)
}

// ParseSharing accepts SimGrid's policy names in any case; FULLDUPLEX is SimGrid's
// deprecated name of SPLITDUPLEX.
func ParseSharing(s string) (string, error) {
	switch strings.ToLower(s) {
	case "splitduplex", "fullduplex", "split-duplex":
		return SharingSplitDuplex, nil
	case "shared":
		return SharingShared, nil
	case "fatpipe", "fat-pipe":
		return SharingFatPipe, nil
	}
	return "", fmt.Errorf("unknown sharing policy %q (SPLITDUPLEX, SHARED or FATPIPE)", s)
}

// MaxHosts is the most hosts a platform may have, whatever its topology:
// no platform of ours is larger, and building one of 10⁹ hosts would exhaust the
// memory (or run for minutes) before any error could be reported.
const MaxHosts = 1 << 24

// MaxRanks is the most ranks a run may have (hostfile lines, grids, traces):
// every rank is a goroutine, and a typo must not exhaust the memory.
const MaxRanks = 1 << 22

// ParseRadical reads SimGrid's radical list: comma-separated items, each N or A-B
// (inclusive), e.g. "0-15,32-47".
func ParseRadical(s string) ([]int, error) {
	const maxHosts = MaxHosts // guards against "0-9999999999"
	var out []int
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, hi, isRange := strings.Cut(item, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil || a < 0 {
			return nil, fmt.Errorf("radical %q: %q is not a host number or range", s, item)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a {
				return nil, fmt.Errorf("radical %q: %q is not a range A-B with A ≤ B", s, item)
			}
		}
		if len(out)+(b-a+1) > maxHosts {
			return nil, fmt.Errorf("radical %q: more than %d hosts", s, maxHosts)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}

// parseIntList reads "4,4,4" (SimGrid's torus parameters).
func parseIntList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q: %q is not a positive integer", s, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// Nodes is the number of hosts a fat-tree, torus or dragonfly description
// has, checking its syntax (smpi-model.md §4.5–4.7).
func (p *Platform) Nodes() (int, error) {
	const maxNodes = MaxHosts
	product := func(vs []int) (int, error) {
		n := 1
		for _, v := range vs {
			if n *= v; n > maxNodes {
				return 0, fmt.Errorf("more than %d nodes", maxNodes)
			}
		}
		return n, nil
	}
	switch p.Topology {
	case TopoTorus:
		if len(p.Torus) == 0 {
			return 0, fmt.Errorf("torus: no dimensions given (e.g. [4,4,4])")
		}
		for _, d := range p.Torus {
			if d < 1 {
				return 0, fmt.Errorf("torus: dimension %d must be ≥ 1", d)
			}
		}
		return product(p.Torus)
	case TopoFatTree:
		parts := strings.Split(p.FatTree, ";")
		if len(parts) != 4 {
			return 0, fmt.Errorf("fat_tree %q: want \"levels;down;up;links\", e.g. \"2;4,4;1,2;1,2\"", p.FatTree)
		}
		levels, err := strconv.Atoi(strings.TrimSpace(parts[0]))
		if err != nil || levels < 1 {
			return 0, fmt.Errorf("fat_tree %q: levels %q must be a positive integer", p.FatTree, parts[0])
		}
		var lists [3][]int
		for i := range lists {
			if lists[i], err = parseIntList(parts[i+1]); err != nil {
				return 0, fmt.Errorf("fat_tree %s", err)
			}
			if len(lists[i]) != levels {
				return 0, fmt.Errorf("fat_tree %q: %d levels but %d values in %q", p.FatTree, levels, len(lists[i]), parts[i+1])
			}
		}
		return product(lists[0])
	case TopoDragonfly:
		parts := strings.Split(p.Dragonfly, ";")
		if len(parts) != 4 {
			return 0, fmt.Errorf("dragonfly %q: want \"groups,links;chassis,links;routers,links;nodes\", e.g. \"2,2;2,1;1,2;2\"", p.Dragonfly)
		}
		var dims []int
		for i, part := range parts {
			vs, err := parseIntList(part)
			if err != nil {
				return 0, fmt.Errorf("dragonfly %s", err)
			}
			want := 2
			if i == 3 {
				want = 1
			}
			if len(vs) != want {
				return 0, fmt.Errorf("dragonfly %q: part %q must have %d values", p.Dragonfly, part, want)
			}
			dims = append(dims, vs[0])
		}
		return product(dims)
	}
	return p.Hosts, nil
}

// HostName is the SimGrid name of host h: prefix + radical + suffix.
func (p *Platform) HostName(h int) string {
	if p.Names != nil {
		return p.Names[h]
	}
	n := h
	if h < len(p.Radical) {
		n = p.Radical[h]
	}
	return p.Prefix + strconv.Itoa(n) + p.Suffix
}

// Capacity says in words what Ranks counts.
func (p *Platform) Capacity() string {
	if p.NP > 0 {
		return fmt.Sprintf("np = %d", p.NP)
	}
	if n := len(p.Hostfile); n > 0 {
		return fmt.Sprintf("%d hostfile lines", n)
	}
	if p.HostCores != nil {
		return fmt.Sprintf("%d hosts, %d cores", p.Hosts, p.Ranks())
	}
	return fmt.Sprintf("%d hosts × %d cores", p.Hosts, p.CoresPerHost)
}

// Cores is the number of cores of host h.
func (p *Platform) Cores(h int) int {
	if p.HostCores != nil {
		return p.HostCores[h]
	}
	return p.CoresPerHost
}

// HostSpeed is host h's speed, flop/s.
func (p *Platform) HostSpeed(h int) float64 {
	if p.Speeds != nil {
		return p.Speeds[h]
	}
	return p.Speed
}

// Ranks is the number of ranks the platform can hold: NP when given, else one
// per core, or one per hostfile line (smpirun's default -np).
func (p *Platform) Ranks() int {
	if p.NP > 0 {
		return p.NP
	}
	if len(p.Hostfile) > 0 {
		return len(p.Hostfile)
	}
	if p.HostCores != nil {
		n := 0
		for _, c := range p.HostCores[:p.Hosts] {
			n += c
		}
		return n
	}
	return p.Hosts * p.CoresPerHost
}
