package observe

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/sensitivity"
)

// LatencyMode says what the execution graph's latency ℓ (class 0) stands for,
// and so how many ℓ terms a network message's edges carry.
type LatencyMode uint8

const (
	// WireLatency (the default): ℓ is one link's latency and a message whose
	// route crosses h switches carries h+1 terms, one per link (LLAMP Appendix H);
	// a platform's switch latency (platform.switch_latency) is a class of its
	// own, h terms, held at its value while ℓ moves.
	// Moving ℓ by d moves a 2-link message by 2d and a 4-link one by 4d, exactly
	// as re-emulating with platform.link_latency raised by d does under cm02, on
	// flat clusters and fat trees alike.
	//
	// Latency factors (network.model = "smpi") scale a message's route latency by
	// f(size). Counts are integers, so f·(h+1) cannot be one count: the message
	// carries h+1 terms of class 0 (the latency at factor 1) and, when f > 1, h+1
	// terms of a class c ≥ 1 kept for that factor, whose baseline latency is
	// (f−1)·ℓ0. At the baseline the graph is exact. Sweeping class 0 holds the
	// factor classes, so T(ℓ) rises by Σ (h+1) over the critical messages where
	// re-emulation rises by Σ f·(h+1): the slope of re-emulation is
	// λ_0 + Σ_c (f_c−1)·λ_c from the per-class report, exact while the critical
	// path holds. A factor < 1 stays in the message's constant part.
	WireLatency LatencyMode = iota
	// EndToEndLatency: ℓ is one message's end-to-end latency (route latency ×
	// latency factor) and every network message carries one term; the graph is
	// analysed at the most common one. Messages of other latencies (fat-tree
	// routes of other lengths, other latency factors) are charged ℓ0 at the
	// baseline and move by the same ΔL as all others.
	EndToEndLatency
)

var latencyModeNames = [...]string{WireLatency: "wire", EndToEndLatency: "end-to-end"}

func (m LatencyMode) String() string {
	if int(m) < len(latencyModeNames) {
		return latencyModeNames[m]
	}
	return fmt.Sprintf("LatencyMode(%d)", m)
}

// ParseLatencyMode reads "wire" or "end-to-end".
func ParseLatencyMode(s string) (LatencyMode, error) {
	for m, name := range latencyModeNames {
		if s == name {
			return LatencyMode(m), nil
		}
	}
	return 0, fmt.Errorf("latency mode %q: want \"wire\" or \"end-to-end\"", s)
}

// RecordOptions configures a GraphRecorder.
type RecordOptions struct {
	Latency LatencyMode
	// LatFactor is the latency factor of a message of that many payload bytes,
	// as the World applies it (nil = 1, cm02). Only wire mode needs it: it
	// separates a message's link latencies from the factor's scaling.
	LatFactor func(bytes int) float64
	// SwitchLatency is the platform's latency at each switch a route crosses
	// (platform.switch_latency), s. Above 0, wire mode gives the switches a
	// class of their own, "switch", counting each message's switches (LLAMP
	// Appendix H's h·ℓ_switch), analysed at this latency. Without it the
	// switches cost nothing and have no class: every output stays as it was
	// (a platform's switch delays are then inside its link latencies, as in
	// SimGrid's).
	SwitchLatency float64
	// LinkLatency is the platform's link latency, s: in WireLatency mode the
	// baseline ℓ of a run whose ranks send no network message, which would
	// otherwise say 0 for a platform that has a latency (nothing in such a
	// graph depends on it).
	LinkLatency float64
}

// latencyQuantum is the grid class-0 latencies are rounded to before they are
// counted for the baseline, s: route latency / links differs from the link
// latency by a rounding error in the last bits, far below it; the baseline is
// the first exact value seen in the most common cell.
const latencyQuantum = 1e-18

// latencyTerms returns a network message's latency terms (appended to buf), the
// rest of its network time, and its class-0 latency: the edge costs
// Σ terms + rest = ev.Transfer when ℓ is that class-0 latency (and each factor
// class at its baseline).
func (g *GraphRecorder) latencyTerms(ev *ranks.Event, buf []sensitivity.LatTerm) ([]sensitivity.LatTerm, float64, float64) {
	if g.mode == EndToEndLatency {
		return append(buf, sensitivity.LatTerm{Class: 0, Count: 1}), ev.Transfer - ev.Latency, ev.Latency
	}
	links := max(ev.Hops+1, 1)
	f := 1.0
	if g.factor != nil {
		f = g.factor(ev.Bytes)
	}
	if !(f > 0) || math.IsInf(f, 1) {
		f = 1 // the World would not have run with such a factor; keep the edge exact
	}
	route := ev.Latency / f // the route latency: its links' latencies and its switches'
	switches := float64(ev.Hops) * g.switchLat
	wires := route - switches
	buf = g.linkTerms(ev, links, wires, buf)
	if ev.Hops > 0 && g.switchLat > 0 {
		if c, ok := g.switchClass(); ok {
			buf = append(buf, sensitivity.LatTerm{Class: c, Count: int32(ev.Hops)})
		}
	}
	rest := ev.Transfer - route
	if c, ok := g.factorClass(f); ok {
		// The factor's excess over the cables is a class; over the switches
		// it stays in the constant part.
		buf = append(buf, sensitivity.LatTerm{Class: c, Count: int32(links)})
		rest = ev.Transfer - ev.Latency + (f-1)*switches
	}
	return buf, rest, wires / float64(links)
}

// switchClass is the latency class of the switches, numbered at first use;
// false when the classes run out (the switches' latency then stays in the
// messages' constant part).
func (g *GraphRecorder) switchClass() (uint8, bool) {
	if g.switchCls >= 0 {
		return uint8(g.switchCls), true
	}
	c, ok := g.newClass(classInfo{name: SwitchClass, switches: true})
	if ok {
		g.switchCls = int(c)
	}
	return c, ok
}

// factorClass is the latency class carrying the excess of factor f > 1, assigned
// in order of first use; false for f ≤ 1 or when the classes run out (the excess
// then stays in the constant part).
func (g *GraphRecorder) factorClass(f float64) (uint8, bool) {
	if !(f > 1) {
		return 0, false
	}
	if c, ok := g.excess[f]; ok {
		return c, true
	}
	c, ok := g.newClass(classInfo{factor: f})
	if !ok {
		return 0, false
	}
	g.factors = append(g.factors, f)
	g.excess[f] = c
	return c, true
}

func quantize(l float64) float64 { return math.Round(l/latencyQuantum) * latencyQuantum }
