package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/hpldat"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

func init() { register(newRunCmd) }

// scenarioFlags are the inputs every command that runs a scenario takes (run, and
// any other command that wants them: tune, sensitivity).
type scenarioFlags struct {
	sets     []string
	hplDat   string
	platform string
	replay   string
	// labels names the flag that stands for a --set of sets (the --set of
	// --hostfile FILE, of --max-iterations K), for errors to name that flag.
	labels map[string]string
	// sweptApps are the apps emu tune sweeps, by app key ("app",
	// "jobs.N.app"; scenario.Scenario.SweptApps).
	sweptApps map[string][]string
	// unread prints each plan's Plan.Unread once on the command's stderr
	// (copies of the flags share it: tune's points, sensitivity's reruns).
	unread *unreadWarner
}

// unreadWarner prints the warnings of the scenario's tables that a run does
// not read (scenario.Plan.Unread), each table once per command, unless -q.
type unreadWarner struct {
	cmd  *cobra.Command
	mu   sync.Mutex
	seen map[string]bool
}

func (u *unreadWarner) tell(plan *scenario.Plan) {
	if u == nil || plan == nil || len(plan.Unread) == 0 || isQuiet(u.cmd) {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, w := range plan.Unread {
		if key := w.Where + " " + w.Table; !u.seen[key] { // a sweep's points say it once
			if u.seen == nil {
				u.seen = map[string]bool{}
			}
			u.seen[key] = true
			fmt.Fprintln(u.cmd.ErrOrStderr(), "emu: warning: "+w.String())
		}
	}
}

// setFor adds the --set kv that flag (e.g. "--hostfile h.txt") stands for.
func (f *scenarioFlags) setFor(kv, flag string) {
	if f.labels == nil {
		f.labels = map[string]string{}
	}
	f.labels[kv] = flag
	f.sets = append(f.sets, kv)
}

// add declares the flags on cmd.
func (f *scenarioFlags) add(cmd *cobra.Command) {
	f.unread = &unreadWarner{cmd: cmd}
	fl := cmd.Flags()
	fl.Var(setFlag{f}, "set", "override a scenario key, `key=value` with a dotted key (repeatable, applied in order: a later one of a key wins, also over --np, --hostfile or --max-iterations, which stand for one), e.g. --set network.link_latency=5us")
	fl.StringVar(&f.hplDat, "hpl-dat", "", "read HPL's parameters from this `HPL.dat` (replaces the [hpl] table)")
	fl.StringVar(&f.platform, "platform", "", "read the machine from this SimGrid platform `XML` (version 4: clusters, zones, links and routes; replaces [platform])")
	fl.StringVar(&f.replay, "replay", "", "run this trace as the application: a GOAL schedule or a SimGrid TI trace `FILE` (app = \"replay\", replay.file = FILE)")
	fl.Var(npFlag{f}, "np", "start `N` ranks as smpirun -np N does: rank i on hostfile line i mod lines or, without a hostfile, on host i mod hosts in name order (same as --set platform.np=N)")
	fl.Var(hostfileFlag{f}, "hostfile", "place the ranks as smpirun -hostfile does: rank i on the host of line i mod lines (\"name:N\" counts N lines; same as --set platform.hostfile=`FILE`)")
}

// setFlag is --set: each one appends to the scenario flags' sets, in the
// order given with --hostfile's. (pflag's string array replaces what is
// there at its first --set, which dropped a --hostfile given before it.)
type setFlag struct{ f *scenarioFlags }

func (s setFlag) String() string {
	if len(s.f.sets) == 0 {
		return ""
	}
	return "[" + strings.Join(s.f.sets, ",") + "]"
}
func (s setFlag) Type() string { return "stringArray" }
func (s setFlag) Set(kv string) error {
	s.f.sets = append(s.f.sets, kv)
	return nil
}

// hostfileFlag is --hostfile: a --set of platform.hostfile with the path made
// absolute, so that it is read from where the user is, not from the scenario's folder.
type hostfileFlag struct{ f *scenarioFlags }

func (h hostfileFlag) String() string { return "" }
func (h hostfileFlag) Type() string   { return "FILE" }
func (h hostfileFlag) Set(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	h.f.setFor("platform.hostfile="+strconv.Quote(abs), "--hostfile "+path)
	return nil
}

// hostfile is the path the last --hostfile gave ("" without one), for errors
// in that file to say which flag takes it when it is another kind of input
// (a scenario given to --hostfile said only `host "[network]" is not in the
// platform`).
func (f *scenarioFlags) hostfile() string {
	path := ""
	for _, kv := range f.sets {
		if v, ok := strings.CutPrefix(kv, "platform.hostfile="); ok && strings.HasPrefix(f.labels[kv], "--hostfile ") {
			if q, err := strconv.Unquote(v); err == nil {
				path = q
			}
		}
	}
	return path
}

// npFlag is --np: a --set of platform.np, in the order given with the others.
type npFlag struct{ f *scenarioFlags }

func (n npFlag) String() string { return "" }
func (n npFlag) Type() string   { return "N" }
func (n npFlag) Set(v string) error {
	// platform.np's TOML would read 0x10 as 16: --np is decimal as every
	// integer flag is (a value that is no integer at all, TOML's error says).
	k, err := parseDecimal("np", v, true)
	if d, ok := asNotDecimal(err); ok {
		return d
	}
	if err != nil {
		k = v
	}
	n.f.setFor("platform.np="+k, "--np "+v)
	return nil
}

// maxIterationsFlag is --max-iterations: a --set of hpl.max_iterations in the
// order given with the others, so that a later --set overrides it as a later
// --set would (it was applied after them all, whatever the order).
type maxIterationsFlag struct {
	f *scenarioFlags
	k *int
}

func (m maxIterationsFlag) String() string { return "" }
func (m maxIterationsFlag) Type() string   { return "int" }
func (m maxIterationsFlag) Set(v string) error {
	k, err := strconv.ParseInt(v, 10, strconv.IntSize) // decimal, as every integer flag (decimalOnly); root words the errors
	if err != nil {
		return err
	}
	*m.k = int(k)
	m.f.setFor(fmt.Sprintf("hpl.max_iterations=%d", k), "--max-iterations "+v)
	return nil
}

// plan loads the scenario (the embedded default when file is ""), applies
// --platform and --hpl-dat, then every --set in order, and validates it.
func (f *scenarioFlags) plan(file string) (*scenario.Plan, error) {
	s, err := f.scenario(file)
	if err != nil {
		return nil, err
	}
	plan, err := s.Validate()
	f.unread.tell(plan)
	if err != nil {
		// A file a flag names is read here: when the error is in that file
		// and the file is another kind of input, say which flag takes it.
		for _, g := range []struct{ path, flag string }{{f.hplDat, "--hpl-dat"}, {f.platform, "--platform"}, {f.replay, "--replay"}, {f.hostfile(), "--hostfile"}, {file, ""}} {
			if g.path != "" && strings.HasPrefix(strings.TrimPrefix(err.Error(), "--replay "+g.path+": "), g.path+":") {
				return plan, withFlagHint(err, g.path, g.flag)
			}
		}
	}
	return plan, err
}

// scenario is the scenario of file (or the embedded default) with the
// flags' platform, HPL.dat, replay and --set applied, not yet validated.
func (f *scenarioFlags) scenario(file string) (*scenario.Scenario, error) {
	var (
		s   *scenario.Scenario
		err error
	)
	if file == "" {
		s = scenario.Default()
	} else if s, err = scenario.Load(file); err != nil {
		return nil, withFlagHint(err, file, "")
	}
	if f.platform != "" {
		if err := s.UsePlatformXML(f.platform); err != nil {
			return nil, withFlagHint(err, f.platform, "--platform")
		}
	}
	if f.hplDat != "" {
		if _, err := os.Stat(f.hplDat); err != nil && strings.Contains(f.hplDat, ",") {
			// calibrate --hpl-dat takes a list (appCalls); here "a,b"
			// said only "a,b: no such file or directory".
			return nil, fmt.Errorf("--hpl-dat %s: no such file; one HPL.dat is read here, all its tests run (a comma-separated list is emu calibrate's)", f.hplDat)
		}
		if err := s.UseHPLDat(f.hplDat); err != nil {
			return nil, withFlagHint(err, f.hplDat, "--hpl-dat")
		}
	}
	if f.replay != "" {
		if err := checkReplayFile(f.replay); err != nil {
			return nil, err
		}
		if err := s.UseReplay(f.replay); err != nil {
			return nil, withFlagHint(fmt.Errorf("--replay %s: %w", f.replay, err), f.replay, "--replay")
		}
	}
	for key, apps := range f.sweptApps {
		s.SweptApps(key, apps...)
	}
	for _, kv := range f.sets {
		label, ok := f.labels[kv]
		if !ok {
			label = "--set " + kv
		}
		if err := s.SetAs(kv, label); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkReplayFile refuses a --replay path that is missing or a folder (which
// the scenario would blame on a default.toml the user never wrote).
func checkReplayFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("--replay %s: %w", path, errors.Unwrap(err))
	}
	if st.IsDir() {
		return fmt.Errorf("--replay %s: a folder, want a trace file (a GOAL schedule, a TI trace or a TI index of per-rank files)", path)
	}
	return nil
}

func newRunCmd() *cobra.Command {
	var (
		sf                          scenarioFlags
		jsonOut, graphOut, traceOut string
		traceWindow, pivotsOut      string
		plotDir, latencyMode        string
		linksOut                    string
		noAlone                     bool
		bound                       string
		maxIterations               int
		precision                   string
		ef                          ensembleFlags
	)
	cmd := &cobra.Command{
		Use:   "run [FILE.toml]",
		Short: "Emulate a scenario (HPL, pingpong, ring, a replayed trace) and print its results",
		Long: `Run emulates the scenario of FILE.toml — or, without a file, the embedded default:
a small HPL (2×2 grid, N=2000, NB=64) in model mode on a flat 10 Gb/s cluster.

HPL prints HPL 2.3's own output (the T/V table with its WR/WC codes); pingpong
and ring print a table. --hpl-dat and --platform replace the scenario's [hpl]
and [platform] tables with HPL's HPL.dat and a SimGrid platform file; --replay
runs a GOAL schedule or a SimGrid time-independent trace instead. Without a
scenario, --platform, platform.hosts, --np or a hostfile, the default flat
cluster grows to one host per rank of the trace or of HPL's largest grid, as
mpirun -np would be sized for the run; --set changes any one key after that
(a what-if in one flag).

Outputs: --json writes {"app", "ranks", "simulated_time_s", "wall_time_s",
"seed", "results": [...]} (written whole or not at all); an HPL result is
{"variant", "n", "nb", "p", "q", "time_s", "gflops", "residual", "passed",
"checked", ...}, where "checked" is false when no residual was computed (model
mode, or a negative hpl.threshold) and "residual" is then 0 and "passed" false,
as HPL counts the test "completed without checking"; --graph writes the
execution graph for "emu analyze", with its latency ℓ per --latency (wire: one
link's latency, each message carrying one term per link of its route;
end-to-end: one message's latency) and the run's L0 kept in the file; --plot draws each rank's time split into
compute, communication and waiting; --trace writes a Chrome/Perfetto trace
(one process per rank), bounded by --trace-window; --links writes the network's
traffic (JSON, or CSV for a FILE ending in .csv): per link its name (SimGrid's),
class, bytes, busy time and mean utilisation, the same summed per class (fat-tree
level, dragonfly terminal/intra/inter, torus dimension, backbone, loopback), and
the messages and bytes by the highest class they cross; with --plot it also
draws link_classes.svg and link_hottest.svg.

Error bars: --seeds K runs the scenario under seeds seed, seed+1, ...,
seed+K−1 (a stochastic scenario: kernels.noise, random placement, exponential
delays); --perturb K runs it as written and in K−1 copies whose links'
latencies and bandwidths are each multiplied by 1+ε, ε uniform in ±1e-9 drawn
from the copy's index (a deterministic run whose order of events flips on
ties); both together run every seed in every copy. The runs go on all cores
(--jobs, fewer when memory is short). The report and every file are the first
run's (the scenario as written), and a table after the report gives each
result's mean, p05–p95 band, min–max and where one more run would fall
(a 90% normal prediction interval, the figure to hold a real run against;
every figure is a time, a rate or a slowdown, so one reaching below 0 is cut
at 0, marked 0*); --json adds "ensemble": {"runs", "time_s": {mean, min, max,
p05, p95, median, sd, next90: {lo, hi, lo_normal where cut}}, "gflops":
{...}} to each result, to each [[jobs]] entry (time_s, and alone_s and
slowdown unless --no-alone) and to each of its own results (a ring job's
lap_s), and a top-level "ensemble". Quantiles interpolate
between the sorted runs.
When every run gives the same bits, emu says so on stderr (with --seeds: the
scenario draws nothing from its seed that moves it; try --perturb).`,
		Example: `  emu run
  emu run examples/dahu/dahu.toml --json out.json
  emu run --hpl-dat HPL.dat --platform cluster.xml
  emu run --replay examples/replay-ring.txt --platform examples/cluster.xml
  emu run hpl.toml --set network.link_latency=5us --set hpl.nb=[128,256]
  emu run hpl.toml --trace trace.json --trace-window 0:50ms
  emu run examples/alltoall-tapered.toml --links links.csv
  emu run hpl.toml --set kernels.noise=true --seeds 8 --json out.json
  emu run chaotic.toml --perturb 8`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			// A flag that qualifies another does nothing alone: say so rather
			// than run without what it seemed to ask for.
			for _, dep := range [][2]string{{"trace-window", "trace"}, {"latency", "graph"}} {
				if cmd.Flags().Changed(dep[0]) && !cmd.Flags().Changed(dep[1]) {
					return fmt.Errorf("--%s: only meaningful with --%s", dep[0], dep[1])
				}
			}
			if err := ef.check(cmd); err != nil {
				return err
			}
			if precision != "" {
				k, err := panelsFor(cmd, &sf, file, precision, maxIterations)
				if err != nil {
					return err
				}
				sf.sets = append(sf.sets, fmt.Sprintf("hpl.max_iterations=%d", k))
			}
			plan, err := sf.plan(file)
			if err != nil {
				return err
			}
			if noAlone && plan.App != scenario.AppJobs {
				return fmt.Errorf("--no-alone: only meaningful for a scenario with [[jobs]]")
			}
			if bound != "" {
				if err := plan.ApplyBound(bound); err != nil {
					return fmt.Errorf("--bound: %v", err)
				}
				if !isQuiet(cmd) {
					fmt.Fprintf(cmd.ErrOrStderr(), "emu: the %s bound of this run (%s)\n", bound, boundMeaning[bound])
				}
			}
			opt := runner.Options{Bound: bound, Graph: graphOut != "", RecordPivots: pivotsOut != "", Breakdown: plotDir != "", Links: linksOut != "", NoAlone: noAlone}
			if plan.App == scenario.AppJobs && (graphOut != "" || plotDir != "" || pivotsOut != "") {
				return fmt.Errorf("--graph, --plot and --record-pivots record one application's run, not a scenario's [[jobs]] (--trace records them all)")
			}
			if plan.Semantics == replay.SemanticsLogGOPS && (graphOut != "" || traceOut != "" || plotDir != "" || linksOut != "") {
				return fmt.Errorf(`--graph, --trace, --plot and --links record ranks' run; replay.semantics = "loggops" has none`)
			}
			if jsonOut != "" {
				opt.Kernels = &observe.KernelLog{} // per-kernel totals in the JSON
				opt.MPICalls = true                // and per MPI call
			}
			if opt.GraphLatency, err = observe.ParseLatencyMode(latencyMode); err != nil {
				return fmt.Errorf("--latency: %v", err)
			}
			if graphOut != "" {
				if err := plan.CanRecordGraph(); err != nil {
					return fmt.Errorf("--graph: %v", err)
				}
			}
			if linksOut != "" {
				if err := plan.CanRecordMessages(); err != nil {
					return fmt.Errorf("--links: %v", err)
				}
			}
			if opt.RecordPivots {
				if err := plan.CanRecordPivots(); err != nil {
					return fmt.Errorf("--record-pivots: %v", err)
				}
			}
			if opt.TraceFrom, opt.TraceTo, err = observe.ParseTraceWindow(traceWindow); err != nil {
				return err
			}
			ens, err := newEnsemble(ef.spec(), plan, bound, rerun{sf: &sf, file: file}.plan)
			if err != nil {
				return err
			}
			return runPlan(cmd, plan, opt, runOutputs{json: jsonOut, graph: graphOut, trace: traceOut, pivots: pivotsOut, plot: plotDir, links: linksOut, ensemble: ens})
		},
	}
	sf.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&jsonOut, "json", "", "write the results as JSON to `FILE`")
	fl.StringVar(&graphOut, "graph", "", "write the execution graph to `FILE` (for emu analyze)")
	fl.StringVar(&latencyMode, "latency", "wire", latencyFlagHelp)
	fl.StringVar(&traceOut, "trace", "", "write a Chrome trace-event JSON to `FILE`")
	fl.StringVar(&traceWindow, "trace-window", "", "trace only `t0:t1` of simulated time, e.g. 0:5ms (t1 after t0; a side left out is unbounded: 1ms:)")
	fl.StringVar(&pivotsOut, "record-pivots", "", "HPL in real mode: write the pivot rows to `FILE`, for kernels.pivot = \"replay\" (kernels.pivots = FILE)")
	fl.StringVar(&plotDir, "plot", "", "write rank_time.svg and rank_time.csv (each rank's time in compute, communication and waiting) into `DIR`")
	fl.StringVar(&linksOut, "links", "", "write the traffic per link, per link class and by highest class crossed to `FILE` (JSON, or CSV if FILE ends in .csv)")
	fl.BoolVar(&noAlone, "no-alone", false, "[[jobs]]: do not run each job alone as well (no alone_s, no slowdown)")
	fl.StringVar(&bound, "bound", "", "run a bound of the scenario (seed 002): contention-free (links cap each flow instead of sharing: SimGrid's FATPIPE) or compute-only (communication free: no latency, transfer time, MPI overheads or probe costs)")
	fl.Var(maxIterationsFlag{&sf, &maxIterations}, "max-iterations", "HPL: emulate only `K` panels, sampled across the factorization, and extrapolate Time (same as --set hpl.max_iterations=K)")
	ef.add(cmd, true)
	fl.StringVar(&precision, "precision", "", "HPL: pick --max-iterations for this expected relative error of Time, e.g. 2% (doubles K from 8 until the stated error bar is within it)")
	return cmd
}

// runOutputs are the files a run writes ("" = not asked for), and the
// ensemble the run is the first of (nil: none; ensemble_run.go).
type runOutputs struct {
	json, graph, trace, pivots, plot, links string
	ensemble                                *ensemble
}

// runPlan runs a validated plan and writes every output asked for. Outputs are
// checked before the run and staged in temporary files renamed at the end, so an
// error leaves none of them.
func runPlan(cmd *cobra.Command, plan *scenario.Plan, opt runner.Options, out runOutputs) error {
	outs := []outputPath{{"--json", out.json, false}, {"--graph", out.graph, false}, {"--trace", out.trace, false},
		{"--record-pivots", out.pivots, false}, {"--plot", out.plot, true}, {"--links", out.links, false}}
	if plan.App == scenario.AppHPL && plan.HPLDat.Device != 6 && plan.HPLDat.Device != 7 {
		// Only an HPL.dat sets the device ([hpl] has no key for it): its line 3
		// named the file, and an error there points at it as HPL.dat's others do.
		outs = append(outs, outputPath{fmt.Sprintf("%s:%d: output file", plan.HPLDatFile, hpldat.LineOutFile), plan.HPLDat.OutFile, false})
	}
	if err := checkOutputs(plan.Inputs, outs...); err != nil {
		return err
	}
	if !isQuiet(cmd) {
		noteNodes(cmd.ErrOrStderr(), plan) // host speeds of a what-if; models of another node, or aged
		// The scenario's remarks come before the run: a platform grown to a
		// large grid, or models left unused, matter while it runs.
		for _, n := range plan.Notes {
			fmt.Fprintln(cmd.ErrOrStderr(), "emu: note: "+n)
		}
	}
	defer removeStagedOnSignal()()
	var st staging
	defer st.discard()
	var trace *os.File
	var traceW *firstError // the trace's writes, written while the run goes
	if out.trace != "" {
		f, err := st.create(out.trace)
		if err != nil {
			return err
		}
		defer f.Close()
		trace, traceW = f, &firstError{w: f}
		opt.Trace = traceW
	}
	if pr := newProgress(cmd.ErrOrStderr(), isQuiet(cmd), plan); pr != nil && out.ensemble == nil {
		opt.Listeners = append(opt.Listeners, pr.listener())
		go pr.run()
		defer pr.stop()
	}
	res, err := out.ensemble.runWith(cmd, plan, opt)
	if err != nil {
		// The input was validated: a run that fails (a deadlock, an application
		// error) is emu's fault, not the user's, so it exits 1 — unless a
		// replayed trace cannot complete (runError). A trace that could not be
		// written is named by its flag, as the outputs written after the run are.
		if traceW != nil && traceW.err != nil {
			return outputFailed("--trace", out.trace, traceW.err)
		}
		return runError(inPlatform(err, plan))
	}
	if err := printTo(cmd, &st, plan, res); err != nil {
		return asFailure(err)
	}
	if err := out.ensemble.writeTableAfter(cmd.OutOrStdout()); err != nil {
		return asFailure(err)
	}
	if trace != nil {
		if err := trace.Close(); err != nil {
			return outputFailed("--trace", out.trace, err)
		}
	}
	if out.graph != "" {
		if err := st.write(out.graph, func(w io.Writer) error {
			_, err := res.Graph.WriteTo(w)
			return err
		}); err != nil {
			return outputFailed("--graph", out.graph, err)
		}
	}
	if out.plot != "" {
		if err := writeBreakdown(&st, out.plot, plan, res); err != nil {
			return err
		}
	}
	if out.links != "" {
		if err := writeTraffic(&st, out.links, out.plot, plan, res); err != nil {
			return err
		}
	}
	if out.pivots != "" {
		if err := st.write(out.pivots, func(w io.Writer) error {
			_, err := w.Write(scenario.FormatPivots(res.Pivots))
			return err
		}); err != nil {
			return outputFailed("--record-pivots", out.pivots, err)
		}
	}
	if out.json != "" {
		if err := st.write(out.json, func(w io.Writer) error { return out.ensemble.writeJSON(w, res) }); err != nil {
			return outputFailed("--json", out.json, err)
		}
	}
	if err := st.commit(); err != nil {
		return err
	}
	out.ensemble.noteAfter(cmd)
	if !isQuiet(cmd) {
		noteExtrapolated(cmd.ErrOrStderr(), res)
		noteEmptyTrace(cmd.ErrOrStderr(), out.trace, opt, res)
		noteMergedRolls(cmd.ErrOrStderr(), plan)
		notePivotExchange(cmd.ErrOrStderr(), plan)
	}
	if out.graph != "" && !isQuiet(cmd) {
		// The graph keeps its baseline latencies: emu analyze starts there.
		fmt.Fprintf(cmd.ErrOrStderr(), "emu: graph written to %s (ℓ = %s, L0 = %.9gus); analyse it with: emu analyze %s\n",
			out.graph, latencyMeaning(opt.GraphLatency), res.GraphL*1e6, shellQuote(out.graph))
	}
	return nil
}

// noteExtrapolated says on stderr which HPL Times are extrapolations
// (--max-iterations): HPL's report has no place for it, and a Time costed
// from a few panels must not pass for an emulated one.
func noteExtrapolated(w io.Writer, res *runner.Result) {
	for i, r := range res.HPL {
		if r == nil || !r.Extrapolated {
			continue
		}
		total := (r.N + r.NB - 1) / r.NB
		fmt.Fprintf(w, "emu: HPL test %d (N=%d, NB=%d, %dx%d): Time extrapolated from %d of its %d panels (%.6g s emulated), expected error ±%.3g s (±%s%%)\n",
			i+1, r.N, r.NB, r.P, r.Q, r.Panels, total, r.EmulatedTime, r.ExpectedError, twoDigits(100*r.ExpectedError/r.Time))
	}
}

// noteEmptyTrace says on stderr that --trace-window began after the run had
// ended: the trace is written, valid and empty, and a viewer shows nothing
// without saying why.
func noteEmptyTrace(w io.Writer, trace string, opt runner.Options, res *runner.Result) {
	if trace != "" && opt.TraceFrom > 0 && opt.TraceFrom >= res.SimulatedTime {
		fmt.Fprintf(w, "emu: note: --trace-window starts at %.6g s, after the run ended (%.6g s): %s holds no event\n",
			opt.TraceFrom, res.SimulatedTime, trace)
	}
}

// notePivotExchange says on stderr that the pivot search's exchanges were
// timed as wholes (hpl.pivot_exchange = "uncontended"), an approximation
// HPL's report cannot show.
func notePivotExchange(w io.Writer, plan *scenario.Plan) {
	if plan.App == scenario.AppHPL && plan.PivotExchange == hpl.PivotUncontended {
		fmt.Fprintln(w, `emu: pivot exchanges timed as wholes, each message alone on the network (hpl.pivot_exchange = "uncontended"), an approximation: its measured error is in the README (Uncontended pivot exchanges)`)
	}
}

// noteMergedRolls says on stderr that long broadcasts' rolls were merged
// (hpl.roll = "merged"), an approximation HPL's report cannot show.
func noteMergedRolls(w io.Writer, plan *scenario.Plan) {
	if plan.App != scenario.AppHPL || plan.Roll != hpl.RollMerged {
		return
	}
	for _, p := range plan.HPL {
		if p.BCast == hpl.Long || p.BCast == hpl.LongM {
			fmt.Fprintln(w, `emu: long broadcasts' rolls merged (hpl.roll = "merged"), an approximation: its measured error is in the README (Merged rolls)`)
			return
		}
	}
}

// printTo prints the results where they belong: HPL's report as HPL.dat's lines
// 3–4 say (6 stdout, 7 stderr, any other value the named file, written whole), the
// other applications' tables on stdout.
func printTo(cmd *cobra.Command, st *staging, plan *scenario.Plan, res *runner.Result) error {
	if plan.App != scenario.AppHPL || plan.HPLDat.Device == 6 {
		return printResults(cmd.OutOrStdout(), plan, res)
	}
	if plan.HPLDat.Device == 7 {
		return printResults(cmd.ErrOrStderr(), plan, res)
	}
	return st.write(plan.HPLDat.OutFile, func(w io.Writer) error { return printResults(w, plan, res) })
}

// printResults prints HPL's own report, or the pingpong / ring table.
func printResults(w io.Writer, plan *scenario.Plan, res *runner.Result) error {
	switch plan.App {
	case scenario.AppHPL:
		out := hpl.NewOutput(w, *plan.HPLDat)
		if err := out.Banner(*plan.HPLDat); err != nil {
			return err
		}
		for _, r := range res.HPL {
			if r != nil {
				if err := out.Test(r); err != nil {
					return err
				}
			}
		}
		return out.End()
	case scenario.AppPingpong:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "# bytes\tone-way latency (us)\tbandwidth (MB/s)\t\n")
		for _, r := range res.Pingpong {
			fmt.Fprintf(tw, "%d\t%.3f\t%.2f\t\n", r.Bytes, r.OneWay*1e6, r.Bandwidth/1e6)
		}
		return tw.Flush()
	case scenario.AppReplay:
		r := res.Replay
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "# trace\tformat\tranks\tevents\tsimulated time (s)\n")
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.9g\n", r.File, r.Format, r.Ranks, r.Events, r.Time)
		return tw.Flush()
	case scenario.AppJobs:
		return printJobs(w, res)
	case scenario.AppCongestor:
		r := res.Congestor
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "# pattern\tranks\tbytes\trounds\tmessages\ttime (s)\t\n")
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.9g\t\n", r.Pattern, r.Ranks, r.Bytes, r.Iterations, r.Messages, r.Time)
		return tw.Flush()
	case scenario.AppRing:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "# bytes\tranks\tlap (us)\thop (us)\t\n")
		for _, r := range res.Ring {
			fmt.Fprintf(tw, "%d\t%d\t%.3f\t%.3f\t\n", r.Bytes, r.Ranks, r.Lap*1e6, r.Hop*1e6)
		}
		return tw.Flush()
	}
	return nil
}

// writeBreakdown writes the per-rank time split of a run into dir.
func writeBreakdown(st *staging, dir string, plan *scenario.Plan, res *runner.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return asFailure(err)
	}
	title := fmt.Sprintf("%s, %d ranks: time per rank (simulated %.6g s)", plan.App, res.Ranks, res.SimulatedTime)
	if err := st.write(filepath.Join(dir, "rank_time.svg"), func(w io.Writer) error {
		return plots.Breakdown(w, res.Breakdown, title)
	}); err != nil {
		return err
	}
	return st.write(filepath.Join(dir, "rank_time.csv"), res.Breakdown.WriteCSV)
}

// writeTraffic writes the run's traffic report to file (CSV if it ends in
// .csv, else JSON) and, with a plot folder, its two plots there.
func writeTraffic(st *staging, file, plotDir string, plan *scenario.Plan, res *runner.Result) error {
	t := res.Traffic
	write := func(w io.Writer) error {
		return jsonout.Encode(w, t)
	}
	if strings.EqualFold(filepath.Ext(file), ".csv") {
		write = t.WriteCSV
	}
	if err := st.write(file, write); err != nil {
		return outputFailed("--links", file, err)
	}
	if plotDir == "" {
		return nil
	}
	if err := os.MkdirAll(plotDir, 0o755); err != nil {
		return asFailure(err)
	}
	run := fmt.Sprintf("%s, %d ranks, %.6g s", plan.App, res.Ranks, res.SimulatedTime)
	if err := st.write(filepath.Join(plotDir, "link_classes.svg"), func(w io.Writer) error {
		return plots.LinkClasses(w, t, "utilisation per link class ("+run+")")
	}); err != nil {
		return asFailure(err)
	}
	return asFailure(st.write(filepath.Join(plotDir, "link_hottest.svg"), func(w io.Writer) error {
		return plots.HottestLinks(w, t, "hottest links ("+run+")")
	}))
}

// printJobs prints one line per job of a [[jobs]] scenario: its time with
// the others, alone, and the slowdown ("-" when the alone runs were skipped).
func printJobs(w io.Writer, res *runner.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "# job\tapp\tranks\tstart (s)\ttime (s)\talone (s)\tslowdown\n")
	for _, j := range res.Jobs {
		alone, slow := "-", "-"
		if j.Alone > 0 {
			alone, slow = fmt.Sprintf("%.9g", j.Alone), fmt.Sprintf("%.4f", j.Slowdown)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.9g\t%.9g\t%s\t%s\n", j.Name, j.App, j.Ranks, j.Start, j.Time, alone, slow)
	}
	return tw.Flush()
}

// boundMeaning says in words what each --bound changes.
var boundMeaning = map[string]string{
	scenario.BoundContentionFree: "every link caps each flow at its capacity instead of sharing it",
	scenario.BoundComputeOnly:    "communication is free: no latency, transfer time, MPI overheads or probe costs",
}

// twoDigits writes x to two significant digits without an exponent: an
// error bar of 100% as 100, not as %.2g's 1e+02.
func twoDigits(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}
