package scenario

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/units"
)

// Scenario is a scenario file as written, after --set overrides: the typed form of
// the TOML document. Validate checks it and resolves it into a Plan, runner.Run's input; the
// README's "Scenario file reference" documents every key.
type Scenario struct {
	App      string        `toml:"app"`  // "hpl" (default), "pingpong", "ring", "replay" or "congestor"
	Seed     Seed          `toml:"seed"` // seeds every random stream of the run
	Platform PlatformTable `toml:"platform"`
	Network  NetworkTable  `toml:"network"`
	Kernels  KernelsTable  `toml:"kernels"`
	HPL      HPLTable      `toml:"hpl"`
	Pingpong PingpongTable `toml:"pingpong"`
	Ring     PingpongTable `toml:"ring"`
	Replay   ReplayTable   `toml:"replay"`
	// Congestor is [congestor], app = "congestor"'s pattern.
	Congestor CongestorTable `toml:"congestor"`
	// Jobs are [[jobs]]: several applications run at once on the platform
	// (jobs.go); the top-level app and its tables are then not used.
	Jobs []JobTable `toml:"jobs"`

	// Where the scenario came from, for error messages and relative paths.
	file    string            // file name as given ("" for the embedded default)
	dir     string            // folder relative paths in the file are read from
	data    []byte            // the document's text, to find keys' lines
	setKeys map[string]string // key → the flag that last changed it ("--set k=v", "--hostfile FILE")
	// sweptApps are the apps a sweep gives the scenario by its app key
	// ("app", "jobs.N.app": emu tune --sweep app=...): a --set of a table
	// one of them reads is for its points.
	sweptApps map[string][]string
	hplDat    *datSource // an HPL.dat replacing [hpl] (--hpl-dat)
	xml       *xmlSource // a platform XML replacing [platform] (--platform)
	// job is set on the scenario a [[jobs]] entry is validated as (jobs.go):
	// its ranks, and where its errors point.
	job *jobRef
	// embedded is set on the default scenario (Default), whose platform a replay
	// sizes to its trace.
	embedded bool
	// fileTables are the application tables ([hpl], [pingpong], ...) the
	// file itself holds, jobFileTables those of each [[jobs]] entry: a table
	// the run does not read is a warning (Plan.Unread), not an error, as a
	// file may keep several apps' tables to switch with --set app=....
	fileTables    []string
	jobFileTables [][]string
}

type datSource struct {
	file string
	data []byte
}

type xmlSource struct {
	file string
	data []byte
}

// clusterLine is the line of the platform file's <cluster> element (1 if it has none).
func (x xmlSource) clusterLine() int {
	return 1 + bytes.Count(x.data[:max(bytes.Index(x.data, []byte("<cluster")), 0)], []byte("\n"))
}

// PlatformTable is [platform]. With file, the SimGrid XML gives the platform and the
// other keys given beside it override its values.
type PlatformTable struct {
	File              string    `toml:"file"`
	Topology          string    `toml:"topology"` // flat | fat-tree | torus | dragonfly
	Hosts             int       `toml:"hosts"`
	CoresPerHost      *int      `toml:"cores_per_host"` // nil: 1, or the XML's core
	Speed             string    `toml:"speed"`          // e.g. "1Gf"; informational, kernels inject time
	LinkBandwidth     Bandwidth `toml:"link_bandwidth"`
	LinkLatency       Time      `toml:"link_latency"`
	SharingPolicy     string    `toml:"sharing_policy"` // splitduplex | shared | fatpipe
	BackboneBandwidth Bandwidth `toml:"backbone_bandwidth"`
	BackboneLatency   Time      `toml:"backbone_latency"`
	BackboneSharing   string    `toml:"backbone_sharing_policy"`
	LoopbackBandwidth Bandwidth `toml:"loopback_bandwidth"`
	LoopbackLatency   Time      `toml:"loopback_latency"`
	SwitchLatency     Time      `toml:"switch_latency"` // at every switch a route crosses (fluid.WithSwitchLatency); default 0
	LimiterBandwidth  Bandwidth `toml:"limiter_bandwidth"`
	FatTree           string    `toml:"fat_tree"`  // "levels;down;up;links"
	Torus             IntList   `toml:"torus"`     // dimensions
	Dragonfly         string    `toml:"dragonfly"` // "groups,links;chassis,links;routers,links;nodes"
	HostPrefix        string    `toml:"host_prefix"`
	Radical           string    `toml:"radical"`          // SimGrid's host numbers, e.g. "1-32": host i is host_prefix + its i-th number
	SocketsPerHost    int       `toml:"sockets_per_host"` // CPUs (sockets) of a host: a rank's kernels may have per-CPU models (HOST/cpuS)
	SocketOrder       string    `toml:"socket_order"`     // how a host's ranks fill its sockets: "block" (default) or "cyclic" (alternating)
	Hostfile          string    `toml:"hostfile"`         // smpirun's hostfile: which host each rank runs on
	NP                *int      `toml:"np"`               // smpirun's -np: the ranks offered, placed as smpirun places them (platform.Platform.NP); nil: not given
	Placement         string    `toml:"placement"`        // "block" (default: in order) or "random" (shuffled with the seed)
}

// NetworkTable is [network]: the MPI layer's model (ranks.Config). Unset keys take
// the preset's value (model = "smpi", SimGrid 3.32 smpirun's defaults, or "cm02").
type NetworkTable struct {
	Model string `toml:"model"`
	// LinkLatency and LinkBandwidth, when given, replace platform.link_latency and
	// platform.link_bandwidth: the network what-if users reach for first
	// (`--sweep network.link_latency=1us,5us,20us`) reads as a network key.
	LinkLatency     Time      `toml:"link_latency"`
	LinkBandwidth   Bandwidth `toml:"link_bandwidth"`
	SwitchLatency   Time      `toml:"switch_latency"` // replaces platform.switch_latency
	EagerThreshold  Size      `toml:"eager_threshold"`
	AsyncThreshold  Size      `toml:"async_threshold"`
	Envelope        Size      `toml:"envelope"`
	SendOverhead    Overhead  `toml:"send_overhead"`  // a time, or SimGrid's "bound:offset:perbyte;..." (smpi/os)
	IsendOverhead   Overhead  `toml:"isend_overhead"` // smpi/ois
	RecvOverhead    Overhead  `toml:"recv_overhead"`  // smpi/or
	LatFactor       string    `toml:"lat_factor"`     // "default" | "none" | "size:factor;..."
	BwFactor        string    `toml:"bw_factor"`
	WeightS         Size      `toml:"weight_s"`
	TCPGamma        Size      `toml:"tcp_gamma"`
	CrossTraffic    *float64  `toml:"cross_traffic"` // share of the rate loaded on the reverse route
	IprobeCost      Time      `toml:"iprobe_cost"`
	IprobeGrowth    *bool     `toml:"iprobe_growth"` // SimGrid's smpi/grow-injected-times
	TestCost        Time      `toml:"test_cost"`
	PerRankCounters bool      `toml:"per_rank_counters"`
	// ProbeVisibility is which messages MPI_Iprobe sees: "posted" (SMPI, the
	// default: every message posted so far) or "progressed" (Open MPI's ob1:
	// those in by the end of the rank's previous MPI call,
	// ranks.Config.ProbeAfterProgress).
	ProbeVisibility string `toml:"probe_visibility"`
	// MessageDelay, MessageDelayDist and MessageDelayClass inject a delay into
	// every message (ranks.Config.MessageDelay): its mean, "const" (default) or
	// "exp", and the link class a route must cross to be delayed ("" = all).
	MessageDelay      Time   `toml:"message_delay"`
	MessageDelayDist  string `toml:"message_delay_dist"`
	MessageDelayClass string `toml:"message_delay_class"`
	// LightFlow is an approximation (ranks.Config.LightFlow): messages of at most
	// this many bytes on the wire keep the rate they start with and move no
	// other's. Unset or 0: the exact model.
	LightFlow Size `toml:"light_flow"`
	// LocalSolve is an approximation (ranks.Config.LocalSolve): a message's
	// start or end re-solves the bandwidth sharing of the region it changes,
	// not its whole component. Unset or false: the exact model.
	LocalSolve bool `toml:"local_solve"`
	// WakeOrder orders the ranks that become ready at one instant: "rank"
	// (lowest rank first, the default), "fifo" (in the order they became
	// ready) or "simgrid" (SimGrid 3.32's rounds, ranks.Config.WakeOrder = WakeSimGrid).
	WakeOrder string `toml:"wake_order"`
	// Collectives chooses every collective's algorithm at once: "emu" (the
	// default: each one's first), "smpi" (SMPI 3.32's default selector) or
	// "ompi" (its ompi selector: Open MPI's decisions by size,
	// ranks.Config.SetCollectives); the keys below win over it.
	Collectives string `toml:"collectives"`
	Bcast       string `toml:"bcast"`
	Reduce      string `toml:"reduce"`
	Gather      string `toml:"gather"`
	Scatter     string `toml:"scatter"`
	Allreduce   string `toml:"allreduce"`
	Allgather   string `toml:"allgather"`
	Alltoall    string `toml:"alltoall"`
	Barrier     string `toml:"barrier"`
}

// HPLTable is [hpl]; every key that HPL.dat can list takes a value or a list.
type HPLTable struct {
	N             IntList  `toml:"n"`
	NB            IntList  `toml:"nb"`
	Grids         GridList `toml:"grids"`
	PMap          Word     `toml:"pmap"`  // row | column (or HPL.dat's 0 | 1)
	PFact         NameList `toml:"pfact"` // left | crout | right
	RFact         NameList `toml:"rfact"`
	NBMin         IntList  `toml:"nbmin"`
	NDiv          IntList  `toml:"ndiv"`
	BCast         NameList `toml:"bcast"` // 1ring | 1ringM | 2ring | 2ringM | long | longM
	Depth         IntList  `toml:"depth"`
	Swap          Word     `toml:"swap"` // binary-exchange | spread-roll | mix (or 0 | 1 | 2)
	SwapThreshold *int     `toml:"swap_threshold"`
	L1            Word     `toml:"l1"` // transposed | no-transposed (or HPL.dat's 0 | 1)
	U             Word     `toml:"u"`
	Equilibration Toggle   `toml:"equilibration"`
	Alignment     *int     `toml:"alignment"`
	Threshold     *float64 `toml:"threshold"`
	MaxIterations int      `toml:"max_iterations"` // emulate only K panels, sampled across the run, 0 = all
	Roll          string   `toml:"roll"`           // long broadcasts' roll: steps (HPL's, default) | merged (an approximation)
	PivotExchange string   `toml:"pivot_exchange"` // pivot search: messages (HPL's, default) | uncontended (an approximation)
	CopyL         bool     `toml:"copy_l"`         // HPL built with -DHPL_NO_MPI_DATATYPE: charge HPL_copyL's dlacpy at each broadcast
}

// CongestorTable is [congestor]: one of GPCNeT's congestion patterns.
type CongestorTable struct {
	Pattern    string `toml:"pattern"`    // random-ring | all-to-all | incast
	Bytes      Size   `toml:"bytes"`      // per message; default 1 MiB
	Iterations *int   `toml:"iterations"` // rounds; nil: 10, or no limit with a duration
	Duration   Time   `toml:"duration"`   // run rounds until this much time has passed (e.g. as long as the job beside)
}

// JobTable is one [[jobs]] entry: an application, its ranks, where they go
// and when they start, and the application's own table.
type JobTable struct {
	Name      string         `toml:"name"`      // default: the app and the job's number
	App       string         `toml:"app"`       // hpl | pingpong | ring | replay | congestor
	Ranks     int            `toml:"ranks"`     // ring and congestor: required; others: from their input (checked if given)
	Start     Time           `toml:"start"`     // when the job's ranks begin; default 0
	Placement string         `toml:"placement"` // block (default): the next free slots; random: free slots shuffled with the seed
	HPL       HPLTable       `toml:"hpl"`
	Pingpong  PingpongTable  `toml:"pingpong"`
	Ring      PingpongTable  `toml:"ring"`
	Replay    ReplayTable    `toml:"replay"`
	Congestor CongestorTable `toml:"congestor"`
}

// PingpongTable is [pingpong] and [ring]: message sizes and repetitions.
type PingpongTable struct {
	Sizes      []Size `toml:"sizes"`
	Iterations *int   `toml:"iterations"` // nil: 10
	Window     *int   `toml:"window"`     // pingpong: messages in flight in the bandwidth test; nil: osu_bw's 64
}

// ReplayTable is [replay]: the trace that app = "replay" runs.
type ReplayTable struct {
	// File is a GOAL schedule or a SimGrid time-independent trace (one file, or an
	// index listing one file per rank), relative to the scenario's folder.
	File string `toml:"file"`
	// Format is "goal" or "ti"; left out, it is guessed from the file (a .goal
	// extension or a num_ranks header is GOAL, anything else TI).
	Format string `toml:"format"`
	// Semantics is "mpi" (the default: ranks' MPI over the fluid network) or
	// "loggops" (a GOAL schedule as LogGOPSim runs it, its LogGOPS parameters
	// read from [network] and the platform: see Plan.LogGOPS).
	Semantics string `toml:"semantics"`
	// Gap is LogGOPS's g, the least time between two messages on one NIC
	// (default 0); only the loggops semantics has it.
	Gap Time `toml:"gap"`
}

// KernelsTable is [kernels]: the kernel mode and the time models, given inline as
// [kernels.NAME] tables (models.Spec) or in a models file.
type KernelsTable struct {
	Mode       string   // real | timed | model
	Pivot      string   // splitmix | diagonal | random | replay (model mode)
	Pivots     string   // replay: a file of pivot rows, one per column (from emu run --record-pivots)
	SpeedRatio *float64 // nil: 1
	Noise      bool
	// ChargeEmpty charges kernel calls with an empty dimension their model,
	// as SMPI's HPL fork does (kernels.Config.ChargeEmpty).
	ChargeEmpty bool
	Backend     string                 // BLAS of real and timed modes: gonum | openblas (a -tags cblas build)
	Clock       string                 // how timed mode measures a call: wall (SMPI's) | cpu
	Models      string                 // models.toml, relative to the scenario
	Specs       map[string]models.Spec // [kernels.NAME] of the document
	// tables are the document's [kernels.NAME] tables as read, and sets the
	// --set's, merged key by key in their order: the two layers that come
	// over a models file's tables (Scenario.kernelSpec).
	tables, sets map[string]map[string]any
	// parsed: the document is read, the tables that follow are --set's.
	parsed bool
	// Node variability (hostspeed.go): [kernels.host_speed] host or set of
	// hosts → speed factor; host_spread, the relative SD of per-host factors
	// drawn with host_spread_seed (nil: the scenario's seed).
	HostSpeed      map[string]float64
	HostSpread     *float64
	HostSpreadSeed *uint64
}

// kernelScalars are the non-model keys of [kernels].
var kernelScalars = map[string]bool{"mode": true, "pivot": true, "pivots": true, "speed_ratio": true, "noise": true, "charge_empty": true, "models": true, "backend": true, "clock": true,
	"host_speed": true, "host_spread": true, "host_spread_seed": true}

// UnmarshalTOML implements toml.Unmarshaler: scalars are the table's settings, tables
// are kernel models, merged into any model already present (so a --set changes one
// coefficient and keeps the rest).
func (k *KernelsTable) UnmarshalTOML(v any) error {
	table, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("kernels must be a table")
	}
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		val := table[name]
		if variabilityKeys[name] {
			if err := k.setVariability(name, val); err != nil {
				return err
			}
			continue
		}
		if sub, isTable := val.(map[string]any); isTable {
			if kernelScalars[name] {
				return &keyError{key: "kernels." + name, msg: "is a setting, not a kernel model table"}
			}
			if err := k.mergeSpec(name, sub); err != nil {
				return err
			}
			continue
		}
		if err := k.setScalar(name, val); err != nil {
			return err
		}
	}
	return nil
}

func (k *KernelsTable) setScalar(name string, val any) error {
	key := "kernels." + name
	wantString := func() (string, error) {
		s, ok := val.(string)
		if !ok {
			return "", &keyError{key: key, msg: fmt.Sprintf("want a string, got %s", units.Kind(val))}
		}
		return s, nil
	}
	var err error
	switch name {
	case "mode":
		k.Mode, err = wantString()
	case "pivot":
		k.Pivot, err = wantString()
	case "models":
		k.Models, err = wantString()
	case "pivots":
		k.Pivots, err = wantString()
	case "backend":
		k.Backend, err = wantString()
	case "clock":
		k.Clock, err = wantString()
	case "noise", "charge_empty":
		b, ok := val.(bool)
		if !ok {
			return &keyError{key: key, msg: fmt.Sprintf("want true or false, got %s", units.Kind(val))}
		}
		if name == "noise" {
			k.Noise = b
		} else {
			k.ChargeEmpty = b
		}
	case "speed_ratio":
		switch x := val.(type) {
		case float64:
			k.SpeedRatio = &x
		case int64:
			r := float64(x)
			k.SpeedRatio = &r
		default:
			return &keyError{key: key, msg: fmt.Sprintf("want a number, got %s", units.Kind(val))}
		}
	default:
		if hint := suggest(key); hint != "" {
			return &keyError{key: key, msg: "unknown key" + hint}
		}
		return &keyError{key: key, msg: "unknown key (a kernel model is a table: [kernels." + name + "])"}
	}
	return err
}

// mergeSpec reads a [kernels.NAME] table: the document's, decoded into Specs,
// or a --set's, merged into the --set's earlier ones key by key. Unknown keys
// of the model table and values of the wrong type are errors; how the layers
// come over a models file is Scenario.kernelSpec's.
func (k *KernelsTable) mergeSpec(name string, sub map[string]any) error {
	spec, err := decodeSpec(name, sub)
	if err != nil {
		return err
	}
	if k.parsed {
		if k.sets == nil {
			k.sets = map[string]map[string]any{}
		}
		k.sets[name] = mergeTables(k.sets[name], sub)
		return nil
	}
	if k.Specs == nil {
		k.Specs, k.tables = map[string]models.Spec{}, map[string]map[string]any{}
	}
	k.Specs[name], k.tables[name] = spec, sub
	return nil
}

// decodeSpec decodes a [kernels.NAME] table; its errors name the key.
func decodeSpec(name string, sub map[string]any) (models.Spec, error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(sub); err != nil {
		return models.Spec{}, &keyError{key: "kernels." + name, msg: err.Error()}
	}
	var spec models.Spec
	md, err := toml.Decode(buf.String(), &spec)
	if err != nil {
		msg := err.Error()
		var pe toml.ParseError
		if asParseError(err, &pe) {
			return spec, &keyError{key: joinKey("kernels."+name, pe.LastKey), msg: pe.Message}
		}
		if m := lineOfError.FindStringSubmatch(msg); m != nil { // toml: line 1 (last key "coef"): ...
			return spec, &keyError{key: joinKey("kernels."+name, m[2]), msg: m[3]}
		}
		return spec, &keyError{key: "kernels." + name, msg: strings.TrimPrefix(msg, "toml: ")}
	}
	if und := md.Undecoded(); len(und) > 0 {
		return spec, &keyError{key: "kernels." + name + "." + und[0].String(), msg: "unknown key"}
	}
	return spec, nil
}

// mergeTables is over set over base key by key, as TOML tables: a table
// merges into base's table of that key, any other value (a list of tables
// too) replaces base's. Neither argument is modified.
func mergeTables(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for key, v := range base {
		out[key] = v
	}
	for key, v := range over {
		sub, isTable := v.(map[string]any)
		below, wasTable := out[key].(map[string]any)
		if isTable && wasTable {
			v = mergeTables(below, sub)
		}
		out[key] = v
	}
	return out
}

func joinKey(a, b string) string {
	if b == "" {
		return a
	}
	if a == "" {
		return b
	}
	return a + "." + b
}
