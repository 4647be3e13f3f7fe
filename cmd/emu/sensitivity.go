package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

func init() { register(newSensitivityCmd) }

// sensitivityRange is the default sweep above the run's latency: LLAMP's
// latency-injection validation adds 0 to 50 µs.
const sensitivityRange = 50e-6 // s

// graphAgreement is the relative gap between the graph's T(L0) and the run's
// simulated time above which the command says so (rounding stays far below).
const graphAgreement = 1e-6

func newSensitivityCmd() *cobra.Command {
	var (
		sf       scenarioFlags
		af       analyzeFlags
		graphOut string
		latency  string
		class    string
		ex       sensitivityExtras
		delay    string
	)
	cmd := &cobra.Command{
		Use:   "sensitivity [FILE.toml] | --delay D1,D2,... [FILE.toml ...]",
		Short: "Emulate a scenario, record its execution graph and report its LLAMP latency sensitivity",
		Long: `sensitivity emulates the scenario of FILE.toml (or the embedded default; --hpl-dat,
--platform and --set as for 'emu run'), records its execution graph, and analyses the
graph as 'emu analyze' does, without re-simulating: the runtime T at the run's own
latency L0, λ_L = ∂T/∂ℓ (left and right where they differ), ρ_L = λ_L·ℓ/T, λ_G,
every critical latency in --range, the x% latency tolerances (the largest ℓ with
T(ℓ) ≤ (1+x/100)·T(L0)) and T(ℓ) sampled on --points. Same table, same --json.

What ℓ is for an emulated run (--latency): with "wire" (the default, LLAMP's
Appendix H) ℓ is one link's latency and each message between two hosts carries
one ℓ term per link of its route (hops + 1: 2 on a flat cluster, 2 or 4 on a
two-level fat tree), so raising ℓ by d is raising platform.link_latency by d, and
L0 is the platform's link latency (the most common mean link latency of a route:
with a backbone of another latency, ℓ also moves the backbone). SMPI's latency factors (network.model = "smpi")
scale a message's latency by f(size): its factor-1 part is ℓ; the excess (f−1) of
each factor value is a latency class of its own at (f−1)·L0, reported per class,
so T(L0) is the run. The LP sweep (λ_L, critical latencies, tolerances, curve)
holds those classes; a last table moves them with ℓ, at (f−1)·ℓ, as re-emulating
at link latency ℓ does: its slope λ_L + Σ (f_c−1)·λ_c, tolerances and curve (JSON
"factor_scaled") are the ones to compare with re-emulation. With
"end-to-end" ℓ is one message's whole latency (route × factor), one term per
message; L0 is the most common one and messages of other latencies (other route
lengths, other factors) are charged L0 and moved by the same ΔL. Both modes add
the time the network actually gave a message beyond its latency (bandwidth under
contention) as a constant; none within a host.

Per link class (wire mode): each message's ℓ terms are split by the link class of
its route's cables (fat-tree host/levelN, dragonfly terminal/intra/inter, torusN,
backbone; 'emu run --links' lists a platform's), each class at its links' latency
in the run. The class table (JSON "classes", with "name") gives every class's λ
and ρ, and for link classes their critical latencies and tolerances with that class
alone moving over --range shifted to its latency. --class NAME sweeps that class as
ℓ for the whole report, the other classes held. platform.switch_latency adds the
class "switch" (each message's switches at that latency), held while ℓ moves, in
the factor-scaled table too: re-emulating at another link latency leaves it. --graph
saves the one-ℓ graph.

--place FILE searches, on the graph, a placement of the ranks on the run's hosts that
lowers T (swaps of two ranks between hosts; each message's link latency scaled to its
new route), writes it as an smpirun hostfile and re-emulates with it: the graph's answer
is first order, the re-emulation says what the placement is worth.

The graph keeps the run's order of events: where the application adapts to timing
(HPL's ring broadcasts poll with MPI_Iprobe), predictions away from L0 depart from
what re-emulating at that latency gives. --verify K re-emulates at K link latencies
across --range, keeps the graph of each run the earlier graphs mispredict by over
1%, and prints the verified T(ℓ): exact at every re-emulation, between them the
graph that explained both ends or the chord of the two runs (JSON "verified",
"verified_curve"). It holds up to K+1 graphs in memory.

--bandwidth-tolerance 1,2,5 gives, per link class, the least bandwidth of that class
(the others held) keeping T within x% of the run. The graph holds each message's
bandwidth time as the run gave it, contention included, so the answer is searched
by re-emulation (a 1% bracket: T within x% at the answer, above it at most 1% lower;
the emulations are counted), with the graph's answer beside it (every message
crossing the class having its bandwidth time scaled; JSON "bandwidth").

--delay D1,D2,... measures Netscope's delay sensitivity instead (seed 001): it runs
each scenario once per delay with network.message_delay set to it (each message's
latency phase lengthened by that delay, or by an exponential draw of that mean with
network.message_delay_dist = "exp", only on routes crossing
network.message_delay_class if set), measures the run's T and its mean message
delivery time M (first byte sent to last byte in, over every message), fits
T = slope·M + k by least squares (R² reported) and normalises
c_a = slope / m̄, m̄ = 2·messages/ranks (each rank's sends and receives; from the
run at the smallest delay), so that a ping-pong's c_a is 1 and a token ring's on n
ranks n/2. The scenarios are ranked by c_a, the most sensitive first; --json too.
It re-emulates (no graph), so it also sees what the graph cannot: polling that
adapts to timing, contention that moves. Where T falls as the delay grows (a run
whose order of events moves with timing, so one run a delay says little), a line
under its runs says so (JSON "falls").`,
		Example: `  emu sensitivity
  emu sensitivity hpl.toml --range 1us:26us --tolerance 1,2,5 --json s.json --plot plots
  emu sensitivity hpl.toml --latency end-to-end --range 2us:52us
  emu sensitivity examples/dragonfly.toml --class inter --json inter.json
  emu sensitivity hpl.toml --range 1us:51us --verify 5
  emu sensitivity hpl.toml --bandwidth-tolerance 1,2,5
  emu sensitivity --delay 0,2us,5us,10us examples/pingpong.toml examples/dragonfly.toml --json delay.json
  emu sensitivity --hpl-dat HPL.dat --platform cluster.xml --set network.model=cm02 --graph hpl.graph`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("delay") {
				delays, err := parseDelays(delay)
				if err != nil {
					return err
				}
				return runDelaySensitivity(cmd, args, &sf, delays, af.json)
			}
			if len(args) > 1 {
				return fmt.Errorf("sensitivity [FILE.toml]: accepts at most 1 arg(s), received %d (several scenarios only with --delay)", len(args))
			}
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			mode, err := observe.ParseLatencyMode(latency)
			if err != nil {
				return fmt.Errorf("--latency: %v", err)
			}
			return runSensitivity(cmd, file, &sf, &af, graphOut, mode, class, &ex)
		},
	}
	sf.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&af.rangeL, "range", "", "latency range `LO:HI` of ℓ for critical latencies and the curve, e.g. 0us:100us (default L0:L0+50us)")
	fl.IntVar(&af.points, "points", 11, "curve points over the range")
	fl.StringVar(&af.tolerance, "tolerance", "1,2,5", "latency tolerances to report, in percent")
	fl.StringVar(&af.json, "json", "", "write the report as JSON to this `FILE`")
	fl.StringVar(&af.plot, "plot", "", "write runtime.svg, lambda_L.svg, rho_L.svg and, per link class, runtime_by_class.svg into this `DIR`")
	fl.StringVar(&af.lp, "lp", "", "write the LP (CPLEX LP format, ns) to this `FILE`")
	fl.StringVar(&graphOut, "graph", "", "also write the execution graph to `FILE` (for emu analyze)")
	fl.StringVar(&latency, "latency", "wire", latencyFlagHelp)
	fl.StringVar(&class, "class", "", "sweep the latency of one link class `NAME` (host, levelN, terminal, intra, inter, torusN, backbone; emu run --links lists them), the others held at the run's (default: ℓ, every link at once)")
	fl.BoolVar(&af.pairwise, "pairwise", false, "report λ_L(i,j): critical latency terms by rank pair")
	fl.BoolVar(&af.mpi, "mpi-time", false, "report each rank's MPI time split into stack, network and synchronisation (seed 002), and per protocol and per MPI call, from the run's events")
	fl.StringVar(&delay, "delay", "", "Netscope's delay sensitivity: run each scenario at these injected per-message delays `D1,D2,...` (e.g. 0,2us,5us) and fit T = c·M + k")
	fl.StringVar(&af.place, "place", "", "search a placement of the ranks that lowers T on the graph (swaps between hosts), write it as an smpirun hostfile `FILE` and re-emulate with it")
	ex.add(cmd)
	return cmd
}

// runSensitivity checks the flags, emulates with the graph recorder, and
// analyses the graph at the run's own latency.
func runSensitivity(cmd *cobra.Command, file string, sf *scenarioFlags, af *analyzeFlags, graphOut string, mode observe.LatencyMode, class string, ex *sensitivityExtras) error {
	// Check the analysis flags before a possibly long emulation; L is the run's,
	// known only afterwards, and the G-based figures (ρ_G) need a symbolic G the
	// emulated graph does not have.
	af.L, af.o, af.gap, af.G = "0", "0", "0", "0"
	if _, _, err := af.params(); err != nil {
		return err
	}
	s, err := sf.scenario(file)
	if err != nil {
		return err
	}
	if err := checkOutputs(s.ReadFiles(), outputPath{"--json", af.json, false}, outputPath{"--lp", af.lp, false},
		outputPath{"--graph", graphOut, false}, outputPath{"--plot", af.plot, true}, outputPath{"--place", af.place, false}); err != nil {
		return err
	}
	plan, err := s.Validate()
	sf.unread.tell(plan)
	if err != nil {
		return err
	}
	if plan.App == scenario.AppJobs {
		return fmt.Errorf("%s: sensitivity analyses one application's run, not a scenario's [[jobs]]", file)
	}
	if plan.Semantics == replay.SemanticsLogGOPS {
		where := file
		if by, ok := s.SetBy("replay.semantics"); ok {
			where = by
		}
		return fmt.Errorf(`%s: replay.semantics = "loggops" runs no ranks to record a graph from; emu analyze SCHEDULE.goal analyses a schedule under LogGOPSim's semantics`, where)
	}
	if err := checkClassFlag(plan, class, mode); err != nil {
		return err
	}
	if af.place != "" && mode != observe.WireLatency {
		return fmt.Errorf("--place: needs --latency wire (routes per link class), not %s", mode)
	}
	if err := ex.check(cmd, plan, mode, class); err != nil {
		return err
	}
	if err := plan.CanRecordGraph(); err != nil {
		return err
	}
	// --mpi-time on an emulated run: the events' split (exact: they see the
	// calls, protocols, posts and arrivals), not the graph's upper bound.
	opt := runner.Options{Graph: true, GraphLatency: mode, MPISplit: af.mpi}
	if pr := newProgress(cmd.ErrOrStderr(), isQuiet(cmd)); pr != nil {
		opt.Listeners = append(opt.Listeners, pr.listener())
		go pr.run()
		defer pr.stop()
	}
	res, err := runner.Run(plan, opt)
	if err != nil {
		return runError(inPlatform(err, plan)) // the input was validated: a failing run is emu's fault, or a replayed trace's
	}
	af.L = strconv.FormatFloat(res.GraphL*1e6, 'g', -1, 64) + "us"
	p, _, err := af.params()
	if err != nil {
		return err
	}
	if af.rangeL == "" {
		p.Lmin, p.Lmax = p.L0, p.L0+sensitivityRange
	}
	// The other classes (latency factors' excess, wire mode) stay at the run's.
	p.Latencies = res.Graph.Baseline()
	g, cg := res.Graph, res.ClassGraph
	if class != "" {
		if g, err = sweepOneClass(cg, class, &p, af.rangeL == ""); err != nil {
			return err
		}
	}
	p.MPITime = false
	rep, err := sensitivity.Analyze(g, p)
	if err != nil {
		return asFailure(err)
	}
	if res.MPISplit != nil {
		rep.MPITime, rep.MPIByProtocol, rep.MPIByCall = res.MPISplit.Ranks(), res.MPISplit.Protocols(), res.MPISplit.Calls()
	}
	var scaled *scaledReport
	var moves []bool // per one-ℓ class: whether it moves with ℓ (the switches' does not)
	if mode == observe.WireLatency && class == "" && cg != nil {
		moves = oneEllFactors(cg)
		scaled = scaledAnalysis(res.Graph, rep, p.Tolerances, moves) // on the one-ℓ classes
	}
	if cg != nil {
		// Each class alone, the others held, over the range shifted to its latency.
		pc := p
		pc.Latencies = cg.Graph.Baseline()
		if rep.Classes, err = sensitivity.AnalyzeClasses(cg.Graph, pc, cg.Names, cg.Link); err != nil {
			return asFailure(err)
		}
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "emulated %s on %d ranks: simulated time %s", plan.App, res.Ranks, sensitivity.FormatSeconds(res.SimulatedTime))
	if len(res.HPL) > 0 && res.HPL[0] != nil {
		fmt.Fprintf(out, ", HPL Time %s", sensitivity.FormatSeconds(res.HPL[0].Time))
		if n := len(res.HPL); n > 1 {
			// The graph holds the whole run: T below is every test, one after another.
			fmt.Fprintf(out, " (the first of %d tests; T below is all %d in turn)", n, n)
		}
	}
	if class != "" {
		what := "latency of one " + class + " link"
		if class == observe.SwitchClass {
			what = "latency of one switch (platform.switch_latency)"
		} else if !cg.Link[p.Class] {
			what = "excess (f−1)·L0 of latency " + class
		}
		fmt.Fprintf(out, "\nℓ = %s (class %d; the other classes held at the run's); the run's L0 = %s\n", what, p.Class, sensitivity.FormatSeconds(p.L0))
	} else {
		fmt.Fprintf(out, "\nℓ = %s; the run's L0 = %s\n", latencyMeaning(mode), sensitivity.FormatSeconds(res.GraphL))
	}
	if d := (rep.Runtime - res.SimulatedTime) / res.SimulatedTime; math.Abs(d) > graphAgreement {
		fmt.Fprintf(out, "note: the graph at L0 gives %s, %+.3g%% off the run: %s\n",
			sensitivity.FormatSeconds(rep.Runtime), 100*d, disagreementCause(mode))
	}
	if n := res.Graph.Classes(); mode == observe.WireLatency && n > 1 && class == "" {
		var fc, sw []string
		for c := 1; c < n; c++ {
			if c >= len(moves) || moves[c] { // a class not known to be the switches' is a factor's
				fc = append(fc, strconv.Itoa(c))
			} else {
				sw = append(sw, strconv.Itoa(c))
			}
		}
		classes := "classes 1.." + strconv.Itoa(n-1)
		if len(sw) > 0 {
			classes = "class(es) " + strings.Join(fc, ", ")
		}
		if len(fc) > 0 {
			fmt.Fprintf(out, "note: %d latency factor(s) above 1 are %s, held at (f−1)·L0 while ℓ moves; re-emulating with other links moves them too (last table)\n",
				len(fc), classes)
		}
		if len(sw) > 0 {
			fmt.Fprintf(out, "note: class %s is the switches', held at platform.switch_latency while ℓ moves, as re-emulating with other links does\n", strings.Join(sw, ", "))
		}
	}
	if err := rep.WriteTable(out); err != nil {
		return asFailure(err)
	}
	if scaled != nil {
		if err := writeScaled(out, scaled, p.Tolerances, p.L0); err != nil {
			return asFailure(err)
		}
	}
	doc := sensitivityJSON{Report: rep, Scaled: scaled}
	var note io.Writer
	if !isQuiet(cmd) {
		note = cmd.ErrOrStderr()
	}
	if err := ex.run(out, &doc, rerun{sf: sf, file: file, mode: mode, note: note}, res, p); err != nil {
		return err
	}
	// The files go together, --place's hostfile too: renamed only when the
	// re-emulation with it has succeeded.
	var st staging
	defer st.discard()
	if err := writeSensitivityOutputs(&st, g, res.Graph, doc, p, af, graphOut); err != nil {
		return err
	}
	if af.place != "" {
		if err := reportPlacement(out, &st, af.place, sf, file, plan, res); err != nil {
			return err
		}
	}
	return st.commit()
}

// writeSensitivityOutputs stages the files asked for in st, the plots' folder
// too, for the caller to rename together, whole or none.
// g is the analysed graph (the LP's), saved the one-ℓ graph (--graph: graph
// files do not keep class names yet).
func writeSensitivityOutputs(st *staging, g, saved *sensitivity.Graph, doc sensitivityJSON, p sensitivity.Params, af *analyzeFlags, graphOut string) error {
	rep := doc.Report
	if af.json != "" {
		err := st.write(af.json, func(w io.Writer) error {
			return jsonout.Encode(w, doc)
		})
		if err != nil {
			return outputFailed("--json", af.json, err)
		}
	}
	if af.lp != "" {
		lat := make([]float64, max(g.Classes(), 1))
		copy(lat, p.Latencies)
		lat[p.Class] = p.L0
		err := st.write(af.lp, func(w io.Writer) error {
			return g.WriteLP(w, sensitivity.LPOptions{Latencies: lat})
		})
		if err != nil {
			return outputFailed("--lp", af.lp, err)
		}
	}
	if graphOut != "" {
		err := st.write(graphOut, func(w io.Writer) error {
			_, err := saved.WriteTo(w)
			return err
		})
		if err != nil {
			return outputFailed("--graph", graphOut, err)
		}
	}
	if af.plot != "" {
		if err := st.plots(af.plot, func(dir string) error { return plots.Sensitivity(dir, rep) }); err != nil {
			return err
		}
	}
	return nil
}

// latencyFlagHelp is the --latency help of emu run and emu sensitivity.
const latencyFlagHelp = "what the graph's ℓ is: `wire` (one link's latency, one term per link of a message's route) or end-to-end (one message's latency)"

// latencyMeaning says in words what ℓ is in a latency mode.
func latencyMeaning(m observe.LatencyMode) string {
	if m == observe.EndToEndLatency {
		return "end-to-end latency of one network message"
	}
	return "latency of one link (a message carries one term per link of its route)"
}

// disagreementCause says why a graph's T(L0) can differ from its run.
func disagreementCause(m observe.LatencyMode) string {
	if m == observe.EndToEndLatency {
		return "its messages had different latencies (routes of different lengths, SMPI's size-dependent latency factors) and the graph puts them all at L0 (--latency wire counts links); also MPI-layer time the events do not show (probe costs of a rank that was waiting)"
	}
	return "links of different latencies all put at L0, or MPI-layer time the events do not show (probe costs of a rank that was waiting)"
}
