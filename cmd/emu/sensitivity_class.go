package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// checkClassFlag checks --class before the emulation: it needs wire mode and
// must name a link class of the platform (its cables, not its limiters or
// loopbacks), the switches' class when the platform has a switch latency, or a
// latency factor's class ("factor…", known only after the run).
func checkClassFlag(plan *scenario.Plan, class string, mode observe.LatencyMode) error {
	if class == "" {
		return nil
	}
	if mode != observe.WireLatency {
		return fmt.Errorf("--class %s: per-class latencies need --latency wire (end to end, a message has one latency)", class)
	}
	if strings.HasPrefix(class, "factor") {
		return nil
	}
	if class == observe.SwitchClass {
		if plan.Platform.SwitchLatency > 0 {
			return nil
		}
		return fmt.Errorf("--class %s: the platform has no switch latency (set platform.switch_latency)", class)
	}
	topo, err := plan.Platform.Build()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, l := range topo.Links() {
		if l.Class != "limiter" && l.Class != "loopback" {
			seen[l.Class] = true
		}
	}
	if seen[class] {
		return nil
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Errorf("--class %s: the platform's link classes are %s", class, strings.Join(names, ", "))
}

// sweepOneClass points p at class name of the per-link-class graph: every class
// at the run's latency, the named one swept from its own (over --range, or
// 50 µs above it when defaultRange). It returns the graph to analyse.
func sweepOneClass(cg *observe.ClassGraph, name string, p *sensitivity.Params, defaultRange bool) (*sensitivity.Graph, error) {
	if cg == nil {
		return nil, fmt.Errorf("--class %s: the run recorded no per-class graph", name)
	}
	c, ok := cg.Class(name)
	if !ok {
		return nil, fmt.Errorf("--class %s: no message of the run crossed such a link (its classes: %s)", name, strings.Join(cg.Names, ", "))
	}
	base := cg.Graph.Baseline()
	p.Latencies, p.Class, p.L0 = base, c, base[c]
	if defaultRange {
		p.Lmin, p.Lmax = p.L0, p.L0+sensitivityRange
	}
	return cg.Graph, nil
}
