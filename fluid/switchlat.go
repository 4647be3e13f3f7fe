package fluid

import (
	"fmt"
	"math"
)

// WithSwitchLatency returns t with a latency of l seconds at every switch a
// route crosses: a route of h switches (Route.Hops) and h+1 cables costs the
// cables' latencies plus h·l, LLAMP's (h+1)·ℓ_wire + h·ℓ_switch when the
// cables have one latency (Appendix H). SimGrid's platforms put a switch's
// delay into its links; this keeps it apart, so that it can be swept and
// analysed as a variable of its own. The links and their sharing are t's;
// a loopback route crosses no switch. l = 0 returns t itself.
func WithSwitchLatency(t Topology, l float64) (Topology, error) {
	if !(l >= 0) || math.IsInf(l, 1) {
		return nil, fmt.Errorf("fluid: switch latency must be ≥ 0 s, got %v", l)
	}
	if l == 0 {
		return t, nil
	}
	return switched{Topology: t, latency: l}, nil
}

type switched struct {
	Topology
	latency float64
}

func (s switched) Route(src, dst int) Route {
	rt := s.Topology.Route(src, dst)
	rt.Latency += float64(rt.Hops) * s.latency
	return rt
}

func (x switched) unwrap() Topology { return x.Topology }
