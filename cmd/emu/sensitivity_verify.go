package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// sensitivityExtras are the flags of emu sensitivity that re-emulate:
// --verify (issue 12.4) and --bandwidth-tolerance (issue 12.3).
type sensitivityExtras struct {
	verify    int
	bandwidth string
	bwPcts    []float64 // --bandwidth-tolerance, parsed by check
	// ensemble: --verify re-emulates each latency as an ensemble and
	// compares with its median (sensitivity_verify_ensemble.go).
	ensemble ensembleFlags
}

func (ex *sensitivityExtras) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&ex.verify, "verify", 0, "re-emulate at `K` link latencies across --range, record a new graph wherever the recorded ones depart by over 1% (with --seeds or --perturb: each latency an ensemble, compared by its median, and over the larger of 1% and the noise floor at L0), and report the verified T(ℓ) (wire mode; 0: none)")
	ex.ensemble.add(cmd, true)
	fl.StringVar(&ex.bandwidth, "bandwidth-tolerance", "", "per link class, the least bandwidth (others held) keeping T within these `percents`, found by re-emulation, with the graph's prediction beside it (e.g. 1,2,5; default: none)")
}

// check refuses bad --verify and --bandwidth-tolerance values before the run.
func (ex *sensitivityExtras) check(cmd *cobra.Command, plan *scenario.Plan, mode observe.LatencyMode, class string) error {
	if err := ex.ensemble.check(cmd); err != nil {
		return err
	}
	if ex.ensemble.on() && ex.verify == 0 {
		return fmt.Errorf("--seeds, --perturb: only meaningful with --verify (each re-emulation an ensemble)")
	}
	if ex.verify < 0 || ex.verify > sensitivity.MaxVerify {
		return fmt.Errorf("--verify %d: want a number of re-emulations from 1 to %d (0: none)", ex.verify, sensitivity.MaxVerify)
	}
	if ex.verify > 0 && mode != observe.WireLatency {
		return fmt.Errorf("--verify re-emulates with another link latency: it needs --latency wire")
	}
	if ex.verify > 0 && class != "" {
		return fmt.Errorf("--verify moves every link's latency; it cannot verify --class %s alone", class)
	}
	var err error
	if ex.bwPcts, err = parsePercents("--bandwidth-tolerance", ex.bandwidth); err != nil {
		return err
	}
	if len(ex.bwPcts) > 0 && mode != observe.WireLatency {
		return fmt.Errorf("--bandwidth-tolerance works per link class: it needs --latency wire")
	}
	return nil
}

// rerun makes the scenario's plan again for a re-emulation, with extra sets.
type rerun struct {
	sf   *scenarioFlags
	file string
	mode observe.LatencyMode
	note io.Writer // one line per re-emulation, unless nil (-q)
}

// say prints a progress line to note, if any.
func (r rerun) say(format string, args ...any) {
	if r.note != nil {
		fmt.Fprintf(r.note, "emu: "+format+"\n", args...)
	}
}

func (r rerun) plan(extra ...string) (*scenario.Plan, error) {
	try := *r.sf
	try.sets = append(append([]string(nil), r.sf.sets...), extra...)
	return try.plan(r.file)
}

// linkLatencyAgreement is how closely the graph's L0 must be the platform's
// link latency for --verify to re-emulate by setting the latter, relative.
const linkLatencyAgreement = 1e-9

// hasLatencyTerm reports whether some edge of g carries a latency term: a
// message over a network link. Without one (ranks on one host, whose loopback
// carries none, or no message at all) the graph's L0 is 0 and T is flat in ℓ.
func hasLatencyTerm(g *sensitivity.Graph) bool {
	var buf []sensitivity.LatTerm
	for e := range g.NumEdges() {
		if buf = g.EdgeLat(e, buf[:0]); len(buf) > 0 {
			return true
		}
	}
	return false
}

// run re-emulates for --verify and --bandwidth-tolerance, prints their tables
// and fills doc.
func (ex *sensitivityExtras) run(out io.Writer, doc *sensitivityJSON, r rerun, res *runner.Result, p sensitivity.Params) error {
	if ex.verify > 0 {
		plan, err := r.plan()
		if err != nil {
			return err
		}
		if res.Graph != nil && !hasLatencyTerm(res.Graph) {
			return errors.New("--verify: no message of the run crosses a network link (its ranks share one host, or send nothing), so T does not depend on ℓ: nothing to re-emulate")
		}
		if link := plan.Platform.LinkLatency; math.Abs(link-p.L0) > linkLatencyAgreement*link {
			return fmt.Errorf("--verify re-emulates with network.link_latency = ℓ, but the run's ℓ (L0 = %s) is not the platform's link latency (%s)",
				sensitivity.FormatSeconds(p.L0), sensitivity.FormatSeconds(link))
		}
		if spec := ex.ensemble.spec(); spec != nil {
			if err := ex.verifyEnsembles(out, doc, r, plan, res, p, spec); err != nil {
				return err
			}
		} else if err := ex.verifyOnce(out, doc, r, res, p); err != nil {
			return err
		}
	}
	if len(ex.bwPcts) > 0 {
		bw, err := bandwidthTolerances(r, res, ex.bwPcts)
		if err != nil {
			return err
		}
		doc.Bandwidth = bw
		if err := writeBandwidth(out, bw); err != nil {
			return asFailure(err)
		}
	}
	return nil
}

// verifyOnce is --verify with single re-emulations.
func (ex *sensitivityExtras) verifyOnce(out io.Writer, doc *sensitivityJSON, r rerun, res *runner.Result, p sensitivity.Params) error {
	v, err := sensitivity.Verify(res.Graph, sensitivity.VerifyParams{
		L0: p.L0, T0: res.SimulatedTime, Lmin: p.Lmin, Lmax: p.Lmax, Points: p.Points, K: ex.verify,
	}, func(l float64) (float64, *sensitivity.Graph, error) {
		r.say("--verify: re-emulating at link latency %s", sensitivity.FormatSeconds(l))
		q, err := r.plan("network.link_latency=" + strconv.FormatFloat(l, 'g', -1, 64) + "s")
		if err != nil {
			return 0, nil, err
		}
		rr, err := runner.Run(q, runner.Options{Graph: true, GraphLatency: r.mode})
		if err != nil {
			return 0, nil, err
		}
		return rr.SimulatedTime, rr.Graph, nil
	})
	if err != nil {
		return asFailure(err)
	}
	doc.Verification = v
	if err := writeVerified(out, v, p.L0); err != nil {
		return asFailure(err)
	}
	return nil
}

// writeVerified prints the re-emulated points and the verified curve.
func writeVerified(w io.Writer, v *sensitivity.Verification, l0 float64) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "\nverified by re-emulation (%d emulations, the run's included; %d graph(s)):\n", v.Emulations, v.Graphs)
	fmt.Fprintf(tw, "L\tpredicted before\temulated\toff\tgraph\n")
	for _, pt := range v.Points {
		kept := "explained"
		if pt.Recorded {
			kept = "recorded"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.2f%%\t%s\n", sensitivity.FormatSeconds(pt.L), sensitivity.FormatSeconds(pt.Predicted),
			sensitivity.FormatSeconds(pt.Emulated), 100*(pt.Predicted-pt.Emulated)/pt.Emulated, kept)
	}
	fmt.Fprintf(tw, "\nL\tΔL\tT (verified)\n")
	for _, pt := range v.Curve {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sensitivity.FormatSeconds(pt.L), sensitivity.FormatSeconds(pt.L-l0), sensitivity.FormatSeconds(pt.T))
	}
	return tw.Flush()
}
