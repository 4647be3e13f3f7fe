package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/scenario"
)

// agedDrift is how far this node's quick probe may be from the models'
// reference before emu run warns: a ratio of durations beyond 1 ± 15%. A
// 3-run probe on a busy machine moves by several percent from run to run;
// the drift issue 32 saw (105 to 64 Gflop/s within minutes) is 64%.
const agedDrift = 0.15

// warnAgedModels says on w, in one line, when the run's models were
// calibrated on another node, or on this one when it ran at another speed
// than it does now (a quick probe, QuickProbeRuns runs of the reference's
// dgemm, a fraction of a second). Models that carry no probe (published
// ones, hand-written ones) are not checked: nothing is said.
func warnAgedModels(w io.Writer, plan *scenario.Plan) {
	probes := plan.Kernels.Models.Probes()
	if len(probes) == 0 {
		return
	}
	node := thisNode()
	ref, ok := calibration.ReferenceFor(probes, node.Host)
	if !ok {
		fmt.Fprintf(w, "emu: the models were calibrated on %s, not on this node (%s): the prediction is for those nodes\n", probeHosts(probes), node.Host)
		return
	}
	if differs := calibration.NodeDiffers(ref, node); len(differs) > 0 {
		fmt.Fprintf(w, "emu: the models were calibrated on another node (this one has %s): the prediction is for %s\n", strings.Join(differs, "; "), ref.Host)
		return
	}
	opt, err := calibration.OptionsFor(ref, calibration.QuickProbeRuns)
	if err != nil {
		return // a probe this build cannot repeat (another BLAS): no check
	}
	opt.Node, opt.Timer = node, probeTimer
	now, err := calibration.MeasureProbe(opt)
	if err != nil {
		return
	}
	d, err := calibration.Compare(ref, now)
	if err != nil || math.Abs(d.Ratio-1) <= agedDrift {
		return
	}
	fmt.Fprintf(w, "emu: this node's dgemm runs at %.3g Gflop/s, %.3g when the models were calibrated (%s): calls take %.3gx as long now (%s); emu calibrate --check MODELS --rescale writes models of the node as it is\n",
		now.Gflops, ref.Gflops, ref.Time.UTC().Format("2006-01-02 15:04 MST"), d.Ratio, driftWords(d.Ratio))
}
