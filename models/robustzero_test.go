package models_test

import (
	"fmt"
	"testing"
)

// TestRobustFitIgnoresZeroDurations: a call measured at 0 s (a clock
// coarser than the call, a row written by hand) is as far from its
// neighbours as a call measured 300× too slow, and the robust fit rejects
// it the same way: every coefficient within 1%, the spoiled samples
// flagged. Before, a 0 s sample started the fit with a weight of 10^18/top²
// (relative errors to durations floored at 10^-9 of the longest call), and
// one zero in 40 exact dgemv samples left a coefficient 10% off, unflagged,
// and four zeros in 40 (more than the 5% of outliers a fit may reject, but
// a 0 s call is no structure the mean missed) dgemm's 100% off.
func TestRobustFitIgnoresZeroDurations(t *testing.T) {
	cases := robustCases(16)
	for _, c := range cases {
		for _, every := range []int{10, 40} { // 4 zeros in 40 exact samples, and 1
			t.Run(fmt.Sprintf("%s, one zero in %d", c.name, every), func(t *testing.T) {
				data, _ := withOutliers(t, c.spec, c.dims, 41, 41, 0, 5) // no 300× call: period 41 spoils the last
				data = data[:len(data)-1]
				zeros := 0
				for i := range data {
					if i%every == 3 {
						data[i].Seconds = 0
						zeros++
					}
				}
				checkRobustFit(t, c, data, zeros, "zero")
			})
		}
	}
}
