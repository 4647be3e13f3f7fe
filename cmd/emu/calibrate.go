package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

func init() { register(newCalibrateCmd) }

// appSamples is the default --samples of a calibration of an application's
// calls: enough for the fits of every kernel, few enough that a 2-core node
// running HPL with N up to 16,000 is calibrated in about a minute. With 40,
// dtrsm's calls (left and right forms, the update's and the recursion's)
// got a fit 33% off in cross-validation that charged a 2-rank N = 4,000 run
// 42% less dtrsm than it spent; with 100, 12%.
const appSamples = 100

func newCalibrateCmd() *cobra.Command {
	var (
		plan     calibration.Plan
		out      string
		host     string
		backend  string
		parallel int
		beside   string
		repeats  int
		clock    string
		sf       scenarioFlags
		app      bool
		check    checkFlags
	)
	cmd := &cobra.Command{
		Use:   "calibrate [FILE.toml] [--hpl-dat HPL.dat] --out samples.csv | calibrate --check models.toml [--rescale [-o new.toml]]",
		Short: "Measure this node's compute kernels into a sample file (resumable)",
		Long: `calibrate measures emu's kernels (dgemm, dtrsm, ... and HPL's copies) on real data
with randomized dimensions covering how HPL calls them, each on one core, warmed up
once and timed --repeats times (the row holds the mean), and appends one CSV row per
call (host, core, kernel, m, n, k, seconds, timestamp) to --out. Interrupt it at any
time (Ctrl-C, or even kill -9): rerunning the same command continues where it
stopped, losing and duplicating nothing. --parallel runs one worker per core at once,
as HPL loads a node. Fit the result with emu fit; combine nodes with emu calibrate merge.

With a scenario (FILE.toml, --hpl-dat, --platform, --set as emu run takes them)
calibrate measures the calls of the run to predict, as it makes them: it first
emulates that run to record the kernel calls of the ranks on one node (their
dimensions, forms and counts), then measures --samples of them per kernel, half
drawn by their share of the kernel's time and half by their count, with one
worker per rank of that node (unless --parallel says otherwise). --hpl-dat may
list several files, comma-separated: their runs are emulated one after the
other, so a calibration covers exactly the runs to predict rather than the
cross product one HPL.dat spans.

Each call is timed --repeats times after an untimed first run and the row holds
the median; a long call (over 50 ms) counts its first run and stops when two runs
agree within 5%. When the campaign completes, samples whose time per unit of
work is far from their neighbours' are measured again; those still off are kept
with status "outlier" and left out of fits. The summary says how many.

Before it measures, calibrate takes the node's reference probe (a 512³ dgemm
timed 7 times on one core, with the node's host name, CPU model and cores) into
the sample file; emu fit carries it into the models file. Models age: a node's
speed moves (thermal limits, a neighbour, a BIOS change). --check models.toml
measures the probe again in about a second and reports the drift (how many
times as long a call takes now as when the models were calibrated) and whether
this is the calibrated node; --rescale also writes the models multiplied by
that ratio (every BLAS kernel's mean and noise; HPL's copies unchanged) to -o
(default models.rescaled.toml), with the new probe as their reference.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if check.models != "" {
				if len(args) > 0 {
					return fmt.Errorf("--check: takes no scenario (%s)", args[0])
				}
				if out != "" && !check.rescale {
					// Without --rescale nothing is written: an -o would be dropped.
					return fmt.Errorf("-o %s: --check writes a file only with --rescale", out)
				}
				// --check measures the models' own probe, with its call, BLAS and
				// clock: a campaign's flags would be dropped without a word.
				var dropped []string
				cmd.Flags().Visit(func(f *pflag.Flag) {
					switch f.Name {
					case "check", "rescale", "host", "out", "quiet":
					default:
						dropped = append(dropped, "--"+f.Name)
					}
				})
				if len(dropped) > 0 {
					return fmt.Errorf("%s: --check measures the models' probe again with its own call, BLAS and clock; it takes --host, --rescale and -o only", strings.Join(dropped, ", "))
				}
				check.out, check.host = out, host
				return runCheck(cmd.OutOrStdout(), check)
			}
			if check.rescale {
				return fmt.Errorf("--rescale: only meaningful with --check models.toml")
			}
			if err := subcommandTypo(cmd, args); err != nil {
				return err
			}
			if out == "" {
				return fmt.Errorf("--out is required")
			}
			// The sample file itself is read back to resume a campaign; the
			// scenario and its HPL.dat and platform files are not to be replaced.
			inputs := append(append([]string{}, args...), strings.Split(sf.hplDat, ",")...)
			if err := checkOutputs(append(inputs, sf.platform), outputPath{"--out", out, false}); err != nil {
				return err
			}
			if parallel < 1 || parallel > maxCalibrateWorkers {
				return fmt.Errorf("--parallel %d: want 1 to %d", parallel, maxCalibrateWorkers)
			}
			if repeats < 1 || repeats > maxRepeats {
				return fmt.Errorf("--repeats %d: want 1 to %d", repeats, maxRepeats)
			}
			if _, _, ok := models.SplitCPUKey(host); !ok {
				// emu fit could read these samples, but not write this host's model.
				return fmt.Errorf("--host %q: a host name holds no \"/\" (HOST/cpuS names socket S of HOST)", host)
			}
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			app = file != "" || sf.hplDat != "" || sf.platform != "" || sf.replay != "" || len(sf.sets) > 0
			if !app {
				if err := checkPlanFlags(plan); err != nil {
					return err
				}
			}
			if app {
				calls, onNode, be, err := appCalls(&sf, file)
				if err != nil {
					return err
				}
				if cmd.Flags().Changed("kernels") {
					if calls, err = onlyKernels(calls, plan.Kernels); err != nil {
						return err
					}
				}
				if !cmd.Flags().Changed("backend") {
					backend = be // measure with the BLAS the run will use
				}
				samples := plan.Samples
				if !cmd.Flags().Changed("samples") {
					samples = appSamples
				}
				if plan, err = calibration.FromApp(calls, samples, plan.Seed); err != nil {
					return fmt.Errorf("calibrate: %w", err)
				}
				if !cmd.Flags().Changed("parallel") {
					parallel = onNode
				}
			}
			if err := plan.Validate(); err != nil {
				return fmt.Errorf("calibrate: %w", err)
			}
			if err := checkCalibrateMemory(plan, parallel, memAvailable()); err != nil {
				return err
			}
			if beside != "" && parallel < 2 {
				return fmt.Errorf("--beside %s: needs 2 workers or more (--parallel; one times, the others load the node)", beside)
			}
			clk, err := kernels.ParseClock(clock)
			if err != nil {
				return fmt.Errorf("--clock: %w", err)
			}
			quiet, _ := cmd.Flags().GetBool("quiet")
			c := &calibration.Campaign{Plan: plan, Out: out, Host: host, Parallel: parallel, Repeats: repeats, Backend: backend, Clock: clk, Beside: beside,
				Probe: &calibration.ProbeOptions{Node: thisNode(), Timer: probeTimer}}
			if bar := newBar(cmd.ErrOrStderr(), plan.Total(), quiet); bar != nil {
				c.Progress = func(done, _ int) { bar.Set(done) }
				defer bar.Finish()
			}
			ctx, stop := calibration.SignalContext()
			defer stop()
			start, cpu0 := time.Now(), processCPU()
			res, err := c.Run(ctx)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if res.Interrupted {
				return asFailure(fmt.Errorf("calibrate: interrupted with %d of %d samples in %s; rerun the same command to continue",
					res.Resumed+res.Measured, res.Total, out))
			}
			fmt.Fprintf(w, "%s: %d samples (%d measured now, %d resumed) in %s",
				out, res.Total, res.Measured, res.Resumed, time.Since(start).Round(time.Millisecond))
			if res.Measured > 0 {
				fmt.Fprintf(w, "; %d looked like outliers and were measured again, %d still off (status outlier, left out of fits)", res.Remeasured, res.Outliers)
				if cpu := processCPU().sub(cpu0); cpu.user+cpu.system > 0 {
					// System time is page faults and the kernel's memory management:
					// a share above a few percent means the node is short of memory
					// or the measurements are disturbed.
					fmt.Fprintf(w, "; CPU %.1f s user, %.1f s system", cpu.user, cpu.system)
				}
			}
			fmt.Fprintln(w)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&plan.Kernels, "kernels", calibration.DefaultKernels, "kernels to measure (comma-separated); with a scenario, only these of the run's kernels")
	f.IntVar(&plan.Samples, "samples", 200, "samples per kernel (with a scenario: at most, of the calls the run makes)")
	f.IntVar(&plan.MaxDim, "max-dim", 2048, "largest m or n measured (elements; take the local N/P of the runs to predict)")
	f.IntSliceVar(&plan.NBs, "nb", calibration.DefaultNBs, "panel widths drawn (HPL's NB; take the NB of the runs to predict)")
	f.Uint64Var(&plan.Seed, "seed", 1, "seed of the sample plan (a rerun must use the same)")
	f.IntVar(&repeats, "repeats", 5, "timed runs per call after its warm-up run; the sample is their median")
	f.IntVar(&parallel, "parallel", 1, "workers measuring at once; one per core loads the node as HPL does (with a scenario, one per rank of a node unless given)")
	f.StringVar(&beside, "beside", "", "time every kernel but this one (dgemm) with one worker while the other workers run its largest call, as a rank's row moves run beside its neighbours' updates; this kernel's calls in lockstep")
	f.StringVarP(&out, "out", "o", "", "sample file to write or resume (CSV); with --check --rescale, the rescaled models")
	f.StringVar(&host, "host", "", "host name recorded in the samples (default: this machine's); with --check, the node whose probe to compare")
	f.StringVar(&backend, "backend", "", "BLAS backend: "+strings.Join(kernels.Backends(), ", ")+" (openblas needs a -tags cblas build; default: the scenario's kernels.backend, else gonum)")
	f.StringVar(&clock, "clock", "wall", "how calls are timed: wall (as SMPI) or cpu (CPU time of the process: robust on a shared machine; needs --parallel 1)")
	f.StringVar(&check.models, "check", "", "measure this node's probe again and report its drift from the probe of this `models.toml`")
	f.BoolVar(&check.rescale, "rescale", false, "with --check: write the models rescaled by the drift to -o (default MODELS.rescaled.toml)")
	sf.add(cmd)
	cmd.AddCommand(newCalibrateMergeCmd())
	return cmd
}

// checkPlanFlags refuses the values of the flags that make a synthetic
// plan (--kernels, --samples, --max-dim, --nb) by the flag's name, as the
// other flags' errors are; Plan.Validate says them in the plan's words.
// maxCalibrateWorkers and maxRepeats bound --parallel and --repeats: each
// worker holds operand buffers, and the median of more runs changes nothing.
const (
	maxCalibrateWorkers = 4096
	maxRepeats          = 10000
)

// checkCalibrateMemory refuses a campaign whose workers' operand buffers
// (the largest calls' operands, per worker) would not fit in the memory the
// system has available (avail bytes; 0: unknown, not checked): a giant
// allocation ends in the runtime's out-of-memory crash, not a line naming
// the flags.
func checkCalibrateMemory(p calibration.Plan, workers int, avail uint64) error {
	need := p.WorkerBytes() * float64(workers)
	if avail == 0 || need <= float64(avail) {
		return nil
	}
	return fmt.Errorf("--max-dim %d, --parallel %d: the largest calls' operands take %.3g GiB a worker, %.3g GiB in all, more than the %.3g GiB available",
		p.MaxDim, workers, p.WorkerBytes()/(1<<30), need/(1<<30), float64(avail)/(1<<30))
}

func checkPlanFlags(p calibration.Plan) error {
	var fe *calibration.FieldError
	if err := p.Validate(); !errors.As(err, &fe) {
		return err
	}
	flag := map[string]string{"Kernels": "kernels", "Samples": "samples", "MaxDim": "max-dim", "NBs": "nb"}[fe.Field]
	if fe.Value == "" {
		return fmt.Errorf("--%s: %s", flag, fe.Msg)
	}
	return fmt.Errorf("--%s %s: %s", flag, fe.Value, fe.Msg)
}

// newBar returns a progress bar with ETA when w is a terminal, else nil: a
// bar in a log file or a pipe is noise.
func newBar(w io.Writer, total int, quiet bool) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("calibrating"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(f) }),
	)
}

func newCalibrateMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge node1.csv node2.csv ... [-o all.csv]",
		Short: "Combine several nodes' sample files into one",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out != "-" {
				// Every file is read whole before the merge is written, atomically:
				// -o one of them updates it in place.
				if err := checkOutputs(nil, outputPath{"--out", out, false}); err != nil {
					return err
				}
			}
			merged, probes, dups, err := calibration.Merge(args)
			if err != nil {
				for _, f := range args { // the file the error names, if another kind of input
					if strings.HasPrefix(err.Error(), f+":") {
						return withFlagHint(err, f, "fit")
					}
				}
				return err
			}
			if len(merged) == 0 {
				// A header alone (a calibration that wrote no row): a merged
				// file of nothing would only fail later, at emu fit.
				return fmt.Errorf("%s: no samples to merge (a header alone: a calibration that measured nothing?)", strings.Join(args, ", "))
			}
			noted := map[string]bool{} // a file given twice is noted once
			for _, f := range args {
				if !noted[f] {
					noted[f] = true
					if data, err := os.ReadFile(f); err == nil { // Merge has read it: it is there
						noteTornRow(cmd.ErrOrStderr(), f, data)
						if s, err := calibration.ReadSamples(data, f); err == nil && len(s) == 0 {
							fmt.Fprintf(cmd.ErrOrStderr(), "emu: note: %s: no samples (a header alone), nothing merged from it\n", f)
						}
					}
				}
			}
			var buf bytes.Buffer
			if err := calibration.WriteSampleFile(&buf, merged, probes); err != nil {
				return err
			}
			if out == "" || out == "-" {
				_, err = cmd.OutOrStdout().Write(buf.Bytes())
				return asFailure(err)
			}
			if err := writeFileAtomic(out, func(w io.Writer) error {
				_, err := w.Write(buf.Bytes())
				return asFailure(err)
			}); err != nil {
				return err
			}
			files := "files"
			if len(args) == 1 {
				files = "file"
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d samples from %d %s (%d duplicates dropped)\n", out, len(merged), len(args), files, dups)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "merged file (default: standard output)")
	return cmd
}

// onlyKernels keeps the calls of the kernels --kernels lists: with a
// scenario the run says which kernels there are to measure, and --kernels
// narrows them (to measure one kernel again, say). A kernel the run never
// calls is an error rather than a silent empty campaign.
func onlyKernels(calls []calibration.AppCall, names []string) ([]calibration.AppCall, error) {
	want := map[string]bool{}
	for _, n := range names {
		if !kernels.Known(n) {
			return nil, fmt.Errorf("--kernels: unknown kernel %q", n)
		}
		want[kernels.Family(n)] = true
	}
	made := map[string]bool{}
	var kept []calibration.AppCall
	for _, c := range calls {
		f := kernels.Family(c.Call.Kernel)
		made[f] = true
		if want[f] {
			kept = append(kept, c)
		}
	}
	var missing []string
	for n := range want {
		if !made[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("--kernels: the run makes no %s call", strings.Join(missing, ", "))
	}
	return kept, nil
}
