package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/sensitivity/goal"
	"github.com/emu-hpc/emu/traceformat"
)

func init() { register(newAnalyzeCmd) }

// analyzeFlags are the options of `emu analyze`, as typed on the command line.
// maxCurvePoints bounds --points: each point is a row of the table and of the
// JSON curve, and 10⁸ of them (a typo) took the memory of the machine.
const maxCurvePoints = 100000

type analyzeFlags struct {
	L, o, gap, G   string
	S              int64
	rangeL         string
	points         int
	tolerance      string
	class          int
	json, plot, lp string
	pairwise, mpi  bool
	place          string // emu sensitivity --place: the hostfile to write
}

func newAnalyzeCmd() *cobra.Command {
	f := &analyzeFlags{}
	cmd := &cobra.Command{
		Use:   "analyze GRAPH|SCHEDULE.goal",
		Short: "LLAMP latency/bandwidth sensitivity of a recorded execution graph or a GOAL schedule",
		Long: `analyze reads an execution graph written by 'emu run --graph' or a GOAL schedule
(LogGOPSim/Schedgen text, named .goal or whose first statement is num_ranks, as emu run
--replay tells it; replayed once under LogGOPSim's rules with --L/--o/--g/--G/--S),
and reports, exactly and without re-simulating: the runtime T at latency L, λ_L = ∂T/∂L
(left and right where they differ), λ_G, ρ_L = λ_L·L/T, every critical latency in --range,
the x% latency tolerances, T(L) sampled on --points, per latency class, and optionally
λ_L(i,j) by rank pair and each rank's MPI-time split. Durations take a unit: 3us, 0.018ns.
A recorded graph's classes 1.. (SMPI's latency factors' excess, a switch delay) stay at the
run's latencies in that report; when it has any, a last table moves every class in proportion
to ℓ, as re-emulating at link latency ℓ moves the factors (JSON "all_classes_scaled").`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runAnalyze(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.L, "L", "3us", "latency L of the swept class at the baseline (default for a recorded graph: its run's)")
	fl.StringVar(&f.o, "o", "5us", "GOAL: CPU overhead per message o")
	fl.StringVar(&f.gap, "g", "0", "GOAL: NIC gap between messages g")
	fl.StringVar(&f.G, "G", "0.018ns", "per-byte time G (GOAL replay; for a recorded graph, whose rest terms hold the run's bandwidth time: none unless given, else the G for ρ_G and --lp)")
	fl.Int64Var(&f.S, "S", 65535, "GOAL: eager limit in bytes (larger messages use rendezvous)")
	fl.StringVar(&f.rangeL, "range", "", "latency range LO:HI for critical latencies and the curve (default L:L+10us)")
	fl.IntVar(&f.points, "points", 11, "curve points over the range")
	fl.StringVar(&f.tolerance, "tolerance", "1,2,5", "latency tolerances to report, in percent")
	fl.IntVar(&f.class, "class", 0, "latency class to sweep (0: ℓ, one link's latency in a wire-mode graph, a message's in an end-to-end one or a GOAL schedule; 1..: a recorded graph's factor or switch classes)")
	fl.StringVar(&f.json, "json", "", "write the report as JSON to this file")
	fl.StringVar(&f.plot, "plot", "", "write runtime.svg, lambda_L.svg and rho_L.svg into this folder")
	fl.StringVar(&f.lp, "lp", "", "write the LP (CPLEX LP format, ns) to this file")
	fl.BoolVar(&f.pairwise, "pairwise", false, "report λ_L(i,j): critical latency terms by rank pair (and write --lp with one latency variable per pair)")
	fl.BoolVar(&f.mpi, "mpi-time", false, "report each rank's MPI time split into stack, network and synchronisation")
	return cmd
}

func runAnalyze(cmd *cobra.Command, path string, f *analyzeFlags) error {
	p, gp, err := f.params()
	if err != nil {
		return err
	}
	if err := checkOutputs([]string{path}, outputPath{"--json", f.json, false}, outputPath{"--lp", f.lp, false},
		outputPath{"--plot", f.plot, true}); err != nil {
		return err
	}
	g, replayed, err := loadGraph(path, gp)
	if err != nil {
		return err
	}
	// A class no edge has would sweep nothing and silently hold every
	// recorded class at 0.
	if n := g.Classes(); f.class >= max(n, 1) {
		return fmt.Errorf("--class %d: %s has latency classes 0..%d", f.class, path, max(n, 1)-1)
	}
	// A recorded graph knows the latencies of its run. Every class but the
	// swept one stays there (a factor class held at (f−1)·L0, a switch
	// class at its delay), whether or not --L moves the swept one; without
	// --L the swept class starts there too (its latency terms are absolute,
	// so another L0 would analyse a different network).
	if base := g.Baseline(); len(base) > f.class {
		p.Latencies = base
		if !cmd.Flags().Changed("G") {
			// Its rest terms hold each message's bandwidth time as the run
			// gave it, not s·G: LogGOPSim's default G would make up a ρ_G
			// (emu sensitivity reports none for the same graph).
			p.G = 0
		}
		if !cmd.Flags().Changed("L") {
			p.L0 = base[f.class]
			if f.rangeL == "" {
				p.Lmin, p.Lmax = p.L0, p.L0+defaultSpan
			}
		}
	}
	rep, err := sensitivity.Analyze(g, p)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if replayed != nil {
		replayed.note(cmd.OutOrStdout(), rep.Runtime)
	}
	if err := rep.WriteTable(cmd.OutOrStdout()); err != nil {
		return asFailure(err)
	}
	// A graph recorded under SMPI's latency factors holds their classes at
	// the run's latencies while ℓ moves; re-emulating at link latency ℓ
	// moves them with it. The graph file does not say which classes are
	// factors and which a switch delay (emu sensitivity knows), so the
	// curve with every class moving is printed beside, named as such.
	var scaled *scaledReport
	if replayed == nil && f.class == 0 {
		scaled = scaledAnalysis(g, rep, p.Tolerances, allClassesMove(g.Classes()))
	}
	if scaled != nil {
		if err := writeAllScaled(cmd.OutOrStdout(), scaled, p.Tolerances, rep.L); err != nil {
			return asFailure(err)
		}
	}
	// The files go together, the plots' folder too, whole or none.
	var st staging
	defer st.discard()
	if f.json != "" {
		err := st.write(f.json, func(w io.Writer) error {
			return jsonout.Encode(w, analyzeJSON{rep, scaled})
		})
		if err != nil {
			return outputFailed("--json", f.json, err)
		}
	}
	if f.lp != "" {
		lat := make([]float64, max(g.Classes(), f.class+1))
		copy(lat, p.Latencies)
		lat[f.class] = p.L0
		err := st.write(f.lp, func(w io.Writer) error {
			return g.WriteLP(w, sensitivity.LPOptions{Latencies: lat, G: p.G, Pairwise: f.pairwise})
		})
		if err != nil {
			return outputFailed("--lp", f.lp, err)
		}
	}
	if f.plot != "" {
		if err := st.plots(f.plot, func(dir string) error { return plots.Sensitivity(dir, rep) }); err != nil {
			return err
		}
	}
	return st.commit()
}

// analyzeJSON is analyze's --json document: the report, plus the curve with
// every recorded class moving with ℓ when the graph has classes beyond 0.
type analyzeJSON struct {
	*sensitivity.Report
	Scaled *scaledReport `json:"all_classes_scaled,omitempty"`
}

// allClassesMove says that every one of n classes moves with ℓ.
func allClassesMove(n int) []bool {
	moves := make([]bool, n)
	for c := range moves {
		moves[c] = true
	}
	return moves
}

// writeAllScaled prints the curve with every class moving in proportion to
// ℓ after analyze's table, and says what it stands for.
func writeAllScaled(w io.Writer, s *scaledReport, tolerances []float64, l0 float64) error {
	fmt.Fprint(w, "\nnote: the table holds classes 1.. at the run's latencies while ℓ moves. SMPI's latency factors\n"+
		"make a message's latency f·ℓ, so re-emulating at link latency ℓ moves their classes with it;\n"+
		"below, every class moves in proportion to ℓ (a platform.switch_latency class would not:\n"+
		"emu sensitivity tells the two apart)\n")
	return writeScaledTable(w, s, tolerances, l0, "with every class moving with ℓ", "T (all classes scaled)")
}

// defaultSpan is the latency range analysed above L0 without --range, s:
// LLAMP's 3–13 µs.
const defaultSpan = 10e-6

// params checks the flags and turns them into analysis and replay parameters.
func (f *analyzeFlags) params() (sensitivity.Params, loggops.Params, error) {
	var p sensitivity.Params
	var gp loggops.Params
	var err error
	durations := []struct {
		flag, text string
		dst        *float64
	}{{"--L", f.L, &p.L0}, {"--o", f.o, &gp.O}, {"--g", f.gap, &gp.Gap}, {"--G", f.G, &p.G}}
	for _, d := range durations {
		if *d.dst, err = parseSeconds(d.text); err != nil {
			return p, gp, fmt.Errorf("%s %q: %w", d.flag, d.text, err)
		}
	}
	gp.L, gp.G, gp.S = p.L0, p.G, f.S
	if f.S < 0 {
		return p, gp, fmt.Errorf("--S %d: want a size in bytes ≥ 0", f.S)
	}
	// The range is always filled, so 0us:0us is ℓ = 0 alone, not "no range".
	p.Lmin, p.Lmax, p.RangeSet = p.L0, p.L0+defaultSpan, true
	if f.rangeL != "" {
		lo, hi, ok := strings.Cut(f.rangeL, ":")
		if !ok {
			return p, gp, fmt.Errorf("--range %q: want LO:HI, e.g. 0us:100us", f.rangeL)
		}
		if p.Lmin, err = parseSeconds(lo); err == nil {
			p.Lmax, err = parseSeconds(hi)
		}
		if err != nil {
			return p, gp, fmt.Errorf("--range %q: %v", f.rangeL, err)
		}
		if p.Lmin > p.Lmax {
			return p, gp, fmt.Errorf("--range %q: want LO:HI with LO ≤ HI", f.rangeL)
		}
	}
	if f.points < 2 || f.points > maxCurvePoints {
		return p, gp, fmt.Errorf("--points %d: want 2 to %d", f.points, maxCurvePoints)
	}
	p.Points, p.Class, p.Pairwise, p.MPITime = f.points, f.class, f.pairwise, f.mpi
	if f.class < 0 || f.class > sensitivity.MaxClass {
		return p, gp, fmt.Errorf("--class %d: want 0..%d", f.class, sensitivity.MaxClass)
	}
	p.Tolerances, err = parsePercents("--tolerance", f.tolerance)
	return p, gp, err
}

// parsePercents reads a flag's comma-separated percentages (each ≥ 0, a "%"
// allowed), in increasing order and each once; an empty list is none.
func parsePercents(flag, list string) ([]float64, error) {
	var out []float64
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	for _, s := range strings.Split(list, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
		if err != nil || !(x >= 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s %q: %q is not a percentage ≥ 0", flag, list, s)
		}
		out = append(out, x)
	}
	// In increasing order, each once: every table of the report lists them so
	// (the factor-scaled one printed "5%, 1%, 1%" beside the LP's "1%, 5%").
	slices.Sort(out)
	return slices.Compact(out), nil
}

// goalReplay is what the replay of a GOAL schedule gave, beside its graph.
type goalReplay struct {
	runtime float64 // LogGOPSim's runtime, s
	cpus    int     // the cpu indices the schedule uses
}

// note says where the graph's T at the replay's L is not the replay's
// runtime: in LogGOPSim an op that depends on an op of another cpu index
// starts without waiting for it to end (goal-and-llamp §5.8); the graph waits.
func (r *goalReplay) note(w io.Writer, graphT float64) {
	if math.Abs(graphT-r.runtime) <= graphAgreement*r.runtime {
		return
	}
	fmt.Fprintf(w, "note: the graph at L gives T = %s, LogGOPSim's replay %s", sensitivity.FormatSeconds(graphT), sensitivity.FormatSeconds(r.runtime))
	if r.cpus > 1 {
		fmt.Fprintf(w, ": the schedule uses %d cpu indices, and in LogGOPSim an op that depends on another cpu's op does not wait for it to end (the graph waits)", r.cpus)
	}
	fmt.Fprintln(w)
}

// loadGraph reads a graph file, or parses and replays a .goal schedule (then
// also returning what the replay gave).
func loadGraph(path string, gp loggops.Params) (*sensitivity.Graph, *goalReplay, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, err // a missing input is the user's to fix: exit 2
	}
	defer file.Close()
	if st, err := file.Stat(); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("%s: a folder, want a graph file (emu run --graph) or a GOAL schedule", path)
	}
	r := bufio.NewReaderSize(file, 1<<20)
	// A GOAL schedule is known by its name or, as emu run --replay knows it,
	// by its first statement (a graph file's is its magic number).
	head, _ := r.Peek(4096)
	if traceformat.Guess(path, head) != traceformat.FormatGOAL {
		g, err := sensitivity.ReadGraph(r)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w%s", path, err, analyzeHint(path, head))
		}
		return g, nil, nil
	}
	s, err := traceformat.Parse(r, path)
	if err != nil {
		return nil, nil, err
	}
	b := sensitivity.NewBuilder(s.NumRanks())
	res, err := goal.ReplayGraph(s, gp, b)
	if err != nil {
		if strings.HasPrefix(err.Error(), path+":") { // a refusal naming the schedule's line
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	g, err := b.Build()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, &goalReplay{runtime: res.Runtime, cpus: s.CPUs()}, nil
}

// analyzeHint says which command takes a file given to analyze that is no
// graph (its magic number is not EMUGRAPH) but a scenario, a SimGrid
// platform, an HPL.dat or a TI trace: analyze said only that its first bytes
// were not a graph's, where run names the right flag (withFlagHint).
func analyzeHint(path string, head []byte) string {
	h := strings.TrimSpace(string(head))
	switch {
	case strings.HasPrefix(h, "EMUGRAPH"):
		return "" // a graph, damaged: the error says where
	case strings.HasPrefix(h, "<"):
		return " (a SimGrid platform goes with emu sensitivity --platform FILE)"
	case strings.HasPrefix(h, "HPLinpack") || strings.EqualFold(filepath.Ext(path), ".dat"):
		return " (an HPL.dat goes with emu sensitivity --hpl-dat FILE)"
	case strings.EqualFold(filepath.Ext(path), ".toml"):
		return " (a scenario is emulated and analysed by emu sensitivity FILE.toml)"
	case looksLikeTrace(h):
		return " (a TI trace is replayed and analysed by emu sensitivity --replay FILE)"
	}
	return ""
}

// secondsPerUnit are the duration suffixes analyze accepts.
var secondsPerUnit = []struct {
	suffix string
	s      float64
}{{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6}, {"μs", 1e-6}, {"ms", 1e-3}, {"s", 1}}

// parseSeconds reads a duration such as "3us", "0.018ns" or "0" into
// seconds. Only 0 may go without a unit: GOAL's ns and emu's s are too
// easy to confuse.
func parseSeconds(text string) (float64, error) {
	t := strings.TrimSpace(text)
	for _, u := range secondsPerUnit {
		if num, ok := strings.CutSuffix(t, u.suffix); ok {
			x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || !(x >= 0) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("want a non-negative number before %q", u.suffix)
			}
			return x * u.s, nil
		}
	}
	if x, err := strconv.ParseFloat(t, 64); err == nil && x == 0 {
		return 0, nil
	}
	return 0, fmt.Errorf("want a duration with a unit (ps, ns, us, ms, s), e.g. 3us")
}
