package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/hpldat"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/tune"
	"github.com/emu-hpc/emu/units"
)

// fidelityKey is the scenario key a search lowers to make an evaluation cheap: HPL
// emulates that many panels and extrapolates its Time; "0" runs it whole.
const fidelityKey = "hpl.max_iterations"

// memFractionKey is the sweep key of --memory-fraction: not a scenario key, the runner
// turns it into hpl.n from the grid's nodes and --node-memory.
const memFractionKey = "tune.memory_fraction"

// searchFlags are tune's --search options.
type searchFlags struct {
	on         bool
	start      int
	growth     int
	eta        int
	finalists  int
	writeDat   string
	memFrac    string
	nodeMemory string
}

func (s *searchFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&s.on, "search", false, "search instead of sweeping: successive halving with hpl.max_iterations as the cheap fidelity, the finalists run whole")
	f.IntVar(&s.start, "start-iterations", tune.DefaultStart, "with --search: panels emulated per point in the first round")
	f.IntVar(&s.growth, "growth", tune.DefaultGrowth, "with --search: factor on the panels emulated from one round to the next")
	f.IntVar(&s.eta, "eta", tune.DefaultEta, "with --search: each round keeps the best 1/`ETA` of its points")
	f.IntVar(&s.finalists, "finalists", tune.DefaultFinalists, "with --search: points run whole at the end")
	f.StringVar(&s.writeDat, "write-hpl-dat", "", "with --search: write the best point's HPL parameters as an HPL.dat to `FILE`")
	f.StringVar(&s.memFrac, "memory-fraction", "", "derive N from the nodes' memory: the largest multiple of NB whose matrix fills `F[,F...]` of the grid's nodes' memory (several values: an axis the tuner chooses on); needs --node-memory")
	f.StringVar(&s.nodeMemory, "node-memory", "", "memory of one node, e.g. 32GiB (with --memory-fraction)")
}

// check refuses search settings that would not be honoured: a search flag
// without --search, and a value Search would silently replace by its default
// (an --eta of 1 keeps every point, a --growth of 1 never adds panels).
func (s *searchFlags) check(cmd *cobra.Command) error {
	f := cmd.Flags()
	if !s.on {
		for _, name := range []string{"start-iterations", "growth", "eta", "finalists", "write-hpl-dat"} {
			if f.Changed(name) {
				return fmt.Errorf("--%s: only meaningful with --search", name)
			}
		}
		return nil
	}
	for _, c := range []struct {
		name     string
		v, least int
		why      string
	}{
		{"start-iterations", s.start, 1, "panels emulated per point in the first round"},
		{"growth", s.growth, 2, "the panels must grow from one round to the next"},
		{"eta", s.eta, 2, "each round must drop points"},
		{"finalists", s.finalists, 1, "points run whole at the end"},
	} {
		if c.v < c.least {
			return fmt.Errorf("--%s %d: want ≥ %d (%s)", c.name, c.v, c.least, c.why)
		}
	}
	return nil
}

// memoryAxis turns --memory-fraction into a sweep axis, and checks it goes with
// --node-memory and no n axis.
func (s *searchFlags) memoryAxis(swept map[string]string) (*tune.Axis, float64, error) {
	if s.memFrac == "" {
		if s.nodeMemory != "" {
			return nil, 0, errors.New("--node-memory: only meaningful with --memory-fraction")
		}
		return nil, 0, nil
	}
	if s.nodeMemory == "" {
		return nil, 0, errors.New("--memory-fraction: give the memory of one node with --node-memory, e.g. 32GiB")
	}
	// A unit is required: a bare number is bytes (ParseSize), and a node of
	// 1024 bytes (--node-memory 1024, meant as MiB or GB) gave every grid N = NB.
	mem, err := units.ParseSize(s.nodeMemory)
	if _, bare := strconv.ParseFloat(strings.TrimSpace(s.nodeMemory), 64); err != nil || mem <= 0 || bare == nil {
		return nil, 0, fmt.Errorf("--node-memory %q: want a positive size with its unit, e.g. 32GiB", s.nodeMemory)
	}
	if by, ok := swept["hpl.n"]; ok {
		return nil, 0, fmt.Errorf("--memory-fraction derives N: drop %q", by)
	}
	ax := tune.Axis{Key: memFractionKey}
	for _, v := range strings.Split(s.memFrac, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f > 0 && f <= 1) { // NaN too
			return nil, 0, fmt.Errorf("--memory-fraction %q: want fractions in (0, 1], e.g. 0.85", s.memFrac)
		}
		ax.Values = append(ax.Values, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return &ax, mem, nil
}

// memoryN is the rule-based calculators' N: the largest multiple of nb whose n×n
// matrix of 8-byte doubles fits in fraction of the memory of the nodes a p×q grid
// occupies (perHost ranks a node).
func memoryN(fraction, nodeMemory float64, p, q, perHost, nb int) int {
	nodes := (p*q + perHost - 1) / perHost
	n := int(math.Sqrt(fraction * float64(nodes) * nodeMemory / 8))
	return max(n/nb*nb, nb)
}

// searchHPL runs tune --search for the points and reports the best whole run.
func searchHPL(cmd *cobra.Command, dir string, r *scenarioRunner, points []tune.Point, jobs int, sf *searchFlags, outs *tuneOutputs) error {
	if p, err := r.plan(tune.Point{}); err != nil {
		return err
	} else if p.App != scenario.AppHPL {
		return fmt.Errorf("--search: the scenario's app is %s; the search's cheap fidelity is HPL's hpl.max_iterations", p.App)
	} else if p.MaxIterations != 0 {
		return fmt.Errorf("--search sets %s itself: drop it from the scenario or --set", fidelityKey)
	}
	for _, p := range points[:1] {
		plan, err := r.plan(p)
		if err != nil {
			return err
		}
		if len(plan.HPL) != 1 {
			return fmt.Errorf("--search: each point must be one HPL test, but the scenario lists %d (N, NB, grid, ... lists): sweep them with --sweep instead", len(plan.HPL))
		}
	}
	j, err := tune.OpenJournal(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return err
	}
	defer j.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	quiet := isQuiet(cmd)
	res, err := tune.Search(ctx, r, points, tune.SearchOptions{
		Options:   tune.Options{Jobs: jobs, Record: j.Append},
		Fidelity:  fidelityKey,
		Whole:     "0",
		Start:     sf.start,
		Growth:    sf.growth,
		Eta:       sf.eta,
		Finalists: sf.finalists,
		Known: func(id string) (tune.Result, bool) { // a result whose point's files changed is not known
			res, ok := j.Result(id)
			return res, ok && res.Inputs == r.pointInputs(tune.Point{Overrides: res.Overrides})
		},
	})
	if errors.Is(err, context.Canceled) {
		return asFailure(fmt.Errorf("tune: interrupted; rerun the same command to resume from %s", dir)) // not the input's fault
	}
	if err != nil {
		return asFailure(err)
	}
	out := cmd.OutOrStdout()
	if err := writeRungs(out, res); err != nil {
		return asFailure(err)
	}
	last := res.Rungs[len(res.Rungs)-1].Results
	if err := tune.WriteTable(out, last); err != nil {
		return asFailure(err)
	}
	best := stripFidelity(res.Best)
	bestPlan, err := r.plan(best)
	if err != nil {
		return err
	}
	t := bestPlan.HPL[0]
	fmt.Fprintf(out, "best: %s  %.6g Gflops (whole run; N=%d NB=%d %dx%d)\n", best.Label(), res.Best.Gflops, t.N, t.NB, t.P, t.Q)
	if !quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "tune: %d evaluations (%d whole), %d panels emulated, %.3g s of evaluation\n",
			res.Evaluations, res.Whole, res.Panels, res.WallS)
	}
	// The files go together, the plots' folder too, whole or none.
	var st staging
	defer st.discard()
	if sf.writeDat != "" {
		if err := writeBestDat(out, &st, r, best, sf.writeDat); err != nil {
			return err
		}
	}
	if outs.csv != "" {
		if err := st.write(outs.csv, func(w io.Writer) error { return tune.WriteCSV(w, last) }); err != nil {
			return asFailure(err)
		}
	}
	if outs.json != "" {
		if err := st.write(outs.json, func(w io.Writer) error { return writeSearchJSON(w, res) }); err != nil {
			return asFailure(err)
		}
	}
	if outs.plot != "" {
		if err := st.plots(outs.plot, func(dir string) error { return plots.Tune(dir, tune.Envelopes(res.Rungs[0].Results)) }); err != nil {
			return err
		}
	}
	return st.commit()
}

// writeRungs prints one line per round: fidelity, points, kept, best predicted.
func writeRungs(w io.Writer, res tune.SearchResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "round\tmax_iterations\tpoints\tkept\tbest_gflops\tbest_point")
	for i, g := range res.Rungs {
		fid := g.Fidelity
		if fid == "0" {
			fid = "whole"
		}
		bestGF, label := "-", "-"
		if len(g.Results) > 0 && g.Results[0].Error == "" {
			bestGF = strconv.FormatFloat(g.Results[0].Gflops, 'g', 4, 64)
			label = stripFidelity(g.Results[0]).Label()
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%s\t%s\n", i+1, fid, len(g.Results), g.Kept, bestGF, label)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// inHPLDat reports whether the written HPL.dat carries key: every hpl.* key
// but those HPL.dat has no line for (hpl.roll and hpl.pivot_exchange, emu's
// approximations, have to be repeated to reproduce the point;
// hpl.max_iterations is the search's fidelity, and the best point was run
// whole).
func inHPLDat(key string) bool {
	key = strings.TrimSpace(key)
	return strings.HasPrefix(key, "hpl.") && key != "hpl.roll" && key != "hpl.pivot_exchange" && key != "hpl.copy_l"
}

// stripFidelity is the point a result evaluated, without the search's fidelity override.
func stripFidelity(r tune.Result) tune.Point {
	var p tune.Point
	for _, o := range r.Overrides {
		if o.Key != fidelityKey {
			p.Overrides = append(p.Overrides, o)
		}
	}
	return p
}

// writeBestDat stages the best point's HPL parameters as an HPL.dat in st and says
// how to rerun it: the same scenario and --set, the point's non-HPL overrides, --hpl-dat FILE.
func writeBestDat(w io.Writer, st *staging, r *scenarioRunner, best tune.Point, path string) error {
	plan, err := r.plan(best)
	if err != nil {
		return err
	}
	if err := st.write(path, func(w io.Writer) error {
		_, err := w.Write(hpldat.Format(*plan.HPLDat))
		return err
	}); err != nil {
		return asFailure(err)
	}
	args := []string{"emu", "run"}
	if r.file != "" {
		args = append(args, shellQuote(r.file))
	}
	if r.flags.platform != "" {
		args = append(args, "--platform", shellQuote(r.flags.platform))
	}
	args = append(args, "--hpl-dat", shellQuote(path))
	for _, s := range r.flags.sets {
		if key, _, _ := strings.Cut(s, "="); !inHPLDat(key) {
			args = append(args, "--set", shellQuote(s))
		}
	}
	for _, o := range best.Overrides {
		if !inHPLDat(o.Key) && o.Key != memFractionKey {
			args = append(args, "--set", shellQuote(o.Key+"="+o.Value))
		}
	}
	_, err = fmt.Fprintf(w, "wrote %s; reproduce with: %s\n", path, strings.Join(args, " "))
	return err
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain characters.
func shellQuote(s string) string {
	if strings.IndexFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-=/:,+", c))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// memoryPlan replans a point whose N is derived from memory (tune.memory_fraction):
// the point's one HPL test gets hpl.n = memoryN for its grid and NB.
func (r *scenarioRunner) memoryPlan(f scenarioFlags, plan *scenario.Plan, fraction string) (*scenario.Plan, error) {
	frac, err := strconv.ParseFloat(fraction, 64)
	if err != nil || frac <= 0 || frac > 1 || r.nodeMemory <= 0 {
		return nil, fmt.Errorf("%s=%s: want a fraction in (0, 1] and --node-memory", memFractionKey, fraction)
	}
	if len(plan.HPL) != 1 {
		return nil, fmt.Errorf("--memory-fraction: the scenario lists %d HPL tests; N is derived for one test (sweep NB and grids with --sweep)", len(plan.HPL))
	}
	t := plan.HPL[0]
	n := memoryN(frac, r.nodeMemory, t.P, t.Q, plan.Platform.CoresPerHost, t.NB)
	f.sets = append(f.sets, "hpl.n="+strconv.Itoa(n))
	return f.plan(r.file)
}

// writeSearchJSON writes the whole search: the best point, every round, the cost.
func writeSearchJSON(w io.Writer, res tune.SearchResult) error {
	return jsonout.Encode(w, res)
}
