package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/emu-hpc/emu/apps/hpl"
)

// options are the command's flags.
type options struct {
	HPL          string // an xhpl, or "hpcc"
	MPIRun       string
	MPIArgs      []string
	Emu          string
	Node         string
	Configs      []config
	Loops        int
	Repeats      int
	Samples      int
	Out          string
	RunTimeout   time.Duration
	QuietBusy    float64       // wait before each run until others keep at most this share of the CPUs busy (0: never wait)
	QuietWait    time.Duration // the longest wait for quiet; past it the run is made and marked
	IgnoreNice   bool          // niced processes do not count as busy
	EmuTimeout   time.Duration
	Sets         []string // --set of emu calibrate and emu run
	Apart        bool     // also calibrate the one-rank tests apart, with one worker
	VerdictApart bool     // the exit status follows the predictions with the one-rank tests calibrated apart
	Alts         []string // KEY=VALUE settings each test is also predicted with (same models)
	Beside       string   // also calibrate with emu calibrate --beside this kernel and predict with those models
	Log          io.Writer
}

// runError is a real or emu run that failed: exit status 3.
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

func main() {
	opt, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "nodeloop:", err)
		os.Exit(2)
	}
	// Ctrl-C stops the run in flight (its mpirun is killed) and the loop.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	met, err := run(ctx, opt)
	var re runError
	switch {
	case errors.As(err, &re):
		fmt.Fprintln(os.Stderr, "nodeloop:", err)
		os.Exit(3)
	case err != nil:
		fmt.Fprintln(os.Stderr, "nodeloop:", err)
		os.Exit(2)
	case !met:
		os.Exit(1)
	}
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("nodeloop", flag.ContinueOnError)
	opt := options{Log: os.Stdout}
	var sets, alts listFlag
	configs := fs.String("configs", "", "file of tests, one a line: ID N NB P Q BCAST DEPTH (default: the 16 of docs/node.md)")
	mpiArgs := fs.String("mpirun-args", "--bind-to core", "mpirun's options before -np (space-separated)")
	fs.StringVar(&opt.HPL, "hpl", "", "the real HPL: an xhpl binary (HPL 2.3, what emu ports), or \"hpcc\" (runs its other benchmarks too: ~30 s a run)")
	fs.StringVar(&opt.MPIRun, "mpirun", "mpirun", "MPI launcher")
	fs.StringVar(&opt.Emu, "emu", "", "emu binary (default: build ./cmd/emu with -tags cblas into -out)")
	fs.StringVar(&opt.Node, "node", "validation/testdata/realhpl/node.toml", "the node's scenario (docs/node.md, step 1)")
	fs.IntVar(&opt.Loops, "loops", 3, "loops to make")
	fs.IntVar(&opt.Repeats, "repeats", 3, "real runs of each test before and after each calibration (round robin)")
	fs.IntVar(&opt.Samples, "samples", 0, "emu calibrate --samples (0: calibrate's default)")
	fs.StringVar(&opt.Out, "out", "nodeloop-out", "folder for the results (created; must not hold a previous real_runs.csv)")
	fs.DurationVar(&opt.RunTimeout, "run-timeout", 5*time.Minute, "limit of one real run")
	fs.Float64Var(&opt.QuietBusy, "quiet", 0.05, "before each real run and calibration, wait until the CPUs are at most this busy (share of all CPUs over half a second; 0: never wait)")
	fs.BoolVar(&opt.IgnoreNice, "ignore-nice", false, "niced processes do not count as busy for -quiet: right only where nice yields, which it does not across sessions under the kernel's autogroups (/proc/sys/kernel/sched_autogroup_enabled; sched(7))")
	fs.DurationVar(&opt.QuietWait, "quiet-wait", 10*time.Minute, "the longest such wait; past it the run is made and counted as noisy")
	fs.DurationVar(&opt.EmuTimeout, "emu-timeout", 20*time.Minute, "limit of one emu command")
	fs.BoolVar(&opt.Apart, "apart", true, "also calibrate the one-rank tests apart with one worker and predict them with both (predicted.csv's *_apart columns)")
	verdict := fs.String("verdict", "one", "which predictions the exit status follows: one (one calibration of all the tests) or apart (the one-rank tests calibrated apart, -apart)")
	fs.Var(&alts, "alt", "KEY=VALUE: also predict every test with this --set, the same models (repeatable; one variant each; summary.txt and predicted_alt.csv)")
	fs.StringVar(&opt.Beside, "beside", "", "KERNEL: also calibrate with emu calibrate --beside KERNEL (the other kernels timed while the other cores run it) and predict every test with those models (summary.txt and predicted_alt.csv)")
	fs.Var(&sets, "set", "KEY=VALUE given to emu calibrate and emu run as --set (repeatable)")
	if err := fs.Parse(args); err != nil {
		return opt, err
	}
	if fs.NArg() > 0 {
		return opt, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}
	if opt.HPL == "" {
		return opt, errors.New("-hpl: give the real HPL to run (an xhpl binary, or hpcc)")
	}
	if opt.Loops < 1 || opt.Repeats < 1 {
		return opt, fmt.Errorf("-loops %d, -repeats %d: want at least 1", opt.Loops, opt.Repeats)
	}
	if opt.Samples < 0 {
		return opt, fmt.Errorf("-samples %d: want ≥ 0", opt.Samples)
	}
	switch *verdict {
	case "one":
	case "apart":
		if !opt.Apart {
			return opt, errors.New("-verdict apart needs -apart")
		}
		opt.VerdictApart = true
	default:
		return opt, fmt.Errorf("-verdict %q: want one or apart", *verdict)
	}
	opt.MPIArgs = strings.Fields(*mpiArgs)
	opt.Sets = sets
	opt.Alts = alts
	for _, a := range alts {
		if k, _, ok := strings.Cut(a, "="); !ok || k == "" {
			return opt, fmt.Errorf("-alt %q: want KEY=VALUE", a)
		}
	}
	opt.Configs = defaultConfigs
	if *configs != "" {
		cs, err := readConfigs(*configs)
		if err != nil {
			return opt, err
		}
		opt.Configs = cs
	}
	if _, err := os.Stat(opt.Node); err != nil {
		return opt, fmt.Errorf("-node: %v", err)
	}
	return opt, nil
}

// run makes the loops and reports whether each met the bar.
func run(ctx context.Context, opt options) (bool, error) {
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return false, err
	}
	if _, err := os.Stat(filepath.Join(opt.Out, "real_runs.csv")); err == nil {
		return false, fmt.Errorf("%s already holds a loop's results: give another -out", opt.Out)
	}
	node, err := filepath.Abs(opt.Node)
	if err != nil {
		return false, err
	}
	if opt.HPL != "hpcc" {
		if opt.HPL, err = filepath.Abs(opt.HPL); err != nil {
			return false, err
		}
	}
	if _, err := exec.LookPath(opt.HPL); err != nil {
		return false, fmt.Errorf("-hpl: %v", err)
	}
	if _, err := exec.LookPath(opt.MPIRun); err != nil {
		return false, fmt.Errorf("-mpirun: %v", err)
	}
	for _, c := range opt.Configs {
		if c.P*c.Q > runtime.NumCPU() {
			return false, fmt.Errorf("%v: %d ranks on %d CPUs (one rank a core)", c, c.P*c.Q, runtime.NumCPU())
		}
	}
	emu := opt.Emu
	if emu == "" {
		emu = filepath.Join(opt.Out, "emu")
		logf(opt, "building emu (-tags cblas) into %s", emu)
		build := exec.CommandContext(ctx, "go", "build", "-tags", "cblas", "-o", emu, "github.com/emu-hpc/emu/cmd/emu")
		if out, err := build.CombinedOutput(); err != nil {
			return false, runError{fmt.Errorf("building emu: %v\n%s", err, out)}
		}
	}
	if emu, err = filepath.Abs(emu); err != nil {
		return false, err
	}

	dats := filepath.Join(opt.Out, "hpl-dat")
	if err := os.MkdirAll(dats, 0o755); err != nil {
		return false, err
	}
	var list strings.Builder
	fmt.Fprintln(&list, "# ID N NB P Q BCAST DEPTH")
	var datFiles []string
	for _, c := range opt.Configs {
		f, _ := filepath.Abs(filepath.Join(dats, c.ID+".dat"))
		if err := os.WriteFile(f, c.hplDat(), 0o644); err != nil {
			return false, err
		}
		datFiles = append(datFiles, f)
		fmt.Fprintf(&list, "%s %d %d %d %d %s %d\n", c.ID, c.N, c.NB, c.P, c.Q, c.BCast, c.Depth)
	}
	if err := os.WriteFile(filepath.Join(opt.Out, "configs.txt"), []byte(list.String()), 0o644); err != nil {
		return false, err
	}

	realCSV, err := newCSV(filepath.Join(opt.Out, "real_runs.csv"),
		"loop", "round", "repeat", "id", "n", "nb", "p", "q", "bcast", "depth", "time_s", "gflops", "start_utc", "load1", "busy_before", "nice_before")
	if err != nil {
		return false, err
	}
	defer realCSV.close()
	predCSV, err := newCSV(filepath.Join(opt.Out, "predicted.csv"),
		"loop", "id", "n", "nb", "p", "q", "bcast", "depth", "predicted_s", "real_median_s", "real_min_s", "real_max_s",
		"before_median_s", "after_median_s", "error_pct", "predicted_apart_s", "error_apart_pct")
	if err != nil {
		return false, err
	}
	defer predCSV.close()
	altCSV, err := newCSV(filepath.Join(opt.Out, "predicted_alt.csv"), "loop", "id", "set", "predicted_s", "real_median_s", "error_pct")
	if err != nil {
		return false, err
	}
	defer altCSV.close()

	logf(opt, "%d tests, %d loops, %d real runs of each before and after each calibration; load %s", len(opt.Configs), opt.Loops, opt.Repeats, loadAvg())
	if l, err := strconv.ParseFloat(loadAvg(), 64); err == nil && l > 1.5 {
		logf(opt, "warning: load %.2f on %d CPUs: wall-clock runs on a busy machine do not predict a quiet one", l, runtime.NumCPU())
	}
	quiet := &quietGate{opt: opt}
	real := realRunner{hpl: opt.HPL, mpirun: opt.MPIRun, args: opt.MPIArgs, timeout: opt.RunTimeout}
	var summaries []string
	allMet := true
	for loop := 1; loop <= opt.Loops; loop++ {
		dir, _ := filepath.Abs(filepath.Join(opt.Out, fmt.Sprintf("loop%d", loop)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return false, err
		}
		start := time.Now()
		noisy, runs := 0, 0
		round := func(name string) (map[string][]float64, error) {
			times := map[string][]float64{}
			for rep := 1; rep <= opt.Repeats; rep++ {
				for _, c := range opt.Configs {
					runDir := filepath.Join(dir, "real", fmt.Sprintf("%s-%d-%s", name, rep, c.ID))
					busy := quiet.wait(ctx)
					runs++
					if busy > opt.QuietBusy && opt.QuietBusy > 0 {
						noisy++
					}
					load, at := loadAvg(), time.Now().UTC()
					sec, gf, err := real.run(ctx, runDir, c)
					if err != nil {
						return nil, runError{fmt.Errorf("loop %d, %s round, repeat %d: %v", loop, name, rep, err)}
					}
					times[c.ID] = append(times[c.ID], sec)
					realCSV.write(loop, name, rep, c.ID, c.N, c.NB, c.P, c.Q, c.BCast, c.Depth,
						fmt.Sprintf("%.6f", sec), fmt.Sprintf("%.5g", gf), at.Format("15:04:05"), load, busyCell(busy), busyCell(quiet.nice))
					logf(opt, "loop %d %s %d/%d %-60v %8.3f s (load %s)", loop, name, rep, opt.Repeats, c, sec, load)
				}
			}
			return times, realCSV.flush()
		}
		before, err := round("before")
		if err != nil {
			return false, err
		}
		if loop == 1 {
			r := time.Since(start)
			loopMin := (2*r.Seconds() + 90) / 60 // two rounds and the calibrations
			logf(opt, "the real runs of one round took %.0f s: about %.0f minutes a loop, %.0f for the %d", r.Seconds(), loopMin, float64(opt.Loops)*loopMin, opt.Loops)
		}
		calibrate := func(name string, dats []string, extra ...string) (string, error) {
			samples, models := filepath.Join(dir, "samples"+name+".csv"), filepath.Join(dir, "models"+name+".toml")
			args := []string{"calibrate", node, "--hpl-dat", strings.Join(dats, ","), "--seed", strconv.Itoa(loop), "-o", samples}
			if opt.Samples > 0 {
				args = append(args, "--samples", strconv.Itoa(opt.Samples))
			}
			busy := quiet.wait(ctx)
			logf(opt, "loop %d: emu calibrate%s (load %s, CPUs %s busy before)", loop, strings.Join(append([]string{""}, extra...), " "), loadAvg(), busyCell(busy))
			if err := runEmu(ctx, opt, emu, filepath.Join(dir, "calibrate"+name+".log"), append(args, extra...)...); err != nil {
				return "", err
			}
			return models, runEmu(ctx, opt, emu, filepath.Join(dir, "fit"+name+".log"), "fit", samples, "-o", models)
		}
		models, err := calibrate("", datFiles)
		if err != nil {
			return false, err
		}
		// The one-rank tests calibrated apart, with one worker: their real
		// runs have a core to themselves, the calibration of all the tests
		// runs a worker on each core.
		var alone []string
		for i, c := range opt.Configs {
			if c.P*c.Q == 1 {
				alone = append(alone, datFiles[i])
			}
		}
		modelsBeside := ""
		if opt.Beside != "" {
			if modelsBeside, err = calibrate("-beside", datFiles, "--beside", opt.Beside); err != nil {
				return false, err
			}
		}
		modelsAlone := ""
		if opt.Apart && len(alone) > 0 && len(alone) < len(opt.Configs) {
			if modelsAlone, err = calibrate("-1rank", alone, "--parallel", "1"); err != nil {
				return false, err
			}
		}
		after, err := round("after")
		if err != nil {
			return false, err
		}
		predict := func(i int, models, suffix string, sets ...string) (float64, error) {
			c := opt.Configs[i]
			out := filepath.Join(dir, "predicted-"+c.ID+suffix+".json")
			args := []string{"run", node, "--hpl-dat", datFiles[i], "--set", "kernels.models=" + models, "--json", out}
			for _, kv := range sets {
				args = append(args, "--set", kv)
			}
			if err := runEmu(ctx, opt, emu, filepath.Join(dir, "run-"+c.ID+suffix+".log"), args...); err != nil {
				return 0, err
			}
			t, err := predictedTime(out, c)
			if err != nil {
				return 0, runError{err}
			}
			return t, nil
		}
		var preds, apart []prediction
		for i, c := range opt.Configs {
			t, err := predict(i, models, "")
			if err != nil {
				return false, err
			}
			p := newPrediction(c, t, before[c.ID], after[c.ID])
			preds = append(preds, p)
			a, aCell, aErr := p, "", ""
			if modelsAlone != "" && c.P*c.Q == 1 {
				t, err := predict(i, modelsAlone, "-1rank")
				if err != nil {
					return false, err
				}
				a = newPrediction(c, t, before[c.ID], after[c.ID])
				aCell, aErr = fmt.Sprintf("%.6f", a.Predicted), fmt.Sprintf("%+.2f", 100*a.Err)
			}
			apart = append(apart, a)
			predCSV.write(loop, c.ID, c.N, c.NB, c.P, c.Q, c.BCast, c.Depth, fmt.Sprintf("%.6f", p.Predicted),
				fmt.Sprintf("%.6f", p.Median), fmt.Sprintf("%.6f", p.Min), fmt.Sprintf("%.6f", p.Max),
				fmt.Sprintf("%.6f", p.BeforeMed), fmt.Sprintf("%.6f", p.AfterMed), fmt.Sprintf("%+.2f", 100*p.Err), aCell, aErr)
			logf(opt, "loop %d %-60v real %8.3f s [%.3f … %.3f] (before %.3f, after %.3f), emu %8.3f s: %+6.1f%%",
				loop, c, p.Median, p.Min, p.Max, p.BeforeMed, p.AfterMed, p.Predicted, 100*p.Err)
			if aCell != "" {
				logf(opt, "loop %d %-60v calibrated apart, one worker: emu %8.3f s: %+6.1f%%", loop, c, a.Predicted, 100*a.Err)
			}
		}
		if err := predCSV.flush(); err != nil {
			return false, err
		}
		s := summarize(preds)
		if modelsAlone != "" && opt.VerdictApart {
			allMet = allMet && summarize(apart).Met
		} else {
			allMet = allMet && s.Met
		}
		line := fmt.Sprintf("loop %d (%s, %.0f s, load at the end %s, %d of %d real runs started on busy CPUs): %v",
			loop, start.UTC().Format("2006-01-02 15:04"), time.Since(start).Seconds(), loadAvg(), noisy, runs, s)
		logf(opt, "%s", line)
		summaries = append(summaries, line)
		if modelsAlone != "" {
			line := fmt.Sprintf("loop %d, one-rank tests calibrated apart: %v", loop, summarize(apart))
			logf(opt, "%s", line)
			summaries = append(summaries, line)
		}
		// Every test again under a variant: predicted_alt.csv's set column
		// says which, the summary line's label too; each test is logged
		// when perTest.
		variant := func(models, suffix, set, label string, perTest bool, sets ...string) error {
			var ps []prediction
			for i, c := range opt.Configs {
				t, err := predict(i, models, suffix, sets...)
				if err != nil {
					return err
				}
				p := newPrediction(c, t, before[c.ID], after[c.ID])
				ps = append(ps, p)
				altCSV.write(loop, c.ID, set, fmt.Sprintf("%.6f", p.Predicted), fmt.Sprintf("%.6f", p.Median), fmt.Sprintf("%+.2f", 100*p.Err))
				if perTest {
					logf(opt, "loop %d %-60v %s: emu %8.3f s: %+6.1f%%", loop, c, label, p.Predicted, 100*p.Err)
				}
			}
			line := fmt.Sprintf("loop %d, %s: %v", loop, label, summarize(ps))
			logf(opt, "%s", line)
			summaries = append(summaries, line)
			return nil
		}
		// The same models with each -alt setting.
		for k, alt := range opt.Alts {
			if err := variant(models, fmt.Sprintf("-alt%d", k+1), alt, "with "+alt, false, alt); err != nil {
				return false, err
			}
		}
		// The models timed beside the load kernel.
		if modelsBeside != "" {
			if err := variant(modelsBeside, "-beside", "calibrate --beside "+opt.Beside, "calibrated beside "+opt.Beside, true); err != nil {
				return false, err
			}
		}
		if err := altCSV.flush(); err != nil {
			return false, err
		}
		if err := os.WriteFile(filepath.Join(opt.Out, "summary.txt"), []byte(strings.Join(summaries, "\n")+"\n"), 0o644); err != nil {
			return false, err
		}
	}
	return allMet, nil
}

// realRunner runs a real HPL: an xhpl (HPL.dat in, results on stdout) or
// hpcc (hpccinf.txt in, hpccoutf.txt out), under mpirun with one
// single-threaded rank a core.
type realRunner struct {
	hpl, mpirun string
	args        []string
	timeout     time.Duration
}

// run runs c once in dir and returns HPL's Time (recovered from its Gflops)
// and Gflops.
func (r realRunner) run(ctx context.Context, dir string, c config) (float64, float64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	input, output := "HPL.dat", ""
	if r.hpl == "hpcc" {
		input, output = "hpccinf.txt", "hpccoutf.txt"
	}
	if err := os.WriteFile(filepath.Join(dir, input), c.hplDat(), 0o644); err != nil {
		return 0, 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	args := append(append([]string{}, r.args...), "-np", strconv.Itoa(c.P*c.Q), r.hpl)
	cmd := exec.CommandContext(ctx, r.mpirun, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
		"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1")
	out, err := cmd.CombinedOutput()
	_ = os.WriteFile(filepath.Join(dir, "stdout.txt"), out, 0o644)
	if ctx.Err() == context.DeadlineExceeded {
		return 0, 0, fmt.Errorf("%v: %s %s ran past -run-timeout %v (output in %s)", c, r.mpirun, strings.Join(args, " "), r.timeout, dir)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%v: %s %s: %v\n%s", c, r.mpirun, strings.Join(args, " "), err, tail(out, 8))
	}
	name := filepath.Join(dir, "stdout.txt")
	if output != "" {
		name = filepath.Join(dir, output)
		if out, err = os.ReadFile(name); err != nil {
			return 0, 0, fmt.Errorf("%v: %v", c, err)
		}
	}
	rows, err := hpl.ParseOutput(out, name)
	if err != nil {
		return 0, 0, err
	}
	for _, row := range rows {
		if row.N == c.N && row.NB == c.NB && row.P == c.P && row.Q == c.Q {
			return row.Time, row.Gflops, nil
		}
	}
	return 0, 0, fmt.Errorf("%v: %s has no result of this test (HPL skipped it?)\n%s", c, name, tail(out, 8))
}

// runEmu runs one emu command (with the loop's --set keys but for fit), its output into
// logFile.
func runEmu(ctx context.Context, opt options, emu, logFile string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, opt.EmuTimeout)
	defer cancel()
	if args[0] != "fit" { // fit reads samples, not a scenario
		for _, s := range opt.Sets {
			args = append(args, "--set", s)
		}
	}
	cmd := exec.CommandContext(ctx, emu, args...)
	out, err := cmd.CombinedOutput()
	if werr := os.WriteFile(logFile, out, 0o644); werr != nil {
		return werr
	}
	if ctx.Err() == context.DeadlineExceeded {
		return runError{fmt.Errorf("emu %s ran past -emu-timeout %v (log: %s)", args[0], opt.EmuTimeout, logFile)}
	}
	if err != nil {
		return runError{fmt.Errorf("emu %s: %v (log: %s)\n%s", strings.Join(args, " "), err, logFile, tail(out, 8))}
	}
	return nil
}

// predictedTime reads emu run's --json and returns the Time of c's test.
func predictedTime(file string, c config) (float64, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var res struct {
		Results []struct {
			N, NB, P, Q int
			Time        float64 `json:"time_s"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		return 0, fmt.Errorf("%s: %v", file, err)
	}
	for _, r := range res.Results {
		if r.N == c.N && r.NB == c.NB && r.P == c.P && r.Q == c.Q {
			return r.Time, nil
		}
	}
	return 0, fmt.Errorf("%s: no result for %v", file, c)
}

// quietGate holds runs back until the machine is quiet.
type quietGate struct {
	opt    options
	gaveUp bool    // a wait ran out: the machine does not get quiet, later runs do not wait
	nice   float64 // the share of the CPUs niced processes kept busy at the last measure
}

// measure is the share of the CPUs busy over d (niced processes aside with
// -ignore-nice), keeping the niced share in q.nice.
func (q *quietGate) measure(d time.Duration) float64 {
	busy, nice := cpuShares(d)
	q.nice = nice
	if busy >= 0 && !q.opt.IgnoreNice {
		busy += nice
	}
	return busy
}

// wait waits until the other processes keep at most opt.QuietBusy of the
// CPUs busy (measured over half a second, while the loop runs nothing), at
// most opt.QuietWait, and returns the last share measured (−1 where
// /proc/stat is not). The load average cannot say it: it trails the loop's
// own runs by a minute. Once a wait has run out, later ones only measure.
func (q *quietGate) wait(ctx context.Context) float64 {
	opt := q.opt
	if q.gaveUp {
		return q.measure(200 * time.Millisecond)
	}
	if opt.QuietBusy <= 0 {
		return q.measure(200 * time.Millisecond) // recorded only
	}
	busy := q.measure(500 * time.Millisecond)
	if busy < 0 {
		return busy
	}
	deadline := time.Now().Add(opt.QuietWait)
	warned := false
	for busy > opt.QuietBusy && time.Now().Before(deadline) && ctx.Err() == nil {
		if !warned {
			logf(opt, "waiting for quiet: CPUs %.0f%% busy, %.0f%% of it niced (at most %.0f%%; -quiet, -quiet-wait)", 100*busy, 100*q.nice, 100*opt.QuietBusy)
			if q.nice > opt.QuietBusy && autogroups() {
				logf(opt, "niced processes of other sessions do not yield under the kernel's autogroups: stop them or renice their group (echo 19 > /proc/PID/autogroup)")
			}
			warned = true
		}
		time.Sleep(4 * time.Second)
		busy = q.measure(500 * time.Millisecond)
	}
	if busy > opt.QuietBusy {
		q.gaveUp = true
		logf(opt, "warning: CPUs still %.0f%% busy after -quiet-wait %v: running anyway, and no longer waiting (busy_before in real_runs.csv)", 100*busy, opt.QuietWait)
	}
	return busy
}

// autogroups reports whether the kernel schedules sessions as groups, among
// which nice does not count (sched(7)).
func autogroups() bool {
	b, err := os.ReadFile("/proc/sys/kernel/sched_autogroup_enabled")
	return err == nil && strings.TrimSpace(string(b)) == "1"
}

// busyShare is the share of all CPUs busy over d, from /proc/stat, but for
// niced processes (cpuShares gives theirs apart); −1 where /proc/stat cannot
// be read.
func busyShare(d time.Duration) float64 {
	busy, _ := cpuShares(d)
	return busy
}

// cpuShares is busyShare and the share niced processes kept busy.
func cpuShares(d time.Duration) (busy, nice float64) {
	read := func() (busy, nice, total float64, ok bool) {
		data, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, 0, false
		}
		line, _, _ := strings.Cut(string(data), "\n")
		f := strings.Fields(line)
		if len(f) < 5 || f[0] != "cpu" {
			return 0, 0, 0, false
		}
		for i, x := range f[1:] {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return 0, 0, 0, false
			}
			if i < 8 { // user nice system idle iowait irq softirq steal (guest is in user)
				total += v
				switch i {
				case 1:
					nice += v
				case 3, 4:
				default:
					busy += v
				}
			}
		}
		return busy, nice, total, true
	}
	b0, n0, t0, ok := read()
	if !ok {
		return -1, -1
	}
	time.Sleep(d)
	b1, n1, t1, ok := read()
	if !ok || t1 <= t0 {
		return -1, -1
	}
	return (b1 - b0) / (t1 - t0), (n1 - n0) / (t1 - t0)
}

func busyCell(b float64) string {
	if b < 0 {
		return "?"
	}
	return fmt.Sprintf("%.3f", b)
}

// loadAvg is the 1-minute load average, or "?" where /proc/loadavg is not.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

func logf(opt options, format string, args ...any) {
	fmt.Fprintf(opt.Log, "%s "+format+"\n", append([]any{time.Now().UTC().Format("15:04:05")}, args...)...)
}

func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// csvFile is an output CSV written row by row.
type csvFile struct {
	f *os.File
	w *csv.Writer
}

func newCSV(path string, header ...string) (*csvFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	c := &csvFile{f: f, w: csv.NewWriter(f)}
	c.w.Write(header)
	return c, nil
}

func (c *csvFile) write(fields ...any) {
	s := make([]string, len(fields))
	for i, f := range fields {
		s[i] = fmt.Sprint(f)
	}
	c.w.Write(s)
}

func (c *csvFile) flush() error { c.w.Flush(); return c.w.Error() }

func (c *csvFile) close() { c.w.Flush(); c.f.Close() }
