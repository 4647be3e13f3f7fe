package calibration

import (
	"math"
	"slices"
	"testing"
)

func TestMeasureOrder(t *testing.T) {
	for _, tc := range []struct{ total, parallel int }{
		{0, 1}, {1, 1}, {10, 1}, {10, 2}, {11, 2}, {7, 3}, {100, 4}, {3, 8},
	} {
		order := measureOrder(tc.total, tc.parallel, 7)
		if got := slices.Sorted(slices.Values(order)); !slices.Equal(got, identity(tc.total)) {
			t.Errorf("total %d, parallel %d: %v is not a permutation of the plan", tc.total, tc.parallel, order)
			continue
		}
		// The workers of a round take one block: parallel consecutive
		// indices, in their order, the first a multiple of parallel.
		for at := 0; at < len(order); {
			first := order[at]
			if first%tc.parallel != 0 {
				t.Errorf("total %d, parallel %d: a block starts at index %d", tc.total, tc.parallel, first)
				break
			}
			for i := first; i < min(tc.total, first+tc.parallel); i++ {
				if order[at] != i {
					t.Errorf("total %d, parallel %d: block of %d broken at position %d: %v", tc.total, tc.parallel, first, at, order)
					return
				}
				at++
			}
		}
		if !slices.Equal(order, measureOrder(tc.total, tc.parallel, 7)) {
			t.Errorf("total %d, parallel %d: the same seed gave another order", tc.total, tc.parallel)
		}
	}
	if a, b := measureOrder(100, 2, 1), measureOrder(100, 2, 2); slices.Equal(a, b) || slices.Equal(a, identity(100)) {
		t.Error("the order is not shuffled by the seed")
	}
}

func identity(n int) []int {
	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	return id
}

// TestShuffledOrderLetsScreenSeeAStretch is why measureOrder shuffles: a
// machine slowed for a stretch of 14 consecutive measurements (as this
// project's VM slowed 14 dgemm calls in a row from 40 to 22 GF/s) slows, in
// the plan's size order, 14 calls of neighbouring sizes, which the screen
// judges against each other and lets through; in the shuffled order the same
// stretch slows calls of scattered sizes, each judged against neighbours
// measured at other moments, and the screen sends every one of them, and
// nothing else, to be measured again.
func TestShuffledOrderLetsScreenSeeAStretch(t *testing.T) {
	const total, parallel, from, stretch, slowdown = 120, 2, 40, 14, 1.8
	samples := func(order []int) (s []Sample, slowed []int) {
		for i := range total {
			c := Call{Kernel: "dgemm", M: 200 + 30*i, N: 64, K: 64}
			sec := 1e-10 * work(c) * (1 + 0.03*math.Sin(float64(i)))
			s = append(s, Sample{Kernel: "dgemm", Host: "a", M: c.M, N: c.N, K: c.K, Seconds: sec})
		}
		for _, i := range order[from : from+stretch] {
			s[i].Seconds *= slowdown
			slowed = append(slowed, i)
		}
		slices.Sort(slowed)
		return s, slowed
	}
	s, slowed := samples(measureOrder(total, parallel, 1))
	if got := Suspects(s); !slices.Equal(got, slowed) {
		t.Errorf("shuffled order: suspects %v, want the slowed calls %v", got, slowed)
	}
	s, _ = samples(identity(total))
	if got := Suspects(s); len(got) >= stretch/2 {
		t.Errorf("plan order: %d of the %d slowed calls suspect; the stretch was meant to hide itself", len(got), stretch)
	}
}
