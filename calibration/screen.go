package calibration

import (
	"math"
	"slices"
	"sort"
)

// Screening: a sample is suspect when its time per unit of work departs from
// its neighbours' (the screenNeighbours samples of the same kernel and host
// closest in work) by more than screenRatio and by more than screenZ robust
// standard deviations of the neighbours' own scatter. A kernel's time per
// unit of work varies smoothly with the call's size, so a sample far off
// its neighbours is a disturbed measurement (an interrupt storm, a page
// fault burst, a neighbour's job), not a property of the kernel. The
// neighbours were measured at other moments (measureOrder), so a stretch of
// slow seconds on a shared machine shows too: 1.8× on this project's VM,
// which a ratio of 2 let through.
const (
	screenNeighbours = 8
	screenMinSamples = 6   // fewer samples of a kernel are not screened
	screenRatio      = 1.5 // × the neighbours' median time per work
	screenZ          = 5.0 // robust standard deviations (1.4826·MAD of log ratio)
)

// Suspects returns the positions in samples of the suspect ones (see the
// constants above), in increasing order. Samples already marked outliers
// are not used as neighbours.
func Suspects(samples []Sample) []int {
	type point struct {
		pos  int
		logW float64 // log of the call's work
		logR float64 // log of seconds per unit of work
	}
	groups := map[[2]string][]point{}
	for i, s := range samples {
		if s.Status == StatusOutlier || s.Seconds <= 0 {
			continue
		}
		w := work(Call{Kernel: s.Kernel, M: s.M, N: s.N, K: s.K})
		if w <= 0 {
			continue
		}
		key := [2]string{s.Kernel, s.Host}
		groups[key] = append(groups[key], point{pos: i, logW: math.Log(w), logR: math.Log(s.Seconds / w)})
	}
	var out []int
	for _, g := range groups {
		if len(g) < screenMinSamples {
			continue
		}
		sort.Slice(g, func(a, b int) bool { return g[a].logW < g[b].logW || g[a].logW == g[b].logW && g[a].pos < g[b].pos })
		nb := make([]float64, 0, screenNeighbours)
		for i, p := range g {
			// The screenNeighbours nearest in log work, found by widening a
			// window around i in the sorted order.
			nb = nb[:0]
			lo, hi := i-1, i+1
			for len(nb) < screenNeighbours && (lo >= 0 || hi < len(g)) {
				switch {
				case hi >= len(g) || lo >= 0 && p.logW-g[lo].logW <= g[hi].logW-p.logW:
					nb = append(nb, g[lo].logR)
					lo--
				default:
					nb = append(nb, g[hi].logR)
					hi++
				}
			}
			med := median(nb)
			dev := make([]float64, len(nb))
			for j, x := range nb {
				dev[j] = math.Abs(x - med)
			}
			sigma := 1.4826 * median(dev)
			off := math.Abs(p.logR - med)
			if off > math.Log(screenRatio) && off > screenZ*sigma {
				out = append(out, p.pos)
			}
		}
	}
	slices.Sort(out)
	return out
}
