package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// delayOnlyFlags are emu sensitivity's flags that mean nothing to a delay
// sweep (they steer the LP over one recorded graph); --delay refuses them.
var delayOnlyFlags = []string{"range", "points", "tolerance", "plot", "lp", "graph", "latency", "class", "pairwise", "mpi-time", "place", "verify", "bandwidth-tolerance"}

// parseDelays reads --delay: a comma-separated list of durations.
func parseDelays(text string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(text, ",") {
		d, err := parseSeconds(f)
		if err != nil {
			return nil, fmt.Errorf("--delay: %q: %v", f, err)
		}
		out = append(out, d)
	}
	distinct := map[float64]bool{}
	for _, d := range out {
		distinct[d] = true
	}
	if len(distinct) < 2 {
		return nil, fmt.Errorf("--delay: %q: give two delays or more (the fit needs two points), e.g. 0,2us,5us", text)
	}
	return out, nil
}

// runDelaySensitivity runs each scenario at each delay (Netscope's delay
// sensitivity: network.message_delay set to each, with the scenario's own
// distribution and link class), fits T = slope·M + k, and prints the
// scenarios ranked by c_a.
func runDelaySensitivity(cmd *cobra.Command, files []string, sf *scenarioFlags, delays []float64, jsonOut string) error {
	for _, name := range delayOnlyFlags {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--delay: --%s steers the latency analysis of one recorded graph, not a delay sweep", name)
		}
	}
	for _, name := range []string{"seeds", "perturb", "jobs"} {
		if cmd.Flags().Changed(name) {
			// A delay sweep runs each delay once: the ensemble would be dropped.
			return fmt.Errorf("--delay: --%s makes ensembles of --verify's re-emulations; a delay sweep runs each delay once", name)
		}
	}
	if len(files) == 0 {
		files = []string{""} // the embedded default
	}
	plans := make([]*scenario.Plan, len(files))
	var inputs []string
	for i, f := range files {
		p, err := sf.plan(f)
		if err != nil {
			return err
		}
		// What runner.DelaySweep cannot run is the input's fault (exit 2),
		// refused before any scenario runs (it exited 1 after the others').
		name := f
		switch {
		case name == "" && p.Trace != nil:
			name = p.Trace.Name
		case name == "":
			name = "(default)"
		}
		switch {
		case p.App == scenario.AppJobs:
			return fmt.Errorf("%s: a delay sweep runs one application, not a scenario's [[jobs]]", name)
		case p.App == scenario.AppReplay && p.Semantics == replay.SemanticsLogGOPS:
			return fmt.Errorf(`%s: replay.semantics = "loggops" runs no ranks to delay messages of (a delay sweep needs the mpi semantics)`, name)
		}
		plans[i] = p
		inputs = append(inputs, p.Inputs...)
	}
	if err := checkOutputs(inputs, outputPath{"--json", jsonOut, false}); err != nil {
		return err
	}
	var fits []sensitivity.DelaySensitivity
	for i, p := range plans {
		name := files[i]
		switch {
		case name == "" && p.Trace != nil: // --replay alone: the trace is what is measured
			name = p.Trace.Name
		case name == "":
			name = "(default)"
		}
		pts, err := runner.DelaySweep(p, delays, runner.Options{})
		if err != nil {
			return runError(fmt.Errorf("%s: %w", name, inPlatform(err, p)))
		}
		d, err := sensitivity.FitDelay(name, p.Ranks, pts)
		if err != nil {
			// the scenario (no message to delay) or the delays asked for
			// leave nothing to fit: bad input, not a failure of emu
			return fmt.Errorf("%s: %w", name, err)
		}
		fits = append(fits, d)
	}
	sensitivity.RankByDelay(fits)
	if err := writeDelayTable(cmd.OutOrStdout(), fits); err != nil {
		return asFailure(err)
	}
	if jsonOut != "" {
		err := writeFileAtomic(jsonOut, func(w io.Writer) error {
			return jsonout.Encode(w, struct {
				Delays []float64                      `json:"delays_s"`
				Apps   []sensitivity.DelaySensitivity `json:"apps"`
			}{delays, fits})
		})
		if err != nil {
			return outputFailed("--json", jsonOut, err)
		}
	}
	return nil
}

// writeDelayTable prints the ranking and each scenario's runs.
func writeDelayTable(out io.Writer, fits []sensitivity.DelaySensitivity) error {
	fmt.Fprintln(out, "delay sensitivity (Netscope): T = slope·M + k fitted over the runs; c_a = slope / m̄, m̄ = 2·messages/ranks (a ping-pong is 1)")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tscenario\tranks\tm̄\tslope\tk\tR²\tc_a\t")
	for i, d := range fits {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.4g\t%.6g\t%s\t%.6f\t%.4g\t\n", i+1, d.Name, d.Ranks, d.MessagesPerRank, d.Slope, sensitivity.FormatSeconds(d.K), d.R2, d.CA)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, d := range fits {
		fmt.Fprintf(out, "%s:\n", d.Name)
		tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "delay\tT\tM\tmessages\t")
		for _, p := range d.Points {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t\n", sensitivity.FormatSeconds(p.Delay), sensitivity.FormatSeconds(p.T), sensitivity.FormatSeconds(p.M), p.Messages)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if f := d.Fall; f != nil {
			// A delay on every message cannot shorten a run of fixed order:
			// the run adapts to timing, and the fit is of that, not of the delay.
			fmt.Fprintf(out, "  T falls from %s at %s to %s at %s: this run's order of events moves with its timing (as HPL's polling broadcasts do), so one run a delay moves by more than the delay does (R² %.3f); one delay's spread: emu run with the same inputs and --set network.message_delay=%s --perturb 8\n",
				sensitivity.FormatSeconds(f.FromT), sensitivity.FormatSeconds(f.FromDelay), sensitivity.FormatSeconds(f.ToT), sensitivity.FormatSeconds(f.ToDelay), d.R2, durationArg(f.ToDelay))
		}
	}
	return nil
}

// durationArg writes seconds as a --set value emu reads back, in µs to 12
// digits (the delays a user types).
func durationArg(s float64) string {
	return strconv.FormatFloat(s*1e6, 'g', 12, 64) + "us"
}
