package fluid

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Perturbed returns t with every link's latency and bandwidth multiplied by
// 1+ε, a fresh ε for each drawn uniformly from [−rel, rel] by rng (latency then
// bandwidth, in link order), and each route's latency moved by the change of
// its links' latencies (a switch latency in it, WithSwitchLatency, is kept).
// emu run --perturb moves a run's inputs by parts in 10⁹ this way, to show
// how far a deterministic but chaotic run (one whose order of events flips on
// ties) moves for changes far below any measurement's precision. Hosts, link
// IDs and routes' links are t's. rel = 0 returns t itself; rel must be in
// [0, 1).
func Perturbed(t Topology, rel float64, rng *rand.Rand) (Topology, error) {
	if !(rel >= 0 && rel < 1) {
		return nil, fmt.Errorf("fluid: perturbation %v, want 0 ≤ rel < 1", rel)
	}
	if rel == 0 {
		return t, nil
	}
	links := append([]Link(nil), t.Links()...)
	dlat := make([]float64, len(links))
	scale := make([][2]float64, len(links))
	for i := range links {
		el, eb := rel*(2*rng.Float64()-1), rel*(2*rng.Float64()-1)
		dlat[i] = links[i].Latency * el
		links[i].Latency += dlat[i]
		scale[i] = [2]float64{1 + el, 1}
		if !math.IsInf(links[i].Bandwidth, 1) {
			links[i].Bandwidth *= 1 + eb
			scale[i][1] = 1 + eb
		}
	}
	return perturbed{Topology: t, links: links, dlat: dlat, scale: scale}, nil
}

// LinkScaled is a topology whose links' latencies and bandwidths are
// another's scaled (Perturbed): a link's profiles, whose values replace
// its latency or bandwidth in time, scale with it, so that a perturbed
// run moves them too.
type LinkScaled interface {
	// LinkScale returns the factors of link l's latency and bandwidth.
	LinkScale(l LinkID) (latency, bandwidth float64)
}

type perturbed struct {
	Topology
	links []Link
	dlat  []float64    // each link's latency change, s
	scale [][2]float64 // each link's latency and bandwidth factors
}

func (p perturbed) LinkScale(l LinkID) (latency, bandwidth float64) {
	return p.scale[l][0], p.scale[l][1]
}

func (p perturbed) Links() []Link { return p.links }

func (p perturbed) Route(src, dst int) Route {
	rt := p.Topology.Route(src, dst)
	for _, l := range rt.Links {
		rt.Latency += p.dlat[l]
	}
	return rt
}

func (x perturbed) unwrap() Topology { return x.Topology }
