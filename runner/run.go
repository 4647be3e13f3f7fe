package runner

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/apps/pingpong"
	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// Options says what a run records besides its results.
type Options struct {
	Graph bool // record the execution graph (Result.Graph)
	// Bound names the bound the plan was turned into (Plan.ApplyBound), for
	// the result; "" for the run itself.
	Bound string
	// GraphLatency says what the graph's latency ℓ is: one link's latency
	// (WireLatency, the default: hops+1 terms per message) or one message's
	// end-to-end latency (EndToEndLatency: one term).
	GraphLatency observe.LatencyMode
	Trace        io.Writer // write a Chrome trace-event JSON here, if not nil
	// TraceFrom and TraceTo bound the trace, s (TraceTo 0 = no bound).
	TraceFrom, TraceTo float64
	// Breakdown splits each rank's time into compute, communication and waiting
	// (Result.Breakdown).
	Breakdown bool
	// MPISplit splits each rank's MPI time into stack, synchronisation and
	// network, per protocol and per MPI call (Result.MPISplit, seed 002).
	MPISplit bool
	// Hooks are extra listeners of every kind of event (tests, tracers).
	Hooks []ranks.Hook
	// Listeners are extra listeners of the kinds they name (progress
	// reporters, counters): at scale an event nobody hears is not built.
	Listeners []ranks.Listener
	// RecordPivots keeps the pivot rows of an HPL run (real mode, one test) in
	// Result.Pivots, for a later replay.
	RecordPivots bool
	// Kernels, if set, logs every kernel call (Result.Kernels has its totals).
	Kernels *observe.KernelLog
	// MPICalls tallies the time spent in each MPI call (Result.MPICalls).
	MPICalls bool
	// Links accounts the network's traffic per link and per class, and the
	// messages by the highest class they cross (Result.Traffic).
	Links bool
	// NoAlone skips the runs of each [[jobs]] entry alone (no slowdown).
	NoAlone bool
	// ClassBandwidth gives every link of a link class (fluid's Link.Class:
	// "host", "levelN", "terminal", ...) this bandwidth, B/s: the per-class
	// what-if that emu sensitivity's bandwidth tolerance re-emulates with.
	// Classes the topology does not have are ignored.
	ClassBandwidth map[string]float64
	// Topology, if set, replaces the built topology by what it returns (emu
	// run --perturb moves every link by parts in 10⁹); it must keep the
	// hosts, the link IDs and the routes' links.
	Topology func(fluid.Topology) (fluid.Topology, error)
}

// Result is one run's outcome; its JSON form is the contract of shared/DESIGN.md.
type Result struct {
	App           string  `json:"app"`
	Ranks         int     `json:"ranks"`
	SimulatedTime float64 `json:"simulated_time_s"`
	Bound         string  `json:"bound,omitempty"` // Options.Bound
	WallTime      float64 `json:"wall_time_s"`
	Seed          uint64  `json:"seed"`
	Results       any     `json:"results"` // []*hpl.Result, []pingpong.Result, []pingpong.RingResult, []*replay.Result, []*pingpong.CongestorResult; [] for [[jobs]] (see Jobs)
	// HostSpeed is each host's speed factor where it is not 1
	// ([kernels] host_speed, host_spread): which hosts were slow.
	HostSpeed map[string]float64 `json:"host_speed,omitempty"`
	// Kernels are the per-kernel totals over all ranks (Options.Kernels).
	Kernels []observe.KernelTotal `json:"kernels,omitempty"`
	// MPICalls are the per-call totals over all ranks (Options.MPICalls).
	MPICalls []observe.MPICallTotal `json:"mpi_calls,omitempty"`

	HPL       []*hpl.Result             `json:"-"`
	Pingpong  []pingpong.Result         `json:"-"`
	Ring      []pingpong.RingResult     `json:"-"`
	Replay    *replay.Result            `json:"-"`
	Congestor *pingpong.CongestorResult `json:"-"`
	// Jobs are the results of a scenario's [[jobs]] (Plan.Jobs), in their order.
	Jobs  []*JobResult       `json:"jobs,omitempty"`
	Graph *sensitivity.Graph `json:"-"`
	// ClassGraph: Graph with one latency class per link class (wire mode).
	ClassGraph *observe.ClassGraph `json:"-"`
	Breakdown  *observe.Breakdown  `json:"-"`
	MPISplit   *observe.MPISplit   `json:"-"`
	GraphL     float64             `json:"-"` // the class-0 latency to analyse the graph at (observe.GraphRecorder.BaselineLatency), s; all classes: Graph.Baseline()
	Pivots     *hpl.Pivots         `json:"-"`
	Traffic    *observe.Traffic    `json:"-"`
	Plan       *scenario.Plan      `json:"-"`
	// Solver is the max-min solver's work over the run (fluid.SolveStats;
	// zero in SimGrid's order, whose lmm keeps no counts, and for [[jobs]]).
	Solver fluid.SolveStats `json:"-"`
	// Events is how many events the World's engine fired (emu.Engine.Fired).
	Events uint64 `json:"-"`
}

// splitHearsLate says whether the MPI split may hear a dormant probe's
// polls late (observe.MPISplit.Listener) with the same bytes: when no rank
// books a test's cost other than the probes' beside them, as MPI_Test and
// MPI_Testany of a replay may; the other apps make no test.
func splitHearsLate(p *scenario.Plan) bool {
	c := p.Network
	return p.App != scenario.AppReplay || c.TestCost == 0 || c.TestCost == c.IprobeCost
}

// Run executes the plan: builds the topology, places the ranks
// (Platform.Placement), creates the World with the plan's MPI model, gives every
// rank its kernel set, and runs the application. Errors of the run itself (a deadlock, an
// application error) are returned as they are.
func Run(p *scenario.Plan, opt Options) (*Result, error) {
	if opt.Graph {
		if err := p.CanRecordGraph(); err != nil {
			return nil, err
		}
	} else if opt.Links {
		if err := p.CanRecordMessages(); err != nil {
			return nil, err
		}
	}
	topo, err := p.Platform.Build()
	if err != nil {
		return nil, err
	}
	topo = fluid.WithClassBandwidth(topo, opt.ClassBandwidth)
	if opt.Topology != nil {
		if topo, err = opt.Topology(topo); err != nil {
			return nil, err
		}
	}
	if p.App == scenario.AppJobs {
		return runJobs(p, topo, opt)
	}
	if p.App == scenario.AppReplay && p.Semantics == replay.SemanticsLogGOPS {
		return runLogGOPS(p, opt)
	}
	place := p.Platform.Placement(p.Ranks)
	w, err := ranks.NewWorld(p.Network, topo, place, p.Seed)
	if err != nil {
		return nil, err
	}
	var reach *observe.ReachCounter
	if opt.Links {
		w.Engine().System().RecordTraffic()
		reach = observe.NewReachCounter(topo)
		w.AddListener(ranks.Listener{Kinds: ranks.KindsOf(ranks.SendPost), Hook: reach.HookFor(place)})
	}
	var rec *observe.GraphRecorder
	if opt.Graph {
		net := p.Network
		rec = observe.NewGraphRecorder(p.Ranks, p.Platform.Placement(p.Ranks), observe.RecordOptions{
			Latency:       opt.GraphLatency,
			LatFactor:     func(bytes int) float64 { return net.LatFactor.Value(bytes+net.Envelope, 1) },
			SwitchLatency: p.Platform.SwitchLatency,
			LinkLatency:   p.Platform.LinkLatency,
		})
		w.AddListener(rec.Listener())
	}
	var tw *observe.TraceWriter
	if opt.Trace != nil {
		to := opt.TraceTo
		if to == 0 {
			to = math.Inf(1)
		}
		tw = observe.NewTraceWriter(opt.Trace, p.Ranks, opt.TraceFrom, to)
		w.AddListener(tw.Listener())
	}
	var calls *observe.MPICalls
	if opt.MPICalls {
		calls = observe.NewMPICalls(p.Ranks)
		// Only the calls' bounds: a listener of every kind would hear the
		// compute events too, which keeps kernel sleeps from merging.
		w.AddListener(ranks.Listener{Kinds: ranks.KindsOf(ranks.CallStart, ranks.CallEnd), Hook: calls.Hook})
	}
	var split *observe.Breakdown
	if opt.Breakdown {
		split = observe.NewBreakdown(p.Ranks)
		// Its state is per rank, so it may hear a dormant probe's polls late.
		w.AddListener(ranks.Listener{Kinds: ranks.AllKinds, Hook: split.Hook, LateStack: true})
	}
	for _, h := range opt.Hooks {
		w.AddHook(h)
	}
	for _, l := range opt.Listeners {
		w.AddListener(l)
	}
	res := &Result{App: p.App, Ranks: p.Ranks, Seed: p.Seed, Plan: p, Bound: opt.Bound, HostSpeed: p.Kernels.HostSpeed}
	if executes(p) {
		if err := w.SetCPUs(cpusOf(p)); err != nil {
			return nil, err
		}
		if err := setSpeedProfiles(w, p); err != nil {
			return nil, err
		}
	}
	if err := setLinkProfiles(w, p); err != nil {
		return nil, err
	}
	if opt.MPISplit {
		res.MPISplit = observe.NewMPISplit(p.Ranks, p.Network)
		w.AddListener(res.MPISplit.Listener(splitHearsLate(p)))
	}
	start := time.Now() // wall time of the emulation: runner is outside the deterministic core
	err = runApp(p, w, res, opt, place)
	res.WallTime = time.Since(start).Seconds()
	if opt.Kernels != nil {
		res.Kernels = opt.Kernels.Totals()
	}
	if calls != nil {
		res.MPICalls = calls.Totals()
	}
	res.SimulatedTime = w.Now()
	res.Events = w.Engine().Fired()
	if split != nil {
		split.Finish(res.SimulatedTime)
		res.Breakdown = split
	}
	if tw != nil {
		if cerr := tw.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing the trace: %w", cerr)
		}
	}
	if err != nil {
		return nil, err
	}
	if sys := w.Engine().System(); sys != nil {
		res.Solver = sys.SolveStats()
	}
	if reach != nil {
		res.Traffic = observe.TrafficOf(topo.Links(), w.Engine().System().Traffic(res.SimulatedTime), res.SimulatedTime, reach)
	}
	if rec != nil {
		res.GraphL = rec.BaselineLatency()
		if res.Graph, err = rec.Graph(); err != nil {
			return nil, fmt.Errorf("recording the execution graph: %w", err)
		}
		res.ClassGraph = rec.ClassGraph()
	}
	return res, nil
}

// cpusOf is each host's processor: the platform's speed and cores. A TI
// replay's computes and timed kernels run as SimGrid's executions
// (ranks.Rank.Execute, ExecuteFor): on a host whose cores its ranks
// outnumber (smpirun's -np wrapping, a hostfile naming a host more often
// than its cores) they share them, as SimGrid's CPU model does. HPL's
// modelled kernels (real and model modes) are sleeps (SMPI's HPL runs them
// as usleep) and share nothing.
func cpusOf(p *scenario.Plan) []ranks.CPU {
	cpus := make([]ranks.CPU, p.Platform.Hosts)
	for h := range cpus {
		cpus[h] = ranks.CPU{Speed: hostSpeed(p, h), Cores: p.Platform.Cores(h)}
	}
	return cpus
}

// hostFactor is host h's speed factor ([kernels] host_speed, host_spread:
// scenario's Plan.Kernels.HostSpeed, by host name), 1 where it has none.
// The kernels divide their durations by it (kernels.Config.HostSpeed); a
// replay's computes and calcs are divided by it here.
func hostFactor(p *scenario.Plan, h int) float64 {
	if f, ok := p.Kernels.HostSpeed[p.Platform.HostName(h)]; ok {
		return f
	}
	return 1
}

// hostSpeed is host h's speed, flop/s, with its speed factor: what a TI
// compute runs at there, and its processor's speed (cpusOf).
func hostSpeed(p *scenario.Plan, h int) float64 {
	return p.Platform.HostSpeed(h) * hostFactor(p, h)
}

// runApp runs the plan's application on w, its ranks on the hosts of place,
// and puts its results in res.
func runApp(p *scenario.Plan, w *ranks.World, res *Result, opt Options, place []int) error {
	var err error
	switch p.App {
	case scenario.AppHPL:
		err = runHPL(p, w, res, opt.RecordPivots, opt.Kernels, place)
	case scenario.AppPingpong:
		res.Pingpong, err = pingpong.Pingpong(w, pingpong.Config{Sizes: p.Sizes, Iterations: p.Iterations, Window: p.Window})
		res.Results = res.Pingpong
	case scenario.AppRing:
		res.Ring, err = pingpong.Ring(w, pingpong.RingConfig{Sizes: p.Sizes, Iterations: p.Iterations})
		res.Results = res.Ring
	case scenario.AppReplay:
		cfg := replay.Config{Speed: p.Platform.Speed}
		// Hosts of their own speeds (a platform of zones), or of their own
		// speed factors (node variability as a what-if).
		if p.Platform.Speeds != nil || len(p.Kernels.HostSpeed) > 0 {
			cfg.RankSpeeds = make([]float64, len(place))
			cfg.RankFactors = make([]float64, len(place))
			for r, h := range place {
				cfg.RankSpeeds[r] = hostSpeed(p, h)
				cfg.RankFactors[r] = hostFactor(p, h)
			}
		}
		if res.Replay, err = replay.Run(w, p.Trace, cfg); err == nil {
			res.Results = []*replay.Result{res.Replay}
		}
	case scenario.AppCongestor:
		if res.Congestor, err = pingpong.Congestor(w, p.Congestor); err == nil {
			res.Results = []*pingpong.CongestorResult{res.Congestor}
		}
	default:
		err = fmt.Errorf("unknown application %q", p.App)
	}
	return err
}

// runHPL runs every test of the plan in one World, in HPL's order, as one mpirun
// of xhpl does. World rank 0 is grid rank (0, 0) of every test; its results are
// the run's. place is the host of each rank, from which each rank takes its
// socket: a job's ranks fill a host's sockets in the job's own rank order,
// whatever cores other jobs hold.
func runHPL(p *scenario.Plan, w *ranks.World, res *Result, record bool, log *observe.KernelLog, place []int) error {
	rule, err := hpl.ParsePivotRule(p.Pivot)
	if err != nil {
		return err
	}
	opt := hpl.Options{Pivot: rule, Seed: p.Seed, MaxIterations: p.MaxIterations, Replay: p.Replay, Shared: hpl.NewShared(), Roll: p.Roll,
		PivotExchange: p.PivotExchange, CopyL: p.CopyL}
	if p.Kernels.Mode != kernels.Model {
		opt.MemoryLimit = realMemory()
	}
	if record {
		if err := p.CanRecordPivots(); err != nil {
			return err
		}
		opt.Record = hpl.NewPivots(p.HPL[0].N)
		res.Pivots = opt.Record
	}
	results := make([][]*hpl.Result, p.Ranks)
	errs := make([]error, p.Ranks)
	sockets := p.Platform.Sockets(place)
	// HPL's ranks meet through messages alone, and a kernel log sums each
	// rank's calls apart (observe.KernelLog), so merging changes no figure.
	w.MergeKernelSleeps()
	err = w.Run(func(r *ranks.Rank) {
		cfg := p.Kernels
		cfg.Host, cfg.CPU, cfg.Seed = r.HostName(), sockets[r.ID()], p.Seed
		if log != nil {
			cfg.Observe = log.Observer(r.ID())
		}
		k := kernels.New(cfg, r, r.Rand())
		results[r.ID()], errs[r.ID()] = hpl.RunDat(r, *p.HPLDat, k, opt)
	})
	if err != nil {
		return err
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	res.HPL = results[0]
	// HPL prints each phase's largest time over the ranks.
	for i, r := range res.HPL {
		if r == nil {
			continue
		}
		for _, rr := range results[1:] {
			if i < len(rr) && rr[i] != nil {
				r.Phases.Max(rr[i].Phases)
			}
		}
	}
	res.Results = res.HPL
	return nil
}
