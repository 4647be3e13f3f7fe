package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/internal/atomicfile"
	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/models"
)

// probeTimer times the probe's runs; nil measures them (kernels.Measure).
// Tests set a fake one to give the node a known speed.
var probeTimer func(f func()) float64

// thisNode describes the machine emu runs on; tests give another.
var thisNode = calibration.ThisNode

// checkFlags are emu calibrate's --check mode.
type checkFlags struct {
	models  string // --check: the models file whose probe is measured again
	rescale bool   // --rescale: write the models rescaled by the drift
	out     string // -o: where (default MODELS.rescaled.toml)
	host    string // --host: which node's probe (default this one's)
}

// runCheck measures this node's probe again, compares it with the models
// file's and, with --rescale, writes the models rescaled by the ratio.
func runCheck(w io.Writer, cf checkFlags) error {
	out := cf.out
	if out == "" {
		out = strings.TrimSuffix(cf.models, filepath.Ext(cf.models)) + ".rescaled.toml"
	}
	if cf.rescale {
		// Bad input is refused before the probe is measured.
		// -o the models file itself rescales it in place: no input to refuse.
		if err := checkOutputs(nil, outputPath{"-o", out, false}); err != nil {
			return err
		}
	}
	data, err := inputfile.ReadFile(cf.models)
	if err != nil {
		return fmt.Errorf("--check: %w", err)
	}
	set, err := models.ParseSet(data, cf.models)
	if err != nil {
		return err
	}
	probes := set.Probes()
	if len(probes) == 0 {
		return fmt.Errorf("--check %s: the models carry no probe (fitted from samples of an older emu, or not calibrated by emu): nothing to compare with; calibrate this node again", cf.models)
	}
	node := thisNode()
	host := node.Host
	if cf.host != "" {
		host = cf.host
	}
	ref, ok := calibration.ReferenceFor(probes, host)
	if cf.host != "" && ref.Host != cf.host {
		// A file of one node stands for this machine whatever its name, but a
		// node asked for by name is that node: another one's probe is no answer.
		ok = false
	}
	if !ok {
		return fmt.Errorf("--check %s: no probe of %s among those of %s (--host NAME picks one)", cf.models, host, probeHosts(probes))
	}
	opt, err := calibration.OptionsFor(ref, calibration.ProbeRuns)
	if err != nil {
		return fmt.Errorf("--check %s: %w", cf.models, err)
	}
	opt.Node, opt.Timer = node, probeTimer
	now, err := calibration.MeasureProbe(opt)
	if err != nil {
		return fmt.Errorf("--check: %w", err)
	}
	d, err := calibration.Compare(ref, now)
	if err != nil {
		return fmt.Errorf("--check %s: %w", cf.models, err)
	}
	fmt.Fprintf(w, "%s: %s probe of %s, %s: %.4g Gflop/s (%s, %s clock, median of %d)\n",
		cf.models, probeCall(ref), ref.Host, probeWhen(ref), ref.Gflops, ref.Backend, ref.Clock, ref.Runs)
	fmt.Fprintf(w, "%s now: %.4g Gflop/s (median of %d): calls take %.4gx as long as when calibrated (%s)\n",
		now.Host, now.Gflops, now.Runs, d.Ratio, driftWords(d.Ratio))
	if len(d.Differs) > 0 {
		fmt.Fprintf(w, "node: not the calibrated one: %s\n", strings.Join(d.Differs, "; "))
	} else {
		fmt.Fprintf(w, "node: the calibrated one (host, CPU and cores agree)\n")
	}
	if !cf.rescale {
		hostFlag := ""
		if cf.host != "" {
			hostFlag = " --host " + shellQuote(cf.host)
		}
		fmt.Fprintf(w, "rescale the models to this drift with: emu calibrate --check %s%s --rescale\n", shellQuote(cf.models), hostFlag)
		return nil
	}
	rescaled, kernels, err := calibration.Rescale(set, d)
	if err != nil {
		return asFailure(err)
	}
	text, err := rescaled.MarshalTOML()
	if err != nil {
		return asFailure(err)
	}
	header := fmt.Sprintf("# %s rescaled by %.6g (emu calibrate --check: %s dgemm %.4g Gflop/s then, %.4g now)\n",
		cf.models, d.Ratio, ref.Host, ref.Gflops, now.Gflops)
	if err := atomicfile.WriteFile(out, append([]byte(header), text...), 0o644); err != nil {
		return asFailure(err)
	}
	scope := "the models of every host"
	if len(probes) > 1 {
		scope = "the models of " + ref.Host
	}
	fmt.Fprintf(w, "wrote %s: %s × %.6g (%s; HPL's copies and interchanges unchanged)\n", out, strings.Join(kernels, ", "), d.Ratio, scope)
	return nil
}

func probeCall(p models.Probe) string { return fmt.Sprintf("%s %d³", p.Kernel, p.Size) }

// probeWhen is when a probe was measured, or "time unknown" for a probe
// written without its time.
func probeWhen(p models.Probe) string {
	if p.Time.IsZero() {
		return "time unknown"
	}
	return p.Time.UTC().Format("2006-01-02 15:04 MST")
}

// driftWords says a ratio of durations in words.
func driftWords(r float64) string {
	pct := func(x float64) string { // %.1f of 10³⁰⁰ is 300 digits
		if x < 1e5 {
			return fmt.Sprintf("%.1f%%", x)
		}
		return fmt.Sprintf("%.3g%%", x)
	}
	switch {
	case r > 1:
		return pct(100*(r-1)) + " slower"
	case r < 1:
		return pct(100*(1/r-1)) + " faster"
	}
	return "unchanged"
}

// probeHostsShown is how many of a models file's probed nodes a message
// names: a campaign on a whole cluster carries hundreds, and one warning line
// naming 1,024 hosts is 6 KB of stderr.
const probeHostsShown = 8

// probeHosts names the nodes the probes were taken on, in the file's order:
// every one up to probeHostsShown, else the first few and how many more.
func probeHosts(probes []models.Probe) string {
	hosts := make([]string, 0, min(len(probes), probeHostsShown))
	for _, p := range probes {
		if len(hosts) == probeHostsShown-1 && len(probes) > probeHostsShown {
			return fmt.Sprintf("%s and %d more (%d nodes)", strings.Join(hosts, ", "), len(probes)-len(hosts), len(probes))
		}
		hosts = append(hosts, p.Host)
	}
	return strings.Join(hosts, ", ")
}
