package scenario

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/traceformat"
)

// replaySemantics resolves replay.semantics and, for "loggops", reads the
// LogGOPS parameters off the scenario, the mapping of README's "GOAL
// against LogGOPSim" turned around:
//
//   - o is network.send_overhead = isend_overhead = recv_overhead (LogGOPS
//     has one o; the three must agree);
//   - L is the route latency between two ranks' hosts, G the inverse of the
//     route's narrowest link: every pair of ranks must see the same (LogGOPS
//     has one L and one G; see allPairsRanks), so each rank needs a host
//     of its own;
//   - S = network.eager_threshold − 1 (emu's sends below the threshold are
//     eager, LogGOPSim's of at most S bytes);
//   - g is replay.gap, O is 0.
//
// The keys with no LogGOPS meaning (envelope, factors, weight_s, tcp_gamma,
// cross_traffic, async_threshold, wake_order, the collective algorithms)
// are not read.
func (s *Scenario) replaySemantics(p *Plan) error {
	sem, err := replay.ParseSemantics(s.Replay.Semantics)
	if err != nil {
		return s.errorAt("replay.semantics", err.Error())
	}
	p.Semantics = sem
	if sem != replay.SemanticsLogGOPS {
		if s.Replay.Gap.Set {
			return s.errorAt("replay.gap", `LogGOPS's g has no meaning under replay.semantics = "mpi" (set semantics = "loggops")`)
		}
		return nil
	}
	if s.job != nil {
		return s.errorAt("replay.semantics", "loggops runs one schedule alone, not a job of [[jobs]] beside others")
	}
	if p.Trace.Format != traceformat.FormatGOAL {
		return s.errorAt("replay.semantics", fmt.Sprintf("loggops replays GOAL schedules only; %s is a %s trace", p.Trace.Name, p.Trace.Format))
	}
	if len(p.Kernels.HostSpeed) > 0 {
		// LogGOPSim's calcs last what the schedule says, on no host: a
		// speed factor would be announced and change nothing.
		key := "kernels.host_spread"
		if len(s.Kernels.HostSpeed) > 0 {
			key = "kernels.host_speed"
		}
		return s.errorAt(key, `loggops has no hosts to slow: its calcs last what the schedule says (replay.semantics = "mpi" divides them by a host's speed factor)`)
	}
	n := s.Network
	for _, ov := range []struct {
		key string
		o   Overhead
	}{{"network.send_overhead", n.SendOverhead}, {"network.isend_overhead", n.IsendOverhead}, {"network.recv_overhead", n.RecvOverhead}} {
		if ov.o.Piecewise() {
			return s.errorAt(ov.key, "loggops has one overhead o, a time: not a piecewise table")
		}
	}
	o := n.SendOverhead.Seconds
	if n.IsendOverhead.Seconds != o || n.RecvOverhead.Seconds != o {
		return s.errorAt(s.oddOverhead(), fmt.Sprintf(
			"loggops has one overhead o: send_overhead, isend_overhead and recv_overhead must be equal (%g s, %g s, %g s)",
			o, n.IsendOverhead.Seconds, n.RecvOverhead.Seconds))
	}
	if p.Network.EagerThreshold < 1 {
		return s.errorAt("network.eager_threshold", "loggops needs eager_threshold ≥ 1 byte (LogGOPSim's S is eager_threshold − 1)")
	}
	if s.Replay.Gap.Set && !(s.Replay.Gap.Seconds >= 0) {
		return s.errorAt("replay.gap", fmt.Sprintf("%g s, want ≥ 0", s.Replay.Gap.Seconds))
	}
	L, G, err := p.uniformRoutes()
	if err != nil {
		return s.errorAt("replay.semantics", err.Error())
	}
	p.LogGOPS.L, p.LogGOPS.G, p.LogGOPS.O, p.LogGOPS.Gap = L, G, o, s.Replay.Gap.Seconds
	p.LogGOPS.S = int64(p.Network.EagerThreshold) - 1
	return nil
}

// allPairsRanks is the most ranks whose routes uniformRoutes compares pair
// by pair (4 M routes, a fraction of a second); above it, only the routes
// from and to ranks 0 and 1 are compared (2 per rank), which finds any
// difference on a flat cluster, whose route latency is the sum of its two
// hosts' links, and on the switched topologies any placement of ranks at
// two distances from rank 0.
const allPairsRanks = 2048

// uniformRoutes returns the latency (s) and the inverse narrowest bandwidth
// (s/byte) of the routes between the plan's ranks, or an error naming two
// pairs of ranks that disagree, or two ranks on one host.
func (p *Plan) uniformRoutes() (L, G float64, err error) {
	topo, err := p.Platform.Build()
	if err != nil {
		return 0, 0, err
	}
	hosts := p.Platform.Placement(p.Ranks)
	byHost := make(map[int]int, len(hosts))
	for r, h := range hosts {
		if q, ok := byHost[h]; ok {
			return 0, 0, fmt.Errorf("loggops gives each rank a host of its own; ranks %d and %d share host %s", q, r, topo.HostName(h))
		}
		byHost[h] = r
	}
	links := topo.Links()
	first := true
	var at [2]int
	check := func(a, b int) error {
		if a == b {
			return nil
		}
		rt := topo.Route(hosts[a], hosts[b])
		l, g := rt.Latency, routeG(links, rt)
		if first {
			L, G, at, first = l, g, [2]int{a, b}, false
			return nil
		}
		if l != L || g != G {
			return fmt.Errorf("loggops has one L and one G, but ranks %d→%d see %g s and %g B/s, ranks %d→%d %g s and %g B/s (use a flat platform)",
				at[0], at[1], L, 1/G, a, b, l, 1/g)
		}
		return nil
	}
	from := len(hosts) // ranks whose routes to and from every rank are compared
	if from > allPairsRanks {
		from = 2
	}
	for a := 0; a < from; a++ {
		for b := range hosts {
			if err := check(a, b); err != nil {
				return 0, 0, err
			}
			if from == len(hosts) {
				continue // (b, a) comes in its turn
			}
			if err := check(b, a); err != nil {
				return 0, 0, err
			}
		}
	}
	return L, G, nil
}

// routeG is the time per byte of route rt: the inverse of its narrowest
// link's bandwidth (0 for a route without links).
func routeG(links []fluid.Link, rt fluid.Route) float64 {
	bw := math.Inf(1)
	for _, l := range rt.Links {
		bw = min(bw, links[l].Bandwidth)
	}
	return 1 / bw
}

// oddOverhead is the overhead key to blame when the three differ: the one
// unlike the other two, or where all three differ the first a --set gave
// (else isend_overhead).
func (s *Scenario) oddOverhead() string {
	keys := [3]string{"network.send_overhead", "network.isend_overhead", "network.recv_overhead"}
	n := s.Network
	v := [3]float64{n.SendOverhead.Seconds, n.IsendOverhead.Seconds, n.RecvOverhead.Seconds}
	switch {
	case v[1] == v[2]:
		return keys[0]
	case v[0] == v[2]:
		return keys[1]
	case v[0] == v[1]:
		return keys[2]
	}
	for _, k := range keys {
		if _, set := s.SetBy(k); set {
			return k
		}
	}
	return keys[1]
}
