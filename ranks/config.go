package ranks

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// Collective algorithm names accepted by the Config's *Algo fields. An empty
// field selects the first (default) algorithm listed for that collective.
const (
	AlgoBinomial      = "binomial"      // Bcast, Reduce, Gather, Scatter (default)
	AlgoLinear        = "linear"        // Bcast, Reduce, Gather, Scatter, Barrier, Alltoall, Allgather
	AlgoRecDoubling   = "rdb"           // Allreduce, Allgather (default)
	AlgoRing          = "ring"          // Allreduce, Allgather
	AlgoReduceBcast   = "reduce_bcast"  // Allreduce: Reduce to 0 then Bcast (SMPI's "default")
	AlgoPairwise      = "pairwise"      // Alltoall (default)
	AlgoDissemination = "dissemination" // Barrier (default)
	AlgoBruck         = "bruck"         // Alltoall: Bruck's, log2 p rounds
	// AlgoOMPI is Open MPI's decision by size, as SMPI 3.32's ompi
	// selector makes it (ompi.go), for every collective; for Alltoall it is
	// also SMPI's default, and Alltoallv then runs SMPI's ialltoallv unless
	// Selector is "ompi".
	AlgoOMPI = "ompi"
)

// Config is the MPI layer's model: protocol thresholds, software overheads,
// network factors and the simulated cost of polling calls. The zero Config
// is a valid, idealised model (every send rendezvous, no overhead, factors 1,
// free polling); Preset gives SimGrid's presets. Validate checks it.
type Config struct {
	// Model names the preset the config came from ("cm02", "smpi"); it is
	// informational only, every field below is taken as written.
	Model string

	// EagerThreshold is SMPI's smpi/send-is-detached-thresh, bytes: a send of
	// fewer payload bytes is detached (the sender returns after its
	// overhead; the data moves once the receive is posted). Larger sends
	// are rendezvous: a blocking Send returns when the transfer completes.
	EagerThreshold int
	// AsyncThreshold is SMPI's smpi/async-small-thresh, bytes (default 0):
	// a send of fewer bytes starts moving at once, before any receive is
	// posted (true eager). Must not exceed EagerThreshold.
	AsyncThreshold int
	// Envelope is added to the payload on the wire, bytes (SMPI: 16). The
	// factor tables are looked up on payload + Envelope.
	Envelope int

	// Software overheads (SMPI's smpi/os, smpi/ois, smpi/or), seconds as a
	// function of the payload size. SendOverhead is charged by a detached
	// Send before posting; IsendOverhead by every Isend; RecvOverhead by the
	// receiver when it completes a receive of a detached message.
	SendOverhead, IsendOverhead, RecvOverhead Table

	// LatFactor and BwFactor scale the route latency and the throughput as
	// functions of the wire size (zero Table = 1).
	LatFactor, BwFactor Table
	// WeightS is SimGrid's network/weight-S, bytes: a flow's sharing penalty
	// is its route latency + Σ WeightS/bandwidth over its links.
	WeightS float64
	// TCPGamma is network/TCP-gamma, bytes: the TCP window bound
	// rate ≤ γ/(2·route latency). 0 disables it.
	TCPGamma float64
	// FreeTransfers makes every message's transfer take no time
	// (fluid.Options.FreeFlows), its bytes still counted on its links: the
	// compute-only bound (scenario.Plan.ApplyBound), whose links of a huge
	// finite bandwidth otherwise leave each message a leftover of
	// bytes/bandwidth (1.16e-28 s for 100 bytes).
	FreeTransfers bool
	// CrossTraffic is the share of a flow's rate loaded on the links of its
	// reverse route (SMPI: 0.05, the ACK stream). 0 disables it.
	CrossTraffic float64

	// IprobeCost and TestCost are the simulated seconds charged before each
	// Iprobe and Test (SMPI's smpi/iprobe, smpi/test; default 1e-4), times a
	// counter that grows by one on each failed call and resets to 1 on a
	// successful one. As in SimGrid 3.32 the counters are global to the
	// simulation (one for Iprobe, one for Test, one for Testany), unless
	// PerRankCounters is set.
	IprobeCost, TestCost float64
	// NoGrowth turns off the counters' growth (smpi/grow-injected-times=no):
	// every call then costs exactly IprobeCost / TestCost.
	NoGrowth bool
	// PerRankCounters gives each rank its own Iprobe/Test counters instead
	// of SimGrid's simulation-wide ones.
	PerRankCounters bool
	// ProbeAfterProgress gives MPI_Iprobe Open MPI's ob1 semantics instead
	// of SMPI's: a probe matches only the messages that had arrived when
	// the rank's previous MPI call ended, because ob1 looks for a match
	// before it progresses the transports (and only when nothing matched),
	// and what that progress brings in is seen by the next call. SMPI's probe sees every message posted so
	// far. A rank that polls between long computations (HPL's probing
	// broadcasts) then sees a message one poll later: on this project's VM,
	// an instrumented HPL 2.3 on Open MPI 4.1 saw its 1ringM panels at the
	// second probe after their send, each root's blocking send waiting one
	// more chunk of the receiver's update.
	ProbeAfterProgress bool

	// WakeOrder says which rank runs first among those ready at one instant
	// (and, for WakeSimGrid, what an instant is): see the constants.
	WakeOrder WakeOrder

	// HostSpeed is the hosts' speed in flop/s. Under WakeSimGrid a
	// duration d of computation or of an injected polling cost becomes, as
	// in SMPI, an execution of d·speed flops that ends after flops/speed
	// seconds — the same d up to the last bit, which SimGrid's clock
	// keeps. 0 leaves durations as they are.
	HostSpeed float64

	// MessageDelay is a delay added to the latency phase of every message
	// whose route crosses a link of class DelayClass (every message when
	// DelayClass is empty), s: the mean of DelayDist. It injects congestion
	// for Netscope's delay sensitivity (seed 001); 0 (the default) injects
	// nothing. Exponential draws come from a stream per sender derived from
	// the World's seed.
	MessageDelay float64
	DelayDist    DelayDist
	DelayClass   string // a fluid.Link Class ("backbone", "level2", ...); "" = every message
	// LightFlow, when positive, is an approximation of the network model
	// (fluid.Approximations.LightBytes): a message of at most LightFlow bytes on
	// the wire (payload + envelope, over the bandwidth factor) gets its
	// max-min rate when its transfer starts and keeps it, and moves no
	// other message's rate, instead of re-solving the sharing at its start
	// and end. 0 (the default) keeps the exact model. Refused under
	// WakeSimGrid, whose network is SimGrid's lmm (Validate).
	LightFlow float64
	// LocalSolve is an approximation of the network model
	// (fluid.Approximations.LocalSolve): a message's start or end re-solves the
	// sharing of its own links and spreads only where a rate moved next to
	// another flow, instead of re-solving its whole connected component.
	// false (the default) keeps the exact model. Refused under WakeSimGrid,
	// whose network is SimGrid's lmm (Validate).
	LocalSolve bool

	// Collective algorithms (see the Algo* constants).
	BcastAlgo, ReduceAlgo, GatherAlgo, ScatterAlgo          string
	AllreduceAlgo, AllgatherAlgo, AlltoallAlgo, BarrierAlgo string
	// Selector is the collective set SetCollectives applied: under
	// CollectivesOMPI the collectives with no field of their own follow
	// SMPI's ompi selector too (Alltoallv by Open MPI's decision;
	// Gatherv and Scatterv by SMPI's one algorithm; Allgatherv and
	// ReduceScatter refused).
	Selector string
}

// SMPI's defaults (SimGrid 3.32), reference/smpi-model.md §2.2 and §3.
const (
	DefaultEagerThreshold = 65536   // bytes, smpi/send-is-detached-thresh
	DefaultEnvelope       = 16      // bytes added by SMPI to every message
	DefaultTCPGamma       = 4194304 // bytes, network/TCP-gamma
	DefaultPollCost       = 1e-4    // s, smpi/iprobe and smpi/test
	SimGridPrecision      = 1e-9    // s, precision/timing as smpirun sets it (surf/precision)
	SMPIWeightS           = 8775    // bytes, network/weight-S of the SMPI model
	SMPICrossTraffic      = 0.05    // reverse-route share with network/crosstraffic on
)

// Preset returns the configuration of a SimGrid network model as smpirun
// uses it:
//
//   - "smpi": SimGrid 3.32 smpirun's defaults — SMPI factor tables,
//     weight-S 8775, 5% reverse cross-traffic, TCP gamma 4 MiB.
//   - "cm02": plain max-min (factors 1, no weight-S) without cross-traffic,
//     TCP gamma 4 MiB; the peers' reference configuration.
//
// Both use the detached threshold 65536, the 16-byte envelope, no
// overheads, and 1e-4 s Iprobe/Test costs with growth.
func Preset(model string) (Config, error) {
	c := Config{
		Model:          model,
		EagerThreshold: DefaultEagerThreshold,
		Envelope:       DefaultEnvelope,
		TCPGamma:       DefaultTCPGamma,
		IprobeCost:     DefaultPollCost,
		TestCost:       DefaultPollCost,
	}
	switch model {
	case "smpi":
		c.LatFactor = MustParseTable(SMPILatFactor)
		c.BwFactor = MustParseTable(SMPIBwFactor)
		c.WeightS = SMPIWeightS
		c.CrossTraffic = SMPICrossTraffic
	case "cm02":
	default:
		return Config{}, fmt.Errorf("model %q: want \"cm02\" or \"smpi\"", model)
	}
	return c, nil
}

// DefaultConfig is Preset("smpi"): what smpirun does without options.
func DefaultConfig() Config {
	c, _ := Preset("smpi")
	return c
}

var algos = []struct {
	field  string
	get    func(*Config) string
	values []string
}{
	{"BcastAlgo", func(c *Config) string { return c.BcastAlgo }, []string{AlgoBinomial, AlgoLinear, AlgoOMPI}},
	{"ReduceAlgo", func(c *Config) string { return c.ReduceAlgo }, []string{AlgoBinomial, AlgoLinear, AlgoOMPI}},
	{"GatherAlgo", func(c *Config) string { return c.GatherAlgo }, []string{AlgoBinomial, AlgoLinear, AlgoOMPI}},
	{"ScatterAlgo", func(c *Config) string { return c.ScatterAlgo }, []string{AlgoBinomial, AlgoLinear, AlgoOMPI}},
	{"AllreduceAlgo", func(c *Config) string { return c.AllreduceAlgo }, []string{AlgoRecDoubling, AlgoRing, AlgoReduceBcast, AlgoOMPI}},
	{"AllgatherAlgo", func(c *Config) string { return c.AllgatherAlgo }, []string{AlgoRecDoubling, AlgoRing, AlgoLinear, AlgoOMPI}},
	{"AlltoallAlgo", func(c *Config) string { return c.AlltoallAlgo }, []string{AlgoPairwise, AlgoLinear, AlgoBruck, AlgoOMPI}},
	{"BarrierAlgo", func(c *Config) string { return c.BarrierAlgo }, []string{AlgoDissemination, AlgoLinear, AlgoOMPI}},
}

// ConfigError is Validate's error: the field of Config at fault, by its Go
// name, and what is wrong with its value; a caller that reads the fields from
// its own input names its own key with Field.
type ConfigError struct {
	Field string // e.g. "BwFactor"
	Msg   string // e.g. `"0:0" has a zero factor (a message would never finish)`
}

func (e *ConfigError) Error() string { return "ranks config: " + e.Field + " " + e.Msg }

// fluidOptions is the network model the Config asks for: SimGrid's lmm
// under WakeSimGrid, else emu's incremental max-min with the Config's
// approximations.
func (c *Config) fluidOptions() fluid.Options {
	o := fluid.Options{Approx: fluid.Approximations{LightBytes: c.LightFlow, LocalSolve: c.LocalSolve}, FreeFlows: c.FreeTransfers}
	if c.WakeOrder == WakeSimGrid {
		o.Solver = fluid.SimGrid
	}
	return o
}

// MinBwFactor is the least bandwidth factor Validate takes: below it a
// message on a link of a few B/s would outlast the clock (1e9 s), and HPL's
// polling ranks, whose probe costs grow one step a probe, poll for ever.
const MinBwFactor = 1e-9

// MaxLatFactor is the largest latency factor Validate takes (SMPI's are
// under 20): 1e300 ran HPL to a Time printed in 300 digits (qa47).
const MaxLatFactor = 1e9

// Validate reports the first field that is out of range, by name (a
// *ConfigError).
func (c *Config) Validate() error {
	nonneg := []struct {
		name string
		v    float64
	}{
		{"EagerThreshold", float64(c.EagerThreshold)}, {"AsyncThreshold", float64(c.AsyncThreshold)},
		{"Envelope", float64(c.Envelope)}, {"WeightS", c.WeightS}, {"TCPGamma", c.TCPGamma},
		{"CrossTraffic", c.CrossTraffic}, {"IprobeCost", c.IprobeCost}, {"TestCost", c.TestCost},
		{"LightFlow", c.LightFlow},
	}
	for _, f := range nonneg {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return &ConfigError{f.name, fmt.Sprintf("= %v, want a finite value ≥ 0", f.v)}
		}
	}
	if err := c.validateDelay(); err != nil {
		return err
	}
	if f := c.BwFactor.smallest(); f == 0 {
		return &ConfigError{"BwFactor", fmt.Sprintf("%q has a zero factor (a message would never finish)", c.BwFactor.String())}
	} else if f < MinBwFactor {
		return &ConfigError{"BwFactor", fmt.Sprintf("%q has a factor of %g, below %g: a message would crawl more than a billion times slower than its link, and a rank polling for it would poll for ever", c.BwFactor.String(), f, MinBwFactor)}
	}
	if f, _ := c.LatFactor.Largest(); f > MaxLatFactor {
		return &ConfigError{"LatFactor", fmt.Sprintf("%q has a factor of %g, beyond %g: a message's latency would outlast the simulated clock", c.LatFactor.String(), f, MaxLatFactor)}
	}
	if g := c.TCPGamma; g > 0 && g < 1 {
		return &ConfigError{"TCPGamma", fmt.Sprintf("= %g bytes: a TCP window under one byte holds every message back (a rank polling for one would poll for ever); 0 turns the bound off", g)}
	}
	if c.AsyncThreshold > c.EagerThreshold {
		return &ConfigError{"AsyncThreshold", fmt.Sprintf("%d exceeds EagerThreshold %d", c.AsyncThreshold, c.EagerThreshold)}
	}
	if err := c.fluidOptions().Check(); err != nil {
		field, v := "LocalSolve", "true"
		if c.LightFlow > 0 {
			field, v = "LightFlow", fmt.Sprint(c.LightFlow)
		}
		return &ConfigError{field, fmt.Sprintf("= %s: an approximation of emu's max-min, which wake order %q does not use (it rates messages with SimGrid's lmm)", v, c.WakeOrder)}
	}
	for _, a := range algos {
		v := a.get(c)
		if v == "" {
			continue
		}
		ok := false
		for _, w := range a.values {
			ok = ok || v == w
		}
		if !ok {
			return &ConfigError{a.field, fmt.Sprintf("= %q, want one of %v", v, a.values)}
		}
	}
	return nil
}

// WakeOrder is the order in which ranks ready at one simulated instant run.
// All are deterministic; they differ only at exact ties, which move SimGrid's
// shared Iprobe counter and hence HPL's polling delays.
type WakeOrder uint8

const (
	// WakeRank runs the lowest rank first (the default).
	WakeRank WakeOrder = iota
	// WakeFIFO runs ranks in the order they became ready — SimGrid's order
	// at ties (actors resume in the order their finished activities are
	// processed).
	WakeFIFO
	// WakeSimGrid runs each instant as SimGrid 3.32's maestro does (doc.go,
	// "SimGrid's order"): ranks in FIFO order; events less than
	// SimGridPrecision apart are one instant; ranks woken by a timer
	// (Compute, a polling cost) run before ranks woken by a message; the two
	// waiters of a rendezvous message wake in the order they started
	// waiting; a rank lets the others ready at the instant run wherever SMPI
	// makes a simcall (after posting a send or a receive, before the answer
	// of a probe or test, between the steps of starting an execution); with
	// SimGrid's arithmetic besides. How close this comes to SMPI is measured
	// in the validation package (TestSMPIPeer).
	WakeSimGrid
)

var wakeOrderNames = [...]string{WakeRank: "rank", WakeFIFO: "fifo", WakeSimGrid: "simgrid"}

func (o WakeOrder) String() string {
	if int(o) < len(wakeOrderNames) {
		return wakeOrderNames[o]
	}
	return fmt.Sprintf("WakeOrder(%d)", o)
}

// ParseWakeOrder reads "rank" (or ""), "fifo" or "simgrid".
func ParseWakeOrder(s string) (WakeOrder, error) {
	if s == "" {
		return WakeRank, nil
	}
	for o, name := range wakeOrderNames {
		if s == name {
			return WakeOrder(o), nil
		}
	}
	return 0, fmt.Errorf("unknown order %q (rank, fifo or simgrid)", s)
}

// Collective sets name a choice of algorithm for every collective at once
// (Config.SetCollectives).
const (
	CollectivesEmu  = "emu"  // each collective's first listed algorithm: MPICH-like, emu's default
	CollectivesSMPI = "smpi" // what SMPI 3.32's default selector (smpi/coll-selector "default") runs
	CollectivesOMPI = "ompi" // what SMPI 3.32's ompi selector (smpi/coll-selector "ompi", Open MPI's rules) runs
)

// CollectiveSets lists the names SetCollectives takes.
var CollectiveSets = []string{CollectivesEmu, CollectivesSMPI, CollectivesOMPI}

// SetCollectives gives every collective the algorithm of the named set whose
// field is still empty, so that algorithms already chosen one by one win.
// "smpi" is SMPI 3.32's default selector: a linear barrier, reduce, gather,
// scatter and allgather (every request posted, then waited for), a binomial
// bcast, allreduce as reduce then bcast, and alltoall by Open MPI's
// decision on size; TI replays under it give SMPI's replayer's times.
// "ompi" is SMPI 3.32's ompi selector: every collective by Open MPI's
// decision on the number of ranks and the message's size (AlgoOMPI,
// ompi.go), which stops the run at a choice emu does not implement.
func (c *Config) SetCollectives(set string) error {
	algos := []string{AlgoLinear, AlgoBinomial, AlgoLinear, AlgoReduceBcast, AlgoLinear, AlgoLinear, AlgoLinear, AlgoOMPI}
	switch set {
	case "", CollectivesEmu:
		return nil
	case CollectivesSMPI:
	case CollectivesOMPI:
		for i := range algos {
			algos[i] = AlgoOMPI
		}
	default:
		return fmt.Errorf("collectives %q: want %q, %q or %q", set, CollectivesEmu, CollectivesSMPI, CollectivesOMPI)
	}
	c.Selector = set
	for i, dst := range []*string{&c.BarrierAlgo, &c.BcastAlgo, &c.ReduceAlgo, &c.AllreduceAlgo,
		&c.GatherAlgo, &c.ScatterAlgo, &c.AllgatherAlgo, &c.AlltoallAlgo} {
		if *dst == "" {
			*dst = algos[i]
		}
	}
	return nil
}
