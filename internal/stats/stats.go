package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Summary is one figure over an ensemble of runs.
type Summary struct {
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	P05    float64 `json:"p05"`    // 5th percentile: the 90% band's lower end
	P95    float64 `json:"p95"`    // 95th percentile: its upper end
	Median float64 `json:"median"` // 50th percentile
	SD     float64 `json:"sd"`     // sample standard deviation (K − 1 in the denominator); 0 for one run
	// Next is where one more run would fall with 90% probability, if the
	// runs are normally distributed: the prediction interval mean ∓
	// t₀.₉₅(K−1)·sd·√(1 + 1/K). Unlike the band, it widens for a small K, so
	// it is what an independent figure (a real run, another simulator's
	// draw) is held against. Nil for one run.
	Next *Interval `json:"next90,omitempty"`
}

// Interval is a closed range of a figure.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// LoNormal is, where SummarizeNonNegative cut the interval at 0, the
	// normal interval's own lower end (negative); 0 (left out of JSON)
	// where nothing was cut.
	LoNormal float64 `json:"lo_normal,omitempty"`
}

// Cut reports whether the interval's lower end was cut at 0 (LoNormal).
func (i Interval) Cut() bool { return i.LoNormal < 0 }

// Contains reports whether x lies in the interval.
func (i Interval) Contains(x float64) bool { return i.Lo <= x && x <= i.Hi }

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
	k := float64(len(xs))
	sum2 := 0.0
	mean := sum / k
	for _, x := range xs {
		sum2 += (x - mean) * (x - mean)
	}
	out := Summary{
		Mean:   mean,
		Min:    s[0],
		Max:    s[len(s)-1],
		P05:    Quantile(s, 0.05),
		P95:    Quantile(s, 0.95),
		Median: Quantile(s, 0.5),
	}
	if len(xs) > 1 {
		out.SD = math.Sqrt(sum2 / (k - 1))
		half := studentT95(len(xs)-1) * out.SD * math.Sqrt(1+1/k)
		out.Next = &Interval{Lo: mean - half, Hi: mean + half}
	}
	return out
}

// SummarizeNonNegative is Summarize for a figure that cannot be negative (a
// time, a rate, a size, a slowdown): the next run's interval starts at 0 at
// the lowest, and says so (Interval.LoNormal keeps the normal interval's lower
// end). No run falls below 0, so the cut keeps the interval's 90%; uncut, two
// runs of 4,028 and 4,953 s gave -567 … 9,548 s. A figure that can be negative
// is Summarize's, uncut.
func SummarizeNonNegative(xs []float64) Summary {
	s := Summarize(xs)
	if s.Next != nil && s.Next.Lo < 0 {
		s.Next.LoNormal, s.Next.Lo = s.Next.Lo, 0
	}
	return s
}

// studentT95 is the 95th percentile of Student's t with dof degrees of
// freedom: 6.314 for 1, 2.920 for 2, 1.645 as dof grows.
func studentT95(dof int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(dof)}.Quantile(0.95)
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
