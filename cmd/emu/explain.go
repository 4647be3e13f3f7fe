package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

func init() { register(newExplainCmd) }

func newExplainCmd() *cobra.Command {
	var (
		sf       scenarioFlags
		backend  string
		jsonOut  string
		realOut  string
		timedRun bool
	)
	cmd := &cobra.Command{
		Use:   "explain [FILE.toml] [--hpl-dat HPL.dat]",
		Short: "Run a case in model and in timed mode and compare them kernel by kernel",
		Long: `explain runs the scenario twice — once with its kernel models (model mode) and once
executing every kernel on this node and charging its measured time (timed mode) —
and prints, per kernel, the calls and the seconds each run charged, summed over
all ranks (calls "model/timed" where the two runs made a different number), and
the model's error against the measurement; then each run's
communication and waiting time (mean per rank), the application's result, the
time the ranks spent in each MPI call in both runs (summed over ranks) and,
for HPL, the time of each of HPL's phases as HPL's detailed timing prints them
(the largest over the ranks). With --real, the output of a real HPL run of
the same test (xhpl's, built with -DHPL_DETAILED_TIMING for the phases) is
a third column, and the model's error is taken against it.
A kernel whose model is far off is the one to calibrate again or fit
differently. Keep the case small: timed mode executes the whole run on this node,
one rank at a time. --timed=false leaves timed mode out and compares the model
with --real alone: for a run too large to execute here, or made on another node.
A scenario that runs no compute kernels (a pingpong, a replay) has nothing to
compare and is refused.`,
		Example: `  emu explain node.toml --hpl-dat HPL.dat
  emu explain --hpl-dat HPL.dat --set kernels.models=models.toml --backend openblas
  emu explain node.toml --hpl-dat HPL.dat --set kernels.models=models.toml --real xhpl.out
  emu explain node16.toml --hpl-dat HPL.dat --set kernels.models=models.toml --real xhpl.out --timed=false`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			if !timedRun && realOut == "" {
				return fmt.Errorf("--timed=false leaves nothing to compare the model with: give --real")
			}
			var realRows []hpl.OutputRow
			if realOut != "" {
				data, err := inputfile.ReadFile(realOut)
				if err != nil {
					return fmt.Errorf("--real: %w", err) // "--real: F: no such file or directory", not "open F: …"
				}
				if realRows, err = hpl.ParseOutput(data, realOut); err != nil {
					return fmt.Errorf("--real: %v", err)
				}
			}
			model, err := sf.plan(file)
			if err != nil {
				return err
			}
			if err := checkOutputs(append(model.Inputs, realOut), outputPath{"--json", jsonOut, false}); err != nil {
				return err
			}
			// Both runs record a breakdown of one application's ranks.
			if model.App == scenario.AppJobs {
				return fmt.Errorf("explain compares one application's runs; this scenario has [[jobs]] (explain each job's app alone)")
			}
			if model.Semantics == replay.SemanticsLogGOPS {
				return fmt.Errorf(`explain compares the ranks' runs; replay.semantics = "loggops" has none`)
			}
			if n := len(model.HPL); n > 1 && !isQuiet(cmd) {
				// The kernel and MPI rows add up every test; Time, the phases
				// and --real are the first test's alone.
				t := model.HPL[0]
				fmt.Fprintf(cmd.ErrOrStderr(), "emu: note: the scenario runs %d HPL tests: kernels and MPI calls are summed over all of them, the application's Time and HPL's phases are its first test's (%s N=%d NB=%d %dx%d)\n",
					n, t.Variant(), t.N, t.NB, t.P, t.Q)
			}
			model.Kernels.Mode = kernels.Model
			var ex explanation
			type side struct {
				plan *scenario.Plan
				into *explainRun
			}
			sides := []side{{model, &ex.Model}}
			if timedRun {
				timed, err := sf.plan(file)
				if err != nil {
					return err
				}
				timed.Kernels.Mode = kernels.Timed
				if backend != "" {
					timed.Kernels.Backend = backend
				}
				if err := timed.Kernels.Validate(); err != nil {
					return fmt.Errorf("--backend: %v", err)
				}
				ex.Timed = &explainRun{}
				sides = append(sides, side{timed, ex.Timed})
			}
			for _, side := range sides {
				log := &observe.KernelLog{}
				res, err := runner.Run(side.plan, runner.Options{Kernels: log, Breakdown: true, MPICalls: true})
				if err != nil {
					return runError(inPlatform(err, side.plan)) // a trace that cannot complete is bad input, as in emu run
				}
				*side.into = summarize(res)
				if len(side.into.Kernels) == 0 { // the model run's: the timed one runs the same app
					return fmt.Errorf("this scenario (app %s) runs no compute kernels: explain has none to compare; emu run gives its communication and MPI time", model.App)
				}
			}
			if realOut != "" {
				if err := ex.addReal(model, realRows, realOut); err != nil {
					return fmt.Errorf("--real: %v", err)
				}
			}
			ex.compare()
			if err := ex.write(cmd.OutOrStdout()); err != nil {
				return asFailure(err)
			}
			if jsonOut != "" {
				var st staging
				defer st.discard()
				if err := st.write(jsonOut, func(w io.Writer) error {
					return jsonout.Encode(w, ex)
				}); err != nil {
					return asFailure(err)
				}
				return st.commit()
			}
			return nil
		},
	}
	sf.add(cmd)
	cmd.Flags().StringVar(&backend, "backend", "", "BLAS backend of the timed run (default: the scenario's kernels.backend)")
	cmd.Flags().StringVar(&jsonOut, "json", "", "write the comparison as JSON to `FILE`")
	cmd.Flags().StringVar(&realOut, "real", "", "compare with the output `FILE` of a real HPL run of the same test (xhpl's; built with -DHPL_DETAILED_TIMING it gives the phases)")
	cmd.Flags().BoolVar(&timedRun, "timed", true, "also run in timed mode, executing every kernel here (--timed=false: compare the model with --real only)")
	return cmd
}

// explainRun is one side of an explanation.
type explainRun struct {
	Kernels []observe.KernelTotal `json:"kernels"`
	Comm    float64               `json:"communication_s"`  // mean per rank, s
	Wait    float64               `json:"waiting_s"`        // mean per rank, s
	Time    float64               `json:"time_s"`           // the application's time (HPL: its first test's Time), s
	Phases  *hpl.Phases           `json:"phases,omitempty"` // HPL's detailed timings of its first test
	// MPI is the time inside each MPI call, summed over the ranks.
	MPI []observe.MPICallTotal `json:"mpi_calls"`
}

// callRow is one MPI call's row of the comparison: the time the ranks spent
// in it with the models and with the measured kernels (both runs' MPI is
// emulated; what differs is how long the partners computed).
type callRow struct {
	Call       string   `json:"call"`
	Calls      int      `json:"calls"` // the model run's
	ModelS     float64  `json:"model_s"`
	TimedCalls *int     `json:"timed_calls,omitempty"` // nil with --timed=false, as TimedS
	TimedS     *float64 `json:"timed_s,omitempty"`
}

// realRun is the real HPL run an explanation is compared with (--real).
type realRun struct {
	File   string      `json:"file"`
	Line   int         `json:"line"`
	Time   float64     `json:"time_s"`
	Phases *hpl.Phases `json:"phases,omitempty"`
}

// phaseError is one of HPL's phases in the comparison.
type phaseError struct {
	Phase    string   `json:"phase"`
	ModelS   float64  `json:"model_s"`
	TimedS   *float64 `json:"timed_s,omitempty"` // nil with --timed=false
	RealS    *float64 `json:"real_s,omitempty"`
	ErrorPct float64  `json:"error_pct"` // model against real when given, else against timed
}

// kernelError is one kernel's row of the comparison.
type kernelError struct {
	Kernel     string   `json:"kernel"`
	Calls      int      `json:"calls"` // the model run's
	ModelS     float64  `json:"model_s"`
	TimedCalls *int     `json:"timed_calls,omitempty"` // nil with --timed=false, as TimedS and ErrorPct
	TimedS     *float64 `json:"timed_s,omitempty"`
	// ErrorPct is (model − timed) / timed × 100; NaN-free: 0 when both are 0.
	ErrorPct *float64 `json:"error_pct,omitempty"`
	SharePct float64  `json:"share_pct"` // the kernel's part of the timed kernels' total (the model's with --timed=false)
}

// explanation is what explain prints and writes.
type explanation struct {
	Model   explainRun    `json:"model"`
	Timed   *explainRun   `json:"timed,omitempty"` // nil with --timed=false
	Rows    []kernelError `json:"per_kernel"`
	TimeErr *float64      `json:"time_error_pct,omitempty"` // the model's Time against the timed run's
	Real    *realRun      `json:"real,omitempty"`
	Phases  []phaseError  `json:"per_phase,omitempty"`
	Calls   []callRow     `json:"per_mpi_call"`
	// RealTimeErr is the model's Time against the real run's, in percent.
	RealTimeErr *float64 `json:"real_time_error_pct,omitempty"`
}

// addReal finds the real run of the plan's first HPL test among rows.
func (ex *explanation) addReal(p *scenario.Plan, rows []hpl.OutputRow, file string) error {
	if len(p.HPL) == 0 {
		return fmt.Errorf("the scenario runs %s, not HPL", p.App)
	}
	t := p.HPL[0]
	var have []string
	for _, r := range rows {
		if r.Variant == t.Variant() && r.N == t.N && r.NB == t.NB && r.P == t.P && r.Q == t.Q {
			ex.Real = &realRun{File: file, Line: r.Line, Time: r.Time, Phases: r.Phases}
			return nil
		}
		have = append(have, fmt.Sprintf("%s %d %d %dx%d", r.Variant, r.N, r.NB, r.P, r.Q))
	}
	return fmt.Errorf("%s has no result of the scenario's first test %s N=%d NB=%d %dx%d (it holds %s)",
		file, t.Variant(), t.N, t.NB, t.P, t.Q, strings.Join(have, ", "))
}

func summarize(res *runner.Result) explainRun {
	out := explainRun{Kernels: res.Kernels, Time: res.SimulatedTime, MPI: res.MPICalls}
	if len(res.HPL) > 0 {
		out.Time = res.HPL[0].Time
		ph := res.HPL[0].Phases
		out.Phases = &ph
	}
	if b := res.Breakdown; b != nil && len(b.Comm) > 0 {
		for r := range b.Comm {
			out.Comm += b.Comm[r]
			out.Wait += b.Wait[r]
		}
		out.Comm /= float64(len(b.Comm))
		out.Wait /= float64(len(b.Wait))
	}
	return out
}

// compare fills the per-kernel, per-call and per-phase rows, largest timed
// share first (the model's without a timed run).
func (ex *explanation) compare() {
	rows := map[string]*kernelError{}
	row := func(k string) *kernelError {
		if rows[k] == nil {
			rows[k] = &kernelError{Kernel: k}
		}
		return rows[k]
	}
	total := 0.0
	for _, t := range ex.Model.Kernels {
		r := row(t.Kernel)
		r.ModelS, r.Calls = t.Seconds, t.Calls
		if ex.Timed == nil {
			total += t.Seconds
		}
	}
	if ex.Timed != nil {
		for _, t := range ex.Timed.Kernels {
			r := row(t.Kernel)
			n := t.Calls
			r.TimedS, r.TimedCalls = ptr(t.Seconds), &n
			total += t.Seconds
		}
	}
	ex.Rows = ex.Rows[:0]
	for _, r := range rows {
		share := r.ModelS
		if ex.Timed != nil {
			if r.TimedS == nil {
				r.TimedS, r.TimedCalls = ptr(0), new(int)
			}
			r.ErrorPct = ptr(pctError(r.ModelS, *r.TimedS))
			share = *r.TimedS
		}
		if total > 0 {
			r.SharePct = 100 * share / total
		}
		ex.Rows = append(ex.Rows, *r)
	}
	byShare := func(i, j int) bool {
		if ex.Rows[i].SharePct != ex.Rows[j].SharePct {
			return ex.Rows[i].SharePct > ex.Rows[j].SharePct
		}
		return ex.Rows[i].Kernel < ex.Rows[j].Kernel
	}
	sort.Slice(ex.Rows, byShare)
	if ex.Timed != nil {
		ex.TimeErr = ptr(pctError(ex.Model.Time, ex.Timed.Time))
	}

	calls := map[string]*callRow{}
	var order []string
	type side struct {
		totals []observe.MPICallTotal
		timed  bool
	}
	sides := []side{{ex.Model.MPI, false}}
	if ex.Timed != nil {
		sides = append(sides, side{ex.Timed.MPI, true})
	}
	for _, side := range sides {
		for _, t := range side.totals {
			c := calls[t.Call]
			if c == nil {
				c = &callRow{Call: t.Call}
				calls[t.Call] = c
				order = append(order, t.Call)
			}
			if side.timed {
				n := t.Calls
				c.TimedS, c.TimedCalls = ptr(t.Seconds), &n
			} else {
				c.ModelS, c.Calls = t.Seconds, t.Calls
			}
		}
	}
	ex.Calls = ex.Calls[:0]
	for _, name := range order {
		c := *calls[name]
		if ex.Timed != nil && c.TimedS == nil {
			c.TimedS, c.TimedCalls = ptr(0), new(int)
		}
		ex.Calls = append(ex.Calls, c)
	}
	callTime := func(c callRow) float64 {
		if c.TimedS != nil {
			return *c.TimedS
		}
		return c.ModelS
	}
	sort.SliceStable(ex.Calls, func(i, j int) bool { return callTime(ex.Calls[i]) > callTime(ex.Calls[j]) })

	ex.Phases = ex.Phases[:0]
	var real []hpl.PhaseRow
	if ex.Real != nil && ex.Real.Phases != nil {
		real = ex.Real.Phases.Rows()
	}
	var timed []hpl.PhaseRow
	if ex.Timed != nil && ex.Timed.Phases != nil {
		timed = ex.Timed.Phases.Rows()
	}
	if ex.Model.Phases != nil && (timed != nil || real != nil) {
		for i, m := range ex.Model.Phases.Rows() {
			pe := phaseError{Phase: m.Name, ModelS: m.Seconds}
			if timed != nil {
				pe.TimedS = ptr(timed[i].Seconds)
				pe.ErrorPct = pctError(pe.ModelS, timed[i].Seconds)
			}
			if real != nil {
				pe.RealS = ptr(real[i].Seconds)
				pe.ErrorPct = pctError(pe.ModelS, real[i].Seconds)
			}
			ex.Phases = append(ex.Phases, pe)
		}
	}
	if ex.Real != nil {
		ex.RealTimeErr = ptr(pctError(ex.Model.Time, ex.Real.Time))
	}
}

func ptr(x float64) *float64 { return &x }

// cell prints an optional figure, "-" where there is none.
func cell(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.4g", *x)
}

// callsCell prints a row's calls: the model run's, and "/" the timed run's
// where the two runs made a different number.
func callsCell(model int, timed *int) string {
	if timed == nil || *timed == model {
		return strconv.Itoa(model)
	}
	return strconv.Itoa(model) + "/" + strconv.Itoa(*timed)
}

// pctCell prints an optional percentage, "-" where there is none.
func pctCell(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", *x)
}

// pctError is (model − measured)/measured in percent; 0 when both are 0 and
// ±Inf mapped to ±1e9 so JSON stays valid.
func pctError(model, measured float64) float64 {
	switch {
	case measured == 0 && model == 0:
		return 0
	case measured == 0:
		return 1e9
	}
	e := 100 * (model - measured) / measured
	if math.IsInf(e, 0) || math.IsNaN(e) {
		return 1e9
	}
	return e
}

func (ex *explanation) write(w io.Writer) error {
	timed := ex.Timed != nil
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	share := "share of timed"
	if !timed {
		share = "share of model"
	}
	fmt.Fprintf(tw, "kernel\tcalls\tmodel s\ttimed s\tmodel error\t%s\t\n", share)
	var sumM, sumT float64
	for _, r := range ex.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%s\t%s\t%.1f%%\t\n", r.Kernel, callsCell(r.Calls, r.TimedCalls), r.ModelS, cell(r.TimedS), pctCell(r.ErrorPct), r.SharePct)
		sumM += r.ModelS
		if r.TimedS != nil {
			sumT += *r.TimedS
		}
	}
	if timed {
		fmt.Fprintf(tw, "all kernels\t\t%.4g\t%.4g\t%+.1f%%\t\t\n", sumM, sumT, pctError(sumM, sumT))
		fmt.Fprintf(tw, "communication (mean per rank)\t\t%.4g\t%.4g\t\t\t\n", ex.Model.Comm, ex.Timed.Comm)
		fmt.Fprintf(tw, "waiting (mean per rank)\t\t%.4g\t%.4g\t\t\t\n", ex.Model.Wait, ex.Timed.Wait)
		fmt.Fprintf(tw, "application time\t\t%.4g\t%.4g\t%+.1f%%\t\t\n", ex.Model.Time, ex.Timed.Time, *ex.TimeErr)
	} else {
		fmt.Fprintf(tw, "all kernels\t\t%.4g\t-\t-\t\t\n", sumM)
		fmt.Fprintf(tw, "communication (mean per rank)\t\t%.4g\t-\t\t\t\n", ex.Model.Comm)
		fmt.Fprintf(tw, "waiting (mean per rank)\t\t%.4g\t-\t\t\t\n", ex.Model.Wait)
		fmt.Fprintf(tw, "application time\t\t%.4g\t-\t-\t\t\n", ex.Model.Time)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(ex.Calls) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "MPI call (summed over ranks)\tcalls\tmodel s\ttimed s\t")
		for _, c := range ex.Calls {
			fmt.Fprintf(tw, "%s\t%s\t%.4g\t%s\t\n", c.Call, callsCell(c.Calls, c.TimedCalls), c.ModelS, cell(c.TimedS))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(ex.Phases) == 0 && ex.Real == nil {
		return nil
	}
	// HPL's phases (detailed timing), beside the real run's when given; a
	// plain xhpl's output has no phases, but its Time is still the reference.
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	against := "timed"
	switch {
	case ex.Real != nil && (ex.Real.Phases != nil || !timed):
		against = "real"
	case ex.Real != nil:
		against = "timed (Time: real)" // the phases' errors are against the timed run
	}
	fmt.Fprintf(tw, "HPL phase (max over ranks)\tmodel s\ttimed s\treal s\tmodel error vs %s\t\n", against)
	for _, p := range ex.Phases {
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\t%+.1f%%\t\n", p.Phase, p.ModelS, cell(p.TimedS), cell(p.RealS), p.ErrorPct)
	}
	if ex.Real != nil {
		timedTime := "-"
		if timed {
			timedTime = fmt.Sprintf("%.4g", ex.Timed.Time)
		}
		fmt.Fprintf(tw, "Time\t%.4g\t%s\t%.4g\t%+.1f%%\t\n", ex.Model.Time, timedTime, ex.Real.Time, *ex.RealTimeErr)
	}
	return tw.Flush()
}
