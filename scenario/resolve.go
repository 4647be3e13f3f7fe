package scenario

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/hpldat"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/units"
)

// platformFile is the path of the platform XML the machine comes from, ""
// for none.
func (s *Scenario) platformFile() string {
	switch {
	case s.xml != nil:
		return s.xml.file
	case s.Platform.File != "":
		return s.path(s.Platform.File)
	}
	return ""
}

// platform resolves the machine: a SimGrid XML (--platform or platform.file) with the
// table's keys over it, or the [platform] table alone.
func (s *Scenario) platform() (platform.Platform, error) {
	t := s.Platform
	if n := s.Network; n.LinkBandwidth.Set {
		t.LinkBandwidth = n.LinkBandwidth
	}
	if n := s.Network; n.LinkLatency.Set {
		t.LinkLatency = n.LinkLatency
	}
	if n := s.Network; n.SwitchLatency.Set {
		t.SwitchLatency = n.SwitchLatency
	}
	var (
		p       platform.Platform
		fromXML bool
		xml     xmlSource // the platform file, for errors about its attributes
	)
	switch {
	case s.xml != nil:
		xp, err := platform.ParseXML(s.xml.data, s.xml.file)
		if err != nil {
			return p, err
		}
		p, fromXML, xml = *xp, true, *s.xml
	case t.File != "":
		path := s.path(t.File)
		data, err := readInput(path)
		if err != nil {
			return p, s.errorAt("platform.file", err.Error())
		}
		xp, err := platform.ParseXML(data, path)
		if err != nil {
			return p, err
		}
		p, fromXML, xml = *xp, true, xmlSource{file: path, data: data}
	default:
		p = platform.Platform{Topology: platform.TopoFlat, CoresPerHost: 1, Sharing: platform.SharingSplitDuplex, BackboneSharing: platform.SharingShared, Prefix: "host-", Speed: 1e9}
	}
	var err error
	if fromXML && p.Topology == platform.TopoZones {
		return p, s.zonePlatform(t, &p, xml)
	}
	if t.Topology != "" {
		if p.Topology, err = platform.ParseTopology(t.Topology); err != nil {
			return p, s.errorAt("platform.topology", err.Error())
		}
	}
	if t.Hosts != 0 {
		p.Hosts = t.Hosts
	}
	if t.CoresPerHost != nil {
		p.CoresPerHost = *t.CoresPerHost
	}
	if t.Speed != "" {
		if p.Speed, err = units.ParseSpeed(t.Speed); err != nil {
			return p, s.errorAt("platform.speed", err.Error())
		}
	}
	bws := []struct {
		key string
		v   Bandwidth
		dst *float64
	}{
		{"platform.link_bandwidth", t.LinkBandwidth, &p.LinkBandwidth},
		{"platform.backbone_bandwidth", t.BackboneBandwidth, &p.BackboneBandwidth},
		{"platform.loopback_bandwidth", t.LoopbackBandwidth, &p.LoopbackBandwidth},
		{"platform.limiter_bandwidth", t.LimiterBandwidth, &p.LimiterBandwidth},
	}
	for _, b := range bws {
		if b.v.Set {
			*b.dst = b.v.BytesPerSecond
		}
	}
	for _, l := range []struct {
		v   Time
		dst *float64
	}{{t.LinkLatency, &p.LinkLatency}, {t.BackboneLatency, &p.BackboneLatency}, {t.LoopbackLatency, &p.LoopbackLatency}, {t.SwitchLatency, &p.SwitchLatency}} {
		if l.v.Set {
			*l.dst = l.v.Seconds
		}
	}
	for _, sh := range []struct {
		key, v string
		dst    *string
	}{{"platform.sharing_policy", t.SharingPolicy, &p.Sharing}, {"platform.backbone_sharing_policy", t.BackboneSharing, &p.BackboneSharing}} {
		if sh.v != "" {
			if *sh.dst, err = platform.ParseSharing(sh.v); err != nil {
				return p, s.errorAt(sh.key, err.Error())
			}
		}
	}
	if t.FatTree != "" {
		p.FatTree = t.FatTree
	}
	if len(t.Torus) > 0 {
		p.Torus = append([]int(nil), t.Torus...)
	}
	if t.Dragonfly != "" {
		p.Dragonfly = t.Dragonfly
	}
	if t.HostPrefix != "" {
		p.Prefix = t.HostPrefix
	}
	if t.Radical != "" {
		if p.Radical, err = platform.ParseRadical(t.Radical); err != nil {
			return p, s.errorAt("platform.radical", err.Error())
		}
		// Two hosts of one name would share their links' names, models and
		// speed factors; a platform file's radical is refused so too.
		sorted := slices.Sorted(slices.Values(p.Radical))
		for i := 1; i < len(sorted); i++ {
			if sorted[i] == sorted[i-1] {
				return p, s.errorAt("platform.radical", fmt.Sprintf("%q names host %s%d%s twice", t.Radical, p.Prefix, sorted[i], p.Suffix))
			}
		}
	}
	if err := s.sockets(t, &p); err != nil {
		return p, err
	}
	if !fromXML {
		if !t.LinkBandwidth.Set {
			return p, s.errorAt("platform.link_bandwidth", "required (e.g. \"10Gbps\")")
		}
		if !t.LinkLatency.Set {
			return p, s.errorAt("platform.link_latency", "required (e.g. \"1us\")")
		}
	}
	if p.CoresPerHost < 1 {
		return p, s.errorAt("platform.cores_per_host", fmt.Sprintf("%d must be ≥ 1", p.CoresPerHost))
	}
	if p.CoresPerHost > platform.MaxHosts { // so that hosts × cores cannot overflow
		return p, s.errorAt("platform.cores_per_host", fmt.Sprintf("%d: more than %d cores a host", p.CoresPerHost, platform.MaxHosts))
	}
	if p.SocketsPerHost < 1 || p.SocketsPerHost > p.CoresPerHost {
		return p, s.errorAt("platform.sockets_per_host", fmt.Sprintf("%d: want 1 to cores_per_host (%d)", p.SocketsPerHost, p.CoresPerHost))
	}
	// Keys of another topology are a mistake, not something to ignore — unless the
	// table names its topology: then they describe the same machine in the other
	// topologies, for a --set or a tune sweep of platform.topology.
	for _, k := range topologyKeys(t) {
		if k.given && p.Topology != k.topo && t.Topology == "" {
			return p, s.errorAt(k.key, fmt.Sprintf("given for a %s platform (it belongs to topology = %q)", p.Topology, k.topo))
		}
	}
	if t.LoopbackBandwidth.Set || t.LoopbackLatency.Set {
		p.NoLoopback = false
	}
	if p.Topology == platform.TopoFlat {
		if p.Hosts < 1 {
			return p, s.errorAt("platform.hosts", fmt.Sprintf("%d: want at least 1 host", p.Hosts))
		}
		if p.Hosts > platform.MaxHosts {
			return p, s.errorAt("platform.hosts", fmt.Sprintf("%d: more than %d hosts", p.Hosts, platform.MaxHosts))
		}
		if fromXML && p.Hosts > len(p.Radical) {
			return p, s.errorAt("platform.hosts", fmt.Sprintf("%d hosts, more than the %d the platform file names", p.Hosts, len(p.Radical)))
		}
		if t.Radical != "" && p.Hosts > len(p.Radical) {
			return p, s.errorAt("platform.radical", fmt.Sprintf("%q names %d hosts, the platform has %d", t.Radical, len(p.Radical), p.Hosts))
		}
		return p, s.checkBuild(&p, "platform", fromXML, xml)
	}
	key := shapeKeys[p.Topology]
	nodes, err := p.Nodes()
	if err != nil {
		// No shape at all is the topology's key's fault (the --set that chose it,
		// or its line), not a line of a file that never had the shape key.
		for _, tk := range topologyKeys(t) {
			if tk.key == key && !tk.given {
				return p, s.errorAt("platform.topology", fmt.Sprintf("%s needs %s: %v", p.Topology, key, err))
			}
		}
		return p, s.errorAt(key, err.Error())
	}
	// The embedded default's hosts = 4 sizes its flat cluster, nothing else: a
	// shape set over it (--set platform.topology=torus --set platform.torus=[2,2,2])
	// has the hosts its shape says, where the check blamed default.toml's line 9.
	_, hostsSet := s.setKeys["platform.hosts"]
	if t.Hosts != 0 && t.Hosts != nodes && (!s.embedded || hostsSet) {
		return p, s.errorAt("platform.hosts", fmt.Sprintf("%d, but the %s %s has %d hosts", t.Hosts, p.Topology, key, nodes))
	}
	if fromXML && nodes > len(p.Radical) {
		return p, s.errorAt(key, fmt.Sprintf("%d hosts, more than the %d the platform file names", nodes, len(p.Radical)))
	}
	if t.Radical != "" && nodes > len(p.Radical) {
		return p, s.errorAt("platform.radical", fmt.Sprintf("%q names %d hosts, the platform has %d", t.Radical, len(p.Radical), nodes))
	}
	p.Hosts = nodes
	tableShape := t.FatTree != "" || len(t.Torus) > 0 || t.Dragonfly != "" || t.Topology != ""
	return p, s.checkBuild(&p, key, fromXML && !tableShape, xml)
}

// topologyKey is a [platform] key that belongs to one topology, and whether
// the table gives it.
type topologyKey struct {
	key, topo string
	given     bool
}

// topologyKeys are the keys of t that belong to one topology.
// sockets sets a platform's CPUs a host and how its ranks fill them, from
// platform.sockets_per_host and platform.socket_order.
func (s *Scenario) sockets(t PlatformTable, p *platform.Platform) error {
	p.SocketsPerHost, p.SocketOrder = 1, platform.SocketsBlock
	if t.SocketsPerHost != 0 {
		p.SocketsPerHost = t.SocketsPerHost
	}
	switch t.SocketOrder {
	case "", platform.SocketsBlock:
	case platform.SocketsCyclic:
		p.SocketOrder = platform.SocketsCyclic
	default:
		return s.errorAt("platform.socket_order", fmt.Sprintf("%q: want %q or %q", t.SocketOrder, platform.SocketsBlock, platform.SocketsCyclic))
	}
	return nil
}

// shapeKeys name the key whose shape sizes each topology but the flat one
// (whose size is platform.hosts).
var shapeKeys = map[string]string{platform.TopoFatTree: "platform.fat_tree", platform.TopoTorus: "platform.torus", platform.TopoDragonfly: "platform.dragonfly"}

func topologyKeys(t PlatformTable) []topologyKey {
	return []topologyKey{
		{"platform.fat_tree", platform.TopoFatTree, t.FatTree != ""}, {"platform.torus", platform.TopoTorus, len(t.Torus) > 0},
		{"platform.dragonfly", platform.TopoDragonfly, t.Dragonfly != ""}, {"platform.backbone_bandwidth", platform.TopoFlat, t.BackboneBandwidth.Set},
		{"platform.backbone_latency", platform.TopoFlat, t.BackboneLatency.Set},
	}
}

// checkBuild builds the topology once, so that whatever fluid refuses is reported
// here with the key — or, when the shape came from a platform file, with the
// file's <cluster> line — not later.
func (s *Scenario) checkBuild(p *platform.Platform, key string, inXML bool, xml xmlSource) error {
	if _, err := p.Build(); err != nil {
		if inXML {
			return fmt.Errorf("%s:%d: cluster: %v", xml.file, xml.clusterLine(), err)
		}
		return s.errorAt(key, err.Error())
	}
	return nil
}

// hplValues resolves the HPL tests: from HPL.dat (--hpl-dat) with --set hpl.* over it, or
// from [hpl] over HPL's defaults. hplFits checks them against the platform.
func (s *Scenario) hplValues(p *Plan) error {
	t := s.HPL
	var d hpl.Dat
	if s.hplDat != nil {
		var err error
		// HPL.dat's grids must fit, unless the platform grows to them or
		// --set hpl.grids replaces them (hplFits checks the grids run)
		fits := p.Platform.Ranks()
		if s.defaultGrows(p) || len(t.Grids) > 0 {
			fits = 0
		}
		if d, err = hpldat.Parse(s.hplDat.data, s.hplDat.file, fits); err != nil {
			return err
		}
		p.HPLDatFile = s.hplDat.file
		replaced := map[string]bool{"N": len(t.N) > 0, "NB": len(t.NB) > 0, "P": len(t.Grids) > 0, "Q": len(t.Grids) > 0, // --set hpl.* over HPL.dat's lists
			"PFACT": len(t.PFact) > 0, "NBMIN": len(t.NBMin) > 0, "NDIV": len(t.NDiv) > 0, "RFACT": len(t.RFact) > 0, "BCAST": len(t.BCast) > 0, "DEPTH": len(t.Depth) > 0}
		p.Notes = append(p.Notes, hpldat.CursorNotes(s.hplDat.data, s.hplDat.file, replaced)...)
	} else {
		def := hpl.DefaultParams()
		d = hpl.Dat{OutFile: "HPL.out", Device: 6, Ns: []int{def.N}, NBs: []int{def.NB}, PMap: def.PMap,
			Grids: []hpl.Grid{{P: def.P, Q: def.Q}}, Threshold: def.Threshold, PFacts: []hpl.Fact{def.PFact},
			NBMins: []int{def.NBMin}, NDivs: []int{def.NDiv}, RFacts: []hpl.Fact{def.RFact},
			BCasts: []hpl.BCast{def.BCast}, Depths: []int{def.Depth}, Swap: def.Swap, SwapThreshold: def.SwapThreshold,
			L1Transposed: def.L1Transposed, UTransposed: def.UTransposed, Equilibration: def.Equilibration,
			Alignment: def.Alignment}
	}
	ints := []struct {
		key   string
		v     IntList
		least int
		dst   *[]int
	}{
		{"hpl.n", t.N, 0, &d.Ns}, {"hpl.nb", t.NB, 1, &d.NBs}, {"hpl.nbmin", t.NBMin, 1, &d.NBMins},
		{"hpl.ndiv", t.NDiv, 2, &d.NDivs}, {"hpl.depth", t.Depth, 0, &d.Depths},
	}
	for _, l := range ints {
		if len(l.v) == 0 {
			continue
		}
		for _, x := range l.v {
			if x < l.least {
				return s.errorAt(l.key, fmt.Sprintf("%d must be ≥ %d", x, l.least))
			}
			if x > math.MaxInt32 && l.key != "hpl.n" && l.key != "hpl.depth" { // their own bounds below
				return s.errorAt(l.key, cIntError(x))
			}
		}
		*l.dst = append([]int(nil), l.v...)
	}
	for _, x := range t.N {
		if x > hpl.MaxN {
			return s.errorAt("hpl.n", fmt.Sprintf("%d: at most %d", x, hpl.MaxN))
		}
	}
	for _, x := range t.Depth {
		if x > hpl.MaxDepth {
			return s.errorAt("hpl.depth", fmt.Sprintf("%d: at most %d", x, hpl.MaxDepth))
		}
	}
	if len(t.Grids) > 0 {
		d.Grids = nil
		for _, g := range t.Grids {
			if g[0] < 1 || g[1] < 1 {
				return s.errorAt("hpl.grids", fmt.Sprintf("%dx%d: P and Q must be ≥ 1", g[0], g[1]))
			}
			d.Grids = append(d.Grids, hpl.Grid{P: g[0], Q: g[1]})
		}
	}
	var err error
	if t.PMap != "" {
		if d.PMap, err = hpl.ParsePMap(string(t.PMap)); err != nil {
			return s.errorAt("hpl.pmap", err.Error())
		}
	}
	facts := []struct {
		key string
		v   NameList
		dst *[]hpl.Fact
	}{{"hpl.pfact", t.PFact, &d.PFacts}, {"hpl.rfact", t.RFact, &d.RFacts}}
	for _, f := range facts {
		if len(f.v) == 0 {
			continue
		}
		*f.dst = nil
		for _, name := range f.v {
			v, err := hpl.ParseFact(name)
			if err != nil {
				return s.errorAt(f.key, err.Error())
			}
			*f.dst = append(*f.dst, v)
		}
	}
	if len(t.BCast) > 0 {
		d.BCasts = nil
		for _, name := range t.BCast {
			v, err := hpl.ParseBCast(name)
			if err != nil {
				return s.errorAt("hpl.bcast", err.Error())
			}
			d.BCasts = append(d.BCasts, v)
		}
	}
	if t.Swap != "" {
		if d.Swap, err = hpl.ParseSwap(string(t.Swap)); err != nil {
			return s.errorAt("hpl.swap", err.Error())
		}
	}
	if t.SwapThreshold != nil {
		if *t.SwapThreshold < 0 {
			return s.errorAt("hpl.swap_threshold", fmt.Sprintf("%d must be ≥ 0", *t.SwapThreshold))
		}
		if *t.SwapThreshold > math.MaxInt32 {
			return s.errorAt("hpl.swap_threshold", cIntError(*t.SwapThreshold))
		}
		d.SwapThreshold = *t.SwapThreshold
	}
	forms := []struct {
		key string
		v   Word
		dst *bool
	}{{"hpl.l1", t.L1, &d.L1Transposed}, {"hpl.u", t.U, &d.UTransposed}}
	for _, f := range forms {
		switch strings.ToLower(string(f.v)) {
		case "":
		case "transposed", "0", "transposed form": // HPL.dat lines 28–29: 0 = transposed; HPL's echo
			*f.dst = true
		case "no-transposed", "1", "no-transposed form":
			*f.dst = false
		default:
			return s.errorAt(f.key, fmt.Sprintf("%s: want \"transposed\" (0) or \"no-transposed\" (1)", f.v))
		}
	}
	if t.Equilibration.Set {
		d.Equilibration = t.Equilibration.On
	}
	if t.Alignment != nil {
		if *t.Alignment < 1 {
			return s.errorAt("hpl.alignment", fmt.Sprintf("%d must be ≥ 1", *t.Alignment))
		}
		if *t.Alignment > math.MaxInt32 {
			return s.errorAt("hpl.alignment", cIntError(*t.Alignment))
		}
		d.Alignment = *t.Alignment
	}
	if t.Threshold != nil {
		if math.IsNaN(*t.Threshold) {
			return s.errorAt("hpl.threshold", "nan: want a number (≤ 0 turns the residual check off)")
		}
		d.Threshold = *t.Threshold
	}
	if t.MaxIterations < 0 {
		return s.errorAt("hpl.max_iterations", fmt.Sprintf("%d must be ≥ 0", t.MaxIterations))
	}
	p.MaxIterations = t.MaxIterations
	if t.Roll != "" {
		r, err := hpl.ParseRollModel(t.Roll)
		if err != nil {
			return s.errorAt("hpl.roll", fmt.Sprintf("%q: want \"steps\" or \"merged\"", t.Roll))
		}
		p.Roll = r
	}
	if t.PivotExchange != "" {
		x, err := hpl.ParsePivotExchange(t.PivotExchange)
		if err != nil {
			return s.errorAt("hpl.pivot_exchange", fmt.Sprintf("%q: want \"messages\" or \"uncontended\"", t.PivotExchange))
		}
		p.PivotExchange = x
	}
	p.CopyL = t.CopyL
	p.HPLDat = &d
	if n := testCount(d); n > maxHPLTests {
		return s.errorAt("hpl", fmt.Sprintf("the lists make %.0f tests, more than %d", n, maxHPLTests))
	}
	for _, g := range d.Grids {
		if g.P > platform.MaxRanks/g.Q {
			return s.errorAt("hpl.grids", fmt.Sprintf("%dx%d: more than %d ranks", g.P, g.Q, platform.MaxRanks))
		}
	}
	p.HPL = d.Tests()
	for _, test := range p.HPL {
		if err := test.Validate(); err != nil {
			return s.errorAt("hpl", err.Error())
		}
	}
	p.Ranks = d.MaxRanks()
	return nil
}

// hplFits refuses HPL tests whose largest grid the platform cannot hold,
// after growing the embedded default's cluster to it (growDefault), and
// sizes HPL's world: as `mpirun -np N xhpl`, N ranks start where N is given
// (np, a hostfile's lines, a [[jobs]] entry's ranks), and those past the
// largest grid take part in HPL's start-up (the parameters' broadcasts, each
// grid's MPI_Comm_split) and then sit idle. Without N, the world is the
// largest grid.
func (s *Scenario) hplFits(p *Plan) error {
	s.growDefault(p)
	if avail := p.Platform.Ranks(); p.Ranks > avail {
		key := "hpl.grids"
		if len(s.HPL.Grids) == 0 && s.hplDat == nil {
			key = "platform.hosts"
		}
		if p.Platform.NP > 0 {
			key = "platform.np"
		}
		return s.errorAt(key, fmt.Sprintf("a %d-process grid needs more ranks than the %d the platform offers (%s)",
			p.Ranks, avail, p.Platform.Capacity()))
	}
	switch {
	case s.job != nil: // fewer: refused by jobs; more than the platform holds: by Validate, both at the job's ranks
		p.Ranks = max(p.Ranks, s.job.Ranks)
	case p.Platform.NP > 0 || len(p.Platform.Hostfile) > 0:
		p.Ranks = max(p.Ranks, p.Platform.Ranks())
	}
	return nil
}

// maxHPLTests keeps a typo from exhausting memory: HPL's tests are the product
// of its lists (platform.MaxRanks bounds the ranks, each a goroutine).
const maxHPLTests = 100000

// testCount is the number of tests HPL.dat's lists make (as a float: no overflow).
func testCount(d hpl.Dat) float64 {
	n := 1.0
	for _, l := range []int{len(d.Grids), len(d.Ns), len(d.NBs), len(d.Depths), len(d.BCasts), len(d.RFacts), len(d.PFacts), len(d.NBMins), len(d.NDivs)} {
		n *= float64(l)
	}
	return n
}

// zonePlatform applies the [platform] keys that make sense over a platform
// of zones (platform.TopoZones): cores_per_host and speed (every host's),
// the loopback's bandwidth and latency, switch_latency, sockets. The keys
// that shape a cluster (topology, hosts, links, backbone, ...) describe
// another machine: an error, not a silent override.
func (s *Scenario) zonePlatform(t PlatformTable, p *platform.Platform, xml xmlSource) error {
	shape := []struct {
		key   string
		given bool
	}{
		{"network.link_bandwidth", s.Network.LinkBandwidth.Set}, {"network.link_latency", s.Network.LinkLatency.Set},
		{"platform.topology", t.Topology != ""}, {"platform.hosts", t.Hosts != 0},
		{"platform.link_bandwidth", t.LinkBandwidth.Set}, {"platform.link_latency", t.LinkLatency.Set},
		{"platform.sharing_policy", t.SharingPolicy != ""}, {"platform.backbone_bandwidth", t.BackboneBandwidth.Set},
		{"platform.backbone_latency", t.BackboneLatency.Set}, {"platform.backbone_sharing_policy", t.BackboneSharing != ""},
		{"platform.limiter_bandwidth", t.LimiterBandwidth.Set}, {"platform.fat_tree", t.FatTree != ""},
		{"platform.torus", len(t.Torus) > 0}, {"platform.dragonfly", t.Dragonfly != ""},
		{"platform.host_prefix", t.HostPrefix != ""}, {"platform.radical", t.Radical != ""},
	}
	for _, k := range shape {
		if k.given {
			return s.errorAt(k.key, fmt.Sprintf("does not apply to %s, a platform of zones (its hosts, links and routes are the file's)", xml.file))
		}
	}
	if t.CoresPerHost != nil {
		if *t.CoresPerHost < 1 || *t.CoresPerHost > platform.MaxHosts {
			return s.errorAt("platform.cores_per_host", fmt.Sprintf("%d: want 1 to %d", *t.CoresPerHost, platform.MaxHosts))
		}
		p.CoresPerHost, p.HostCores = *t.CoresPerHost, nil
	}
	if t.Speed != "" {
		v, err := units.ParseSpeed(t.Speed)
		if err != nil {
			return s.errorAt("platform.speed", err.Error())
		}
		p.Speed, p.Speeds = v, nil
	}
	if t.LoopbackBandwidth.Set || t.LoopbackLatency.Set {
		lb := *p.Zones.Loopback
		if t.LoopbackBandwidth.Set {
			lb.Bandwidth = t.LoopbackBandwidth.BytesPerSecond
		}
		if t.LoopbackLatency.Set {
			lb.Latency = t.LoopbackLatency.Seconds
		}
		z := *p.Zones
		z.Loopback = &lb
		p.Zones = &z
	}
	if t.SwitchLatency.Set {
		p.SwitchLatency = t.SwitchLatency.Seconds
	}
	if err := s.sockets(t, p); err != nil {
		return err
	}
	if p.SocketsPerHost < 1 || p.SocketsPerHost > p.CoresPerHost {
		return s.errorAt("platform.sockets_per_host", fmt.Sprintf("%d: want 1 to cores_per_host (%d)", p.SocketsPerHost, p.CoresPerHost))
	}
	if _, err := p.Build(); err != nil {
		return fmt.Errorf("%s: %v", xml.file, err)
	}
	return nil
}

// maxUnroutedCheck is the most hosts of a placement whose routes
// noteUnrouted looks at (their square are computed).
const maxUnroutedCheck = 1024

// noteUnrouted notes the pairs of the ranks' hosts that a platform of zones
// does not connect (an empty route of no latency: a Full zone that declares
// none, a Cluster zone's host without links): SimGrid aborts on a message
// between them ("no connecting path"), emu would move it in no time.
func noteUnrouted(p *Plan) error {
	if p.Platform.Topology != platform.TopoZones {
		return nil
	}
	place := p.Platform.Placement(p.Ranks)
	count := map[int]int{}
	var hosts []int
	for _, h := range place {
		if count[h]++; count[h] == 1 {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) > maxUnroutedCheck {
		return nil
	}
	topo, err := p.Platform.Build()
	if err != nil {
		return err
	}
	n, first := 0, ""
	for _, a := range hosts {
		for _, b := range hosts {
			if a == b && count[a] < 2 {
				continue // one rank alone on its host sends nothing to itself there
			}
			if rt := topo.Route(a, b); len(rt.Links) == 0 && rt.Latency == 0 {
				if n++; n == 1 {
					first = topo.HostName(a) + " → " + topo.HostName(b)
				}
			}
		}
	}
	if n > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d pairs of the ranks' hosts have no route in the platform (first %s): a message between them stops the run, as SimGrid aborts on it (\"no connecting path\")", n, first))
	}
	return nil
}

// cIntError says why an [hpl] integer past a C int is refused: HPL holds
// NB, NBMIN, NDIV, the swapping threshold and the alignment in C ints and
// reads HPL.dat's with atoi, which wraps 99999999999 to 1215752191; emu ran
// NB = 99999999999 and printed it in HPL's report.
func cIntError(x int) string {
	return fmt.Sprintf("%d: at most %d (HPL holds it in a C int)", x, math.MaxInt32)
}
