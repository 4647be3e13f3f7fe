package calibration

import (
	"slices"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// TestLaswpMeasuredAsHPLMakesIt: a dlaswp call is measured with its rows
// scattered over the K rows the application spread them over, and each run
// on lines the previous run did not touch, never refilled (a refill would
// bring the operand into cache); a duswp call (rows within HPL's compact U
// and W buffers) stays on 2M rows.
func TestLaswpMeasuredAsHPLMakesIt(t *testing.T) {
	be, err := kernels.LookupBackend("gonum")
	if err != nil {
		t.Fatal(err)
	}
	scattered := Call{Kernel: kernels.Laswp, M: 8, N: 16, K: 3000}
	compact := Call{Kernel: kernels.Uswp, M: 8, N: 16}
	w := newMeasurer(be, kernels.WallClock, 1, 1)
	w.reserve(Plan{Calls: []Call{scattered, compact}}, []bool{false, false})

	var pivots [][]int
	var after []float64
	for r := range 3 {
		run := w.prepare(scattered)
		if cap(w.a) < 3000*16 {
			t.Fatalf("dlaswp operand holds %d elements, want K·N = %d", cap(w.a), 3000*16)
		}
		if r > 0 && !slices.Equal(w.a[:3000*16], after) {
			t.Fatal("the dlaswp operand was refilled between runs: the refill brings it into cache")
		}
		if lo, hi := minMax(w.piv); len(w.piv) != 8 || lo < 0 || hi >= 3000 || hi < 16 {
			t.Fatalf("pivots %v: want 8 rows in [0, 3000) reaching past the first 2M", w.piv)
		}
		pivots = append(pivots, slices.Clone(w.piv))
		run()
		after = slices.Clone(w.a[:3000*16])
	}
	if slices.Equal(pivots[0], pivots[1]) || slices.Equal(pivots[1], pivots[2]) {
		t.Error("consecutive dlaswp runs swap the same rows: the second finds them in cache")
	}

	w.prepare(compact)
	if len(w.a) != 2*8*16 {
		t.Errorf("duswp operand holds %d elements, want 2M·N = %d", len(w.a), 2*8*16)
	}
	if lo, hi := minMax(w.piv); lo < 0 || hi >= 16 {
		t.Errorf("duswp pivots %v: want rows in [0, 2M)", w.piv)
	}
}

func minMax(x []int) (lo, hi int) {
	lo, hi = x[0], x[0]
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}
