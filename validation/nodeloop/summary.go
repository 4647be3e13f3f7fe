package main

import (
	"fmt"
	"math"
	"slices"
)

// The bar issue 32 item 7 sets for each loop: every run within barAll of
// its real median and at least barCount of 16 (the same share of another
// list) within barMost.
const (
	barAll   = 0.10
	barMost  = 0.05
	barCount = 14
	barOf    = 16
)

// prediction is one configuration's outcome in one loop.
type prediction struct {
	Config              config
	Predicted           float64 // emu's Time, seconds
	Before, After       []float64
	Median, Min, Max    float64 // over Before and After together
	BeforeMed, AfterMed float64
	Err                 float64 // (Predicted − Median) / Median
}

// newPrediction puts emu's prediction beside the real runs made before and
// after the calibration.
func newPrediction(c config, predicted float64, before, after []float64) prediction {
	all := slices.Concat(before, after)
	slices.Sort(all)
	p := prediction{Config: c, Predicted: predicted, Before: before, After: after,
		Median: median(all), Min: all[0], Max: all[len(all)-1],
		BeforeMed: median(before), AfterMed: median(after)}
	p.Err = (predicted - p.Median) / p.Median
	return p
}

// median of xs (the mean of the two middle values of an even count); NaN
// when xs is empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summary is one loop's verdict.
type summary struct {
	Runs              int
	MeanAbs, Worst    float64 // relative; Worst keeps its sign
	WorstID           string
	Within5, Within10 int
	Met               bool
}

// summarize scores a loop's predictions against the bar: all within
// barAll, and within barMost at least barCount of barOf (scaled to the
// list's length, rounded up).
func summarize(ps []prediction) summary {
	s := summary{Runs: len(ps)}
	for _, p := range ps {
		a := math.Abs(p.Err)
		s.MeanAbs += a
		if a > math.Abs(s.Worst) || s.WorstID == "" {
			s.Worst, s.WorstID = p.Err, p.Config.ID
		}
		if a <= barMost {
			s.Within5++
		}
		if a <= barAll {
			s.Within10++
		}
	}
	if len(ps) > 0 {
		s.MeanAbs /= float64(len(ps))
	}
	s.Met = len(ps) > 0 && s.Within10 == len(ps) && s.Within5 >= needWithin5(len(ps))
	return s
}

// needWithin5 is how many of n runs the bar wants within barMost: 14 of 16.
func needWithin5(n int) int {
	return (barCount*n + barOf - 1) / barOf
}

func (s summary) String() string {
	verdict := "bar met"
	if !s.Met {
		verdict = "bar NOT met"
	}
	return fmt.Sprintf("mean |error| %.1f%%, worst %+.1f%% (%s), within 5%%: %d of %d (bar %d), within 10%%: %d of %d: %s",
		100*s.MeanAbs, 100*s.Worst, s.WorstID, s.Within5, s.Runs, needWithin5(s.Runs), s.Within10, s.Runs, verdict)
}
