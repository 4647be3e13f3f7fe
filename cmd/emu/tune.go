package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/traceformat"
	"github.com/emu-hpc/emu/tune"
)

func init() { register(newTuneCmd) }

// tuneFlags are the outputs every tune subcommand can write.
type tuneOutputs struct {
	csv, json, plot string
}

// check refuses outputs that could not be written, before the sweep runs.
func (o *tuneOutputs) check(inputs []string, extra ...outputPath) error {
	return checkOutputs(inputs, append([]outputPath{{"--csv", o.csv, false}, {"--json", o.json, false}, {"--plot", o.plot, true}}, extra...)...)
}

func (o *tuneOutputs) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.csv, "csv", "", "write the ranked results as CSV to `FILE`")
	f.StringVar(&o.json, "json", "", "write the ranked results as JSON to `FILE`")
	f.StringVar(&o.plot, "plot", "", "write SVG plots of Gflops against each swept key into `DIR`")
}

func newTuneCmd() *cobra.Command {
	var (
		sf        scenarioFlags
		outs      tuneOutputs
		sweeps    []string
		budget    int
		seed      uint64
		jobs      int
		dir       string
		slurm     bool
		partition string
		tasks     int
		timeLimit string
		search    searchFlags
		ef        ensembleFlags
	)
	cmd := &cobra.Command{
		Use:   "tune [FILE.toml] --sweep key=v1,v2 [--sweep ...]",
		Short: "Sweep scenario parameters in parallel (or on Slurm) and rank the results",
		Long: `Tune evaluates the cross product of the --sweep axes (or a seeded random subset of
--budget points) on the scenario of FILE.toml (the embedded default without a
file), on all local cores, and prints the points ranked best first (highest HPL
Gflops, and Time, of the point's best test where its HPL.dat or [hpl] lists
several; for other apps, shortest simulated time).

A sweep axis is key=value,value,... with a dotted scenario key (any key --set
takes) or a short name: n, nb, grid (PxQ, e.g. 8x8), depth, bcast, pfact, rfact,
swap, pmap, nbmin, ndiv, l1, u, latency (network.link_latency), bandwidth
(network.link_bandwidth), topology. "all" expands bcast, pfact, rfact, swap,
depth, pmap, l1 and u to every variant. A value start..stop..step is a range
(stop included where a step lands on it; step 1 if left out; a unit as in
1us..5us..2us), e.g. nb=64..256..64 or n=1000,2000..8000..2000.

Results are appended to DIR/results.jsonl as they finish; rerunning the same
sweep with the same --out skips the finished points, so an interrupted sweep
resumes where it stopped (a point whose swept file, a trace or a models file,
changed since runs again). A failed point is ranked last with its error; a sweep
of which no point ran exits 2, naming one, and writes no --csv, --json or --plot.

With --search (HPL) the points are not all run whole: successive halving costs
each from 8 emulated panels (hpl.max_iterations, its Time extrapolated), keeps
the best 1/--eta, doubles the panels, and so on until --finalists remain, which
run whole; --write-hpl-dat FILE writes the best as an HPL.dat. --memory-fraction
F[,F...] with --node-memory SIZE derives N from the grid's nodes' memory.

With --seeds K (a stochastic scenario) or --perturb K (a deterministic but
chaotic one; see emu run) each point runs K times, one after the other, and is
ranked on its mean; the table adds each point's 90% band (p05–p95 of its runs)
and marks with ≈ a point whose band overlaps the next one's: the runs do not
decide the order of those two.

With --slurm the points are submitted as a Slurm job array instead (one task per
chunk of points, each writing DIR/results-NNNN.jsonl); gather them with
'emu tune collect DIR'.`,
		Example: `  emu tune examples/dahu/dahu.toml --sweep nb=128,256 --sweep bcast=all --sweep depth=0,1
  emu tune --sweep grid=2x2,1x4,4x1 --sweep network.link_latency=1us,10us --budget 4 --csv ranked.csv
  emu tune --sweep nb=32..128..32 --sweep latency=1us..9us..4us
  emu tune hpl.toml --sweep nb=64,128,256 --slurm --partition debug --tasks 8 --out sweep1
  emu tune collect sweep1
  emu tune --search --sweep nb=64,128,256 --sweep bcast=all --sweep grid=2x8,4x4 --write-hpl-dat best.dat
  emu tune --search --sweep nb=64,128 --sweep grid=2x2,1x4 --memory-fraction 0.5,0.85 --node-memory 256MiB`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			if err := subcommandTypo(cmd, args); err != nil {
				return err
			}
			if len(sweeps) == 0 {
				return errors.New("tune: give at least one --sweep key=value,value")
			}
			if budget < 0 {
				return fmt.Errorf("--budget %d: want ≥ 0 (0: every point)", budget)
			}
			if jobs < 1 {
				return fmt.Errorf("--jobs %d: want ≥ 1", jobs)
			}
			if err := search.check(cmd); err != nil {
				return err
			}
			if err := ef.check(cmd); err != nil {
				return err
			}
			if slurm && ef.on() {
				return errors.New("--slurm: --seeds and --perturb run locally only")
			}
			var axes []tune.Axis
			swept := map[string]string{} // key → the --sweep that gave it
			for _, s := range sweeps {
				ax, err := tune.ParseSweep(s)
				if err != nil {
					return err
				}
				if first, ok := swept[ax.Key]; ok { // the later axis would silently win
					return fmt.Errorf("sweep %q: %s is already swept by %q", s, ax.Key, first)
				}
				swept[ax.Key] = s
				axes = append(axes, ax)
				if ax.Key == "app" || strings.HasPrefix(ax.Key, "jobs.") && strings.HasSuffix(ax.Key, ".app") {
					if sf.sweptApps == nil {
						sf.sweptApps = map[string][]string{}
					}
					for _, v := range ax.Values {
						if app, err := strconv.Unquote(v); err == nil {
							sf.sweptApps[ax.Key] = append(sf.sweptApps[ax.Key], app)
						}
					}
				}
			}
			if err := checkSetNotSwept(&sf, swept); err != nil {
				return err
			}
			memAxis, nodeMemory, err := search.memoryAxis(swept)
			if err != nil {
				return err
			}
			if memAxis != nil {
				axes = append(axes, *memAxis)
			}
			if slurm && (search.on || memAxis != nil) {
				return errors.New("--slurm: --search and --memory-fraction run locally only")
			}
			runner := &scenarioRunner{file: file, flags: sf, nodeMemory: nodeMemory, ensemble: ef.spec()}
			if file != "" {
				// The file as the user named it first (a missing one was
				// named by its absolute path, after "sweep point ...").
				if _, err := scenario.Load(file); err != nil {
					return withFlagHint(err, file, "")
				}
				abs, err := filepath.Abs(file)
				if err != nil {
					return err
				}
				runner.file = abs
			}
			// Slurm tasks may start elsewhere: keep every input path absolute.
			for _, path := range []*string{&runner.flags.platform, &runner.flags.hplDat, &runner.flags.replay} {
				if *path != "" {
					abs, err := filepath.Abs(*path)
					if err != nil {
						return err
					}
					*path = abs
				}
			}
			// A trace travels as the keys it sets, so that the plan of a Slurm
			// array carries it too.
			if f := runner.flags.replay; f != "" {
				if err := checkReplayFile(f); err != nil {
					return err
				}
				runner.flags.sets = append([]string{`app="replay"`, "replay.file=" + strconv.Quote(f)}, runner.flags.sets...)
				runner.flags.replay = ""
			}
			// One configuration named two ways (bcast=long,4) runs once.
			axes, notes := sameConfigs(runner, axes, swept)
			for _, n := range notes {
				fmt.Fprintln(cmd.ErrOrStderr(), "tune: "+n)
			}
			points := tune.Points(axes, budget, seed)
			// Fail on a bad key or value before any work is spent.
			for _, p := range points {
				if err := runner.Check(p); err != nil {
					return fmt.Errorf("sweep point %s: %w%s", p.Settings(), err, colonRangeHint(runner, p))
				}
			}
			s, err := runner.flags.scenario(runner.file)
			if err != nil {
				return err
			}
			if err := outs.check(s.ReadFiles(), outputPath{"--out", dir, true}, outputPath{"--write-hpl-dat", search.writeDat, false}); err != nil {
				return err
			}
			if err := checkSweepDir(dir, runner); err != nil {
				return err
			}
			if search.on {
				return searchHPL(cmd, dir, runner, points, jobs, &search, &outs)
			}
			if slurm {
				return submitSlurm(cmd, dir, runner, points, tasks, tune.SlurmOptions{Partition: partition, TimeLimit: timeLimit, CPUs: 1})
			}
			return localSweep(cmd, dir, runner, points, jobs, &outs)
		},
	}
	sf.add(cmd)
	outs.add(cmd)
	search.add(cmd)
	ef.add(cmd, false)
	f := cmd.Flags()
	f.StringArrayVar(&sweeps, "sweep", nil, "sweep `key=v1,v2,...` (repeatable; the cross product is taken; a value start..stop..step is a range)")
	f.IntVar(&budget, "budget", 0, "evaluate only `K` points drawn at random (seeded) from the cross product")
	f.Uint64Var(&seed, "seed", 1, "seed of the --budget draw")
	f.IntVar(&jobs, "jobs", runtime.NumCPU(), "points evaluated at once (local cores)")
	f.StringVar(&dir, "out", "emu-tune", "`DIR` holding the results journal (rerun with the same DIR to resume)")
	f.BoolVar(&slurm, "slurm", false, "submit the sweep as a Slurm job array (sbatch) instead of running it here")
	f.StringVar(&partition, "partition", "", "Slurm partition (with --slurm)")
	f.IntVar(&tasks, "tasks", 0, "Slurm array tasks (with --slurm; default: one per 4 points, at most 1000)")
	f.StringVar(&timeLimit, "time", "", "Slurm time limit per task, e.g. 1:00:00 (with --slurm)")
	cmd.AddCommand(newTuneCollectCmd(), newTuneTaskCmd())
	return cmd
}

// scenarioRunner evaluates sweep points by loading the scenario afresh for each point
// and applying the base flags, then the point's overrides, as --set would.
type scenarioRunner struct {
	file       string // absolute path, or "" for the embedded default
	flags      scenarioFlags
	nodeMemory float64 // bytes of one node, for points with a tune.memory_fraction (--node-memory)
	// ensemble, if set, runs each point that many times (--seeds, --perturb;
	// one after the other: the sweep runs points at once) and ranks on the
	// mean (tune_ensemble.go).
	ensemble *ensembleSpec
	// baseInputs are the files the sweep's scenario names (fingerprint
	// sets them), which pointInputs leaves to the fingerprint.
	baseInputs map[string]bool
}

func (r *scenarioRunner) plan(p tune.Point) (*scenario.Plan, error) {
	f := r.flags
	f.sets = append([]string(nil), r.flags.sets...)
	fraction := ""
	for _, o := range p.Overrides {
		if o.Key == memFractionKey {
			fraction = o.Value
			continue
		}
		f.sets = append(f.sets, o.Key+"="+o.Value)
	}
	plan, err := f.plan(r.file)
	if err != nil || fraction == "" {
		return plan, err
	}
	return r.memoryPlan(f, plan, fraction)
}

func (r *scenarioRunner) Check(p tune.Point) error {
	_, err := r.plan(p)
	return err
}

func (r *scenarioRunner) Run(ctx context.Context, p tune.Point) (tune.Result, error) {
	inputs := r.pointInputs(p) // before the run: a file edited during it is another input
	res, err := r.run(ctx, p)
	res.Inputs = inputs
	return res, err
}

func (r *scenarioRunner) run(_ context.Context, p tune.Point) (tune.Result, error) {
	plan, err := r.plan(p)
	if err != nil {
		return tune.Result{}, err
	}
	if r.ensemble != nil {
		return r.runEnsemble(p, plan)
	}
	res, err := runner.Run(plan, runner.Options{})
	if err != nil {
		return tune.Result{}, err
	}
	out := tune.Result{SimulatedS: res.SimulatedTime}
	for _, h := range res.HPL {
		out.Panels += h.Panels
		out.Extrapolated = out.Extrapolated || h.Extrapolated
		if h.Gflops > out.Gflops {
			out.Gflops, out.TimeS = h.Gflops, h.Time
		}
	}
	if len(res.HPL) == 0 {
		out.TimeS = res.SimulatedTime
	}
	return out, nil
}

// fingerprint identifies the sweep's fixed inputs, so results from another scenario are
// never mixed into a resumed sweep.
func (r *scenarioRunner) fingerprint() (string, error) {
	h := sha256.New()
	for _, path := range []string{r.file, r.flags.platform, r.flags.hplDat} {
		if path == "" {
			fmt.Fprintf(h, "-\n")
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		h.Write(data)
	}
	fmt.Fprintf(h, "%q", r.flags.sets)
	if r.nodeMemory > 0 { // only then, so that older sweeps' folders stay valid
		fmt.Fprintf(h, " node memory %g", r.nodeMemory)
	}
	if e := r.ensemble; e != nil { // the same: a single run's results are not an ensemble's
		fmt.Fprintf(h, " ensemble %d seeds %d copies", e.seeds, e.copies)
	}
	// The bytes of the files the scenario names (only when it names some, as
	// above): models rescaled or refitted under the same name, a hostfile or a
	// trace edited in place, are other inputs, whose points were otherwise
	// skipped as done with the old files' results. A file that cannot be read
	// is left for the run to name.
	s, err := r.flags.scenario(r.file)
	if err != nil {
		return "", err
	}
	inputs := inputFiles(s)
	r.baseInputs = map[string]bool{}
	for _, path := range inputs {
		r.baseInputs[path] = true
		if data, err := os.ReadFile(path); err == nil {
			fmt.Fprintf(h, " file %x", sha256.Sum256(data))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// inputFiles are the files a scenario names: platform, hostfile, traces (and
// a TI index's per-rank files), models, pivots.
func inputFiles(s *scenario.Scenario) []string {
	inputs := s.InputFiles()
	for _, trace := range s.TraceFiles() {
		listed, _ := traceformat.IndexedFiles(trace) // a TI index's per-rank files
		inputs = append(inputs, listed...)
	}
	return inputs
}

// pointInputs is a digest of the bytes of the files point p names that the
// sweep's scenario does not (a --sweep replay.file=a.txt,b.txt, a swept
// models file or platform), "" when it names none: the fingerprint covers
// the sweep's own files, and a resumed sweep skipped a point whose swept
// trace had been edited, keeping its old result. A file that cannot be read
// is left for the run to name.
func (r *scenarioRunner) pointInputs(p tune.Point) string {
	f := r.flags
	f.sets = append([]string(nil), r.flags.sets...)
	for _, o := range p.Overrides {
		if o.Key != memFractionKey {
			f.sets = append(f.sets, o.Key+"="+o.Value)
		}
	}
	s, err := f.scenario(r.file)
	if err != nil {
		return ""
	}
	h := sha256.New()
	n := 0
	for _, path := range inputFiles(s) {
		if r.baseInputs[path] {
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			fmt.Fprintf(h, "%s %x\n", path, sha256.Sum256(data))
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// done says whether point p has a result in j that still holds: one run
// with the same files as p names now.
func (r *scenarioRunner) done(j *tune.Journal, p tune.Point) bool {
	res, ok := j.Result(p.ID())
	return ok && res.Inputs == r.pointInputs(p)
}

// checkSweepDir creates dir and refuses to reuse it for a sweep of other fixed inputs.
func checkSweepDir(dir string, r *scenarioRunner) error {
	fp, err := r.fingerprint()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return asFailure(err)
	}
	path := filepath.Join(dir, "inputs")
	old, err := os.ReadFile(path)
	if err == nil && strings.TrimSpace(string(old)) != fp {
		return fmt.Errorf("%s holds results of a sweep over other inputs (the scenario, a file it names, --set, --platform, --hostfile, --replay, --hpl-dat, --seeds, --perturb or --node-memory changed); use another --out", dir)
	}
	return os.WriteFile(path, []byte(fp+"\n"), 0o644)
}

func localSweep(cmd *cobra.Command, dir string, r *scenarioRunner, points []tune.Point, jobs int, outs *tuneOutputs) error {
	j, err := tune.OpenJournal(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return err
	}
	defer j.Close()
	todo, stale := 0, 0
	done := map[string]bool{} // decided once: a file edited during the sweep is the next run's
	for _, p := range points {
		if done[p.ID()] = r.done(j, p); !done[p.ID()] {
			todo++
			if j.Done(p.ID()) {
				stale++
			}
		}
	}
	if skipped := len(points) - todo; skipped > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "tune: %d of %d points already done in %s, skipping them\n", skipped, len(points), dir)
	}
	if stale > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "tune: %d point(s) done in %s run again: a file they name changed since\n", stale, dir)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(cmd.ErrOrStderr(), todo, isQuiet(cmd))
	opt := tune.Options{
		Jobs:   jobs,
		Record: j.Append,
		Skip:   func(p tune.Point) bool { return done[p.ID()] },
	}
	if bar != nil {
		opt.Progress = func(done, total int) { bar.Set(done) }
	}
	_, err = tune.Sweep(ctx, r, points, opt)
	if bar != nil {
		bar.Finish()
	}
	if errors.Is(err, context.Canceled) {
		return asFailure(fmt.Errorf("tune: interrupted; rerun the same command to resume from %s", dir)) // not the input's fault
	}
	if err != nil {
		return asFailure(err)
	}
	// Rank what this sweep asked for, including points finished by earlier runs.
	want := map[string]bool{}
	for _, p := range points {
		want[p.ID()] = true
	}
	var mine []tune.Result
	for _, res := range j.Results() {
		if want[res.ID] {
			mine = append(mine, res)
		}
	}
	return report(cmd, tune.Rank(mine), outs)
}

func report(cmd *cobra.Command, ranked []tune.Result, outs *tuneOutputs) error {
	if err := tune.WriteTable(cmd.OutOrStdout(), ranked); err != nil {
		return asFailure(err)
	}
	// Failed points rank last: a first that failed is a sweep of which no
	// point ran (a trace that deadlocks, a model no point can run), which
	// exited 0 with a CSV of errors. It fails as emu run of one of them does,
	// its result files unwritten; the journal stays.
	if len(ranked) > 0 && ranked[0].Error != "" {
		return fmt.Errorf("no point of the sweep ran (%d failed); point %s: %s", len(ranked), tune.Point{Overrides: ranked[0].Overrides}.Settings(), ranked[0].Error)
	}
	// The files go together, the plots' folder too, whole or none.
	var st staging
	defer st.discard()
	if outs.csv != "" {
		if err := st.write(outs.csv, func(w io.Writer) error { return tune.WriteCSV(w, ranked) }); err != nil {
			return asFailure(err)
		}
	}
	if outs.json != "" {
		if err := st.write(outs.json, func(w io.Writer) error { return tune.WriteJSON(w, ranked) }); err != nil {
			return asFailure(err)
		}
	}
	if outs.plot != "" {
		if err := st.plots(outs.plot, func(dir string) error { return plots.Tune(dir, tune.Envelopes(ranked)) }); err != nil {
			return err
		}
	}
	return st.commit()
}

// colonRangeHint is "; a range is written ..." when one of the refused point's
// values is start:stop[:step], its key refuses that string alone and takes
// its start (a key that takes a number: a SimGrid table key takes the
// string, hpl.bcast no number), else "".
func colonRangeHint(r *scenarioRunner, p tune.Point) string {
	one := func(o tune.Override) error { return r.Check(tune.Point{Overrides: []tune.Override{o}}) }
	for _, o := range p.Overrides {
		rng, ok := tune.ColonRange(o.Value)
		if !ok || one(o) == nil {
			continue
		}
		start, _, _ := strings.Cut(rng, "..")
		ax, err := tune.ParseSweep(o.Key + "=" + start)
		if err != nil || one(tune.Override{Key: o.Key, Value: ax.Values[0]}) != nil {
			continue
		}
		return fmt.Sprintf("; a range is written start..stop..step: --sweep %s=%s", o.Key, rng)
	}
	return ""
}

func submitSlurm(cmd *cobra.Command, dir string, r *scenarioRunner, points []tune.Point, tasks int, o tune.SlurmOptions) error {
	if tasks <= 0 {
		tasks = (len(points) + 3) / 4
		if tasks > 1000 {
			tasks = 1000
		}
	}
	if tasks > len(points) {
		tasks = len(points)
	}
	plan := tune.Plan{Scenario: r.file, Points: points, Tasks: tasks,
		Platform: r.flags.platform, HPLDat: r.flags.hplDat}
	for _, s := range r.flags.sets {
		k, v, _ := strings.Cut(s, "=")
		plan.Sets = append(plan.Sets, tune.Override{Key: k, Value: v})
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return asFailure(err)
	}
	if err := tune.WritePlan(absDir, plan); err != nil {
		return asFailure(err)
	}
	if o.Exe, err = tune.CopyExecutable(absDir); err != nil {
		return asFailure(err)
	}
	id, err := tune.Submit(cmd.Context(), absDir, plan, o)
	if err != nil {
		return asFailure(err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "submitted Slurm job array %s: %d points in %d tasks; when it is done: emu tune collect %s\n",
		id, len(points), tasks, dir)
	return nil
}

func newTuneTaskCmd() *cobra.Command {
	var task, jobs int
	cmd := &cobra.Command{
		Use:    "task DIR --task I",
		Short:  "Evaluate one Slurm array task's share of a submitted sweep (run by the job script)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			plan, err := readSlurmPlan("tune task", dir)
			if err != nil {
				return err
			}
			if task < 0 || task >= plan.Tasks {
				return fmt.Errorf("--task %d: the plan has tasks 0..%d", task, plan.Tasks-1)
			}
			r := &scenarioRunner{file: plan.Scenario, flags: scenarioFlags{platform: plan.Platform, hplDat: plan.HPLDat}}
			for _, s := range plan.Sets {
				r.flags.sets = append(r.flags.sets, s.Key+"="+s.Value)
			}
			j, err := tune.OpenJournal(tune.TaskJournal(dir, task))
			if err != nil {
				return asFailure(err)
			}
			defer j.Close()
			_, err = tune.Sweep(cmd.Context(), r, plan.TaskPoints(task), tune.Options{
				Jobs: jobs, Record: j.Append, Skip: func(p tune.Point) bool { return r.done(j, p) },
			})
			return asFailure(err)
		},
	}
	cmd.Flags().IntVar(&task, "task", -1, "array task index (SLURM_ARRAY_TASK_ID)")
	cmd.Flags().IntVar(&jobs, "jobs", 1, "points evaluated at once")
	return cmd
}

// checkSetNotSwept refuses a --set (or a flag standing for one) of a key a
// --sweep also gives: every point's value replaces it, so the --set was
// dropped without a word.
func checkSetNotSwept(sf *scenarioFlags, swept map[string]string) error {
	for _, kv := range sf.sets {
		key, _, _ := strings.Cut(kv, "=")
		if sweep, ok := swept[strings.TrimSpace(key)]; ok {
			label := "--set " + kv
			if l, ok := sf.labels[kv]; ok {
				label = l
			}
			return fmt.Errorf("%s: %s is also swept by %q, whose values replace it: give one of them", label, strings.TrimSpace(key), sweep)
		}
	}
	return nil
}

// readSlurmPlan reads the plan.json that --slurm wrote in dir for the
// command name (tune collect, tune task: the one the user ran, which the
// error names); without one the error says why (notSlurmSweep).
func readSlurmPlan(name, dir string) (tune.Plan, error) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		// said "base.toml/plan.json: not a directory"
		return tune.Plan{}, fmt.Errorf("%s %s: is a file, want the --out folder of an emu tune --slurm", name, dir)
	}
	plan, err := tune.ReadPlan(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return plan, notSlurmSweep(name, dir)
	}
	return plan, err
}

// notSlurmSweep says why DIR, without the plan.json --slurm writes, has
// nothing to collect: it does not exist, it holds a sweep run here (ranked by
// rerunning it: the rerun resumes and prints the table), or neither.
func notSlurmSweep(name, dir string) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("%s %s: no such folder", name, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.jsonl")); err == nil {
		return fmt.Errorf("%s %s: a sweep run here, not submitted with --slurm (no plan.json); rank it by running the same emu tune command again with --out %s: it skips the points done and prints the table", name, dir, shellQuote(dir))
	}
	return fmt.Errorf("%s %s: no plan.json: not the --out of an emu tune --slurm", name, dir)
}

func newTuneCollectCmd() *cobra.Command {
	var outs tuneOutputs
	cmd := &cobra.Command{
		Use:   "collect DIR",
		Short: "Gather the results of a sweep submitted with --slurm and rank them",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			plan, err := readSlurmPlan("tune collect", dir)
			if err != nil {
				return err
			}
			files, err := tune.TaskJournals(dir)
			if err != nil {
				return asFailure(err)
			}
			results, err := tune.ReadResults(files...)
			if err != nil {
				return err
			}
			done := map[string]bool{}
			for _, r := range results {
				done[r.ID] = true
			}
			missing := 0
			for _, p := range plan.Points {
				if !done[p.ID()] {
					missing++
				}
			}
			if missing > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "tune collect: %d of %d points have no result yet (tasks still running or failed; see %s/slurm-*.out)\n",
					missing, len(plan.Points), dir)
			}
			if err := outs.check(nil); err != nil {
				return err
			}
			return report(cmd, tune.Rank(results), &outs)
		},
	}
	outs.add(cmd)
	return cmd
}
