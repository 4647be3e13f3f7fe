package stats

import (
	"math"
	"slices"
)

// Summary is one figure over an ensemble of runs.
type Summary struct {
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	P05    float64 `json:"p05"`    // 5th percentile: the 90% band's lower end
	P95    float64 `json:"p95"`    // 95th percentile: its upper end
	Median float64 `json:"median"` // 50th percentile
}

// Summarize returns the summary of xs, the figure of each run in run order.
// The mean is summed in that order, so the same runs give the same bits
// whatever order they finished in. xs is not modified; it must not be empty.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		panic("stats: Summarize of no runs")
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return Summary{
		Mean:   sum / float64(len(xs)),
		Min:    s[0],
		Max:    s[len(s)-1],
		P05:    Quantile(s, 0.05),
		P95:    Quantile(s, 0.95),
		Median: Quantile(s, 0.5),
	}
}

// Quantile is the p-quantile (0 ≤ p ≤ 1) of sorted, interpolated linearly
// between order statistics (definition 7): with h = (K−1)·p, the value at
// ⌊h⌋ plus (h − ⌊h⌋) of the step to the next.
func Quantile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		panic("stats: Quantile of no runs")
	}
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Identical reports whether every run gave the same value, bit for bit.
func (s Summary) Identical() bool { return s.Min == s.Max }

// Overlaps reports whether the 90% bands of s and t share a point: two
// candidates whose bands overlap are not told apart by these runs.
func (s Summary) Overlaps(t Summary) bool { return s.P05 <= t.P95 && t.P05 <= s.P95 }

// Spread is half the 90% band relative to the median, (p95 − p05)/(2·median):
// the noise floor a single run's figure carries. 0 when the median is 0.
func (s Summary) Spread() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.P95 - s.P05) / (2 * math.Abs(s.Median))
}
