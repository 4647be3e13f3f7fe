package fluidtest

import (
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// Problem is a static max-min problem: links and the flows crossing them.
type Problem struct {
	Links []fluid.Link
	Flows []fluid.FlowSpec
}

// tieTol groups, in the reference solver, bottlenecks whose filling levels
// differ by less than this relative amount (dimensionless), so that
// rounding does not decide which of two tied links saturates first.
const tieTol = 1e-12

// coefs returns, per flow, its dense coefficient row over the links, merged
// as SimGrid merges repeated links: summed on Shared links, maxed on
// FatPipe links.
func coefs(p Problem) [][]float64 {
	rows := make([][]float64, len(p.Flows))
	for i, f := range p.Flows {
		row := make([]float64, len(p.Links))
		add := func(l fluid.LinkID, a float64) {
			if p.Links[l].Sharing == fluid.FatPipe {
				row[l] = math.Max(row[l], a)
			} else {
				row[l] += a
			}
		}
		for _, l := range f.Links {
			add(l, 1)
		}
		if f.ReverseShare > 0 {
			for _, l := range f.Reverse {
				add(l, f.ReverseShare)
			}
		}
		rows[i] = row
	}
	return rows
}

func weight(f fluid.FlowSpec) float64 {
	if f.Weight == 0 {
		return 1
	}
	return f.Weight
}

func bound(f fluid.FlowSpec) float64 {
	if f.Bound == 0 {
		return math.Inf(1)
	}
	return f.Bound
}

// Reference solves p by plain progressive filling, written for clarity, not
// speed (O(flows · links) per step): all unfixed flows rise together, flow
// f at rate t/weight_f; at each step compute, from scratch, the smallest
// level t at which a Shared link fills up, a FatPipe link reaches its
// capacity for one flow, or a flow reaches its bound; freeze every flow
// concerned at that level; repeat. A flow nothing constrains gets +Inf.
func Reference(p Problem) []float64 {
	a := coefs(p)
	n := len(p.Flows)
	x := make([]float64, n)
	fixed := make([]bool, n)
	for left := n; left > 0; {
		// Level at which each constraint binds, given the frozen flows.
		level := math.Inf(1)
		linkLevel := make([]float64, len(p.Links))
		for l, link := range p.Links {
			linkLevel[l] = math.Inf(1)
			if link.Sharing != fluid.Shared {
				continue
			}
			used, usage := 0.0, 0.0
			for f := range n {
				if fixed[f] {
					used += a[f][l] * x[f]
				} else {
					usage += a[f][l] / weight(p.Flows[f])
				}
			}
			if usage > 0 {
				linkLevel[l] = math.Max(0, link.Bandwidth-used) / usage
				level = math.Min(level, linkLevel[l])
			}
		}
		own := make([]float64, n) // level at which a flow's own caps bind
		for f := range n {
			own[f] = math.Inf(1)
			if fixed[f] {
				continue
			}
			w := weight(p.Flows[f])
			own[f] = bound(p.Flows[f]) * w
			for l, link := range p.Links {
				if link.Sharing == fluid.FatPipe && a[f][l] > 0 {
					own[f] = math.Min(own[f], link.Bandwidth*w/a[f][l])
				}
			}
			level = math.Min(level, own[f])
		}
		// Freeze the flows stopped at this level.
		for f := range n {
			if fixed[f] {
				continue
			}
			stop := math.IsInf(level, 1) || own[f] <= level*(1+tieTol)
			for l := range p.Links {
				if a[f][l] > 0 && linkLevel[l] <= level*(1+tieTol) {
					stop = true
				}
			}
			if stop {
				x[f] = level / weight(p.Flows[f])
				if own[f] <= level*(1+tieTol) {
					x[f] = own[f] / weight(p.Flows[f])
				}
				fixed[f] = true
				left--
			}
		}
	}
	return x
}
