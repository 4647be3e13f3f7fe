package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/scenario"
)

// noteNodes says on w, in a line each, what emu run should tell about the
// nodes before it runs: the hosts' speed factors of a variability what-if,
// and models calibrated on another node or aged (warnAgedModels).
func noteNodes(w io.Writer, plan *scenario.Plan) {
	noteHostSpeeds(w, plan)
	warnAgedModels(w, plan)
}

// noteHostSpeeds names the hosts that do not run at 1 ([kernels] host_speed,
// host_spread), all of them when few, else the slowest and fastest and the
// spread: which hosts were slow, where --json lists every one.
func noteHostSpeeds(w io.Writer, plan *scenario.Plan) {
	speeds := plan.Kernels.HostSpeed
	if len(speeds) == 0 {
		return
	}
	if apps := computingNothing(plan); apps != "" {
		// The what-if was asked of a run it cannot move: say so, once.
		defer fmt.Fprintf(w, "emu: note: %s computes nothing (messages alone): host speeds change no time\n", apps)
	}
	hosts := slices.Sorted(maps.Keys(speeds))
	if len(hosts) <= 4 {
		parts := make([]string, len(hosts))
		for i, h := range hosts {
			parts[i] = fmt.Sprintf("%s %.4g", h, speeds[h])
		}
		others := ""
		if len(hosts) < plan.Platform.Hosts {
			others = "; the others 1"
		}
		fmt.Fprintf(w, "emu: host speeds (durations ÷ speed): %s%s\n", strings.Join(parts, ", "), others)
		return
	}
	slow, fast := hosts[0], hosts[0]
	var sum, sum2 float64
	for _, h := range hosts {
		v := speeds[h]
		if v < speeds[slow] {
			slow = h
		}
		if v > speeds[fast] {
			fast = h
		}
		sum += v
		sum2 += v * v
	}
	ones := plan.Platform.Hosts - len(hosts) // the hosts at 1, which speeds leaves out
	n := float64(plan.Platform.Hosts)
	sum += float64(ones)
	sum2 += float64(ones)
	mean := sum / n
	// An end held by the hosts at 1 is named by their count.
	end := func(h string, beyond bool) string {
		if ones > 0 && beyond {
			return fmt.Sprintf("the %d at 1", ones)
		}
		return fmt.Sprintf("%s %.4g", h, speeds[h])
	}
	fmt.Fprintf(w, "emu: host speeds (durations ÷ speed) of %d hosts: slowest %s, fastest %s, mean %.4g, SD %.3g%% (--json lists each)\n",
		plan.Platform.Hosts, end(slow, speeds[slow] > 1), end(fast, speeds[fast] < 1), mean, 100*math.Sqrt(max(sum2/n-mean*mean, 0)))
}

// computingNothing names the run's applications when none of them
// computes (ping-pong, ring, congestor: messages alone), which a host's
// speed factor cannot slow; "" when one does (HPL, a replay).
func computingNothing(plan *scenario.Plan) string {
	apps := []string{plan.App}
	if len(plan.Jobs) > 0 {
		apps = apps[:0]
		for _, j := range plan.Jobs {
			apps = append(apps, j.Plan.App)
		}
	}
	for _, a := range apps {
		if a != scenario.AppPingpong && a != scenario.AppRing && a != scenario.AppCongestor {
			return ""
		}
	}
	slices.Sort(apps)
	return strings.Join(slices.Compact(apps), " and ")
}

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
		now.Gflops, ref.Gflops, probeWhen(ref), d.Ratio, driftWords(d.Ratio))
}
