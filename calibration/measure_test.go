package calibration

import (
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// TestLaswpMeasuredAsHPLMakesIt: a dlaswp call is measured with its rows
// scattered over the K rows the application spread them over, on operands
// that rotate through the stream so no repeat finds them in cache; a duswp
// call (rows within HPL's compact U and W buffers) stays on 2M rows.
func TestLaswpMeasuredAsHPLMakesIt(t *testing.T) {
	be, err := kernels.LookupBackend("gonum")
	if err != nil {
		t.Fatal(err)
	}
	scattered := Call{Kernel: kernels.Laswp, M: 8, N: 16, K: 3000}
	compact := Call{Kernel: kernels.Uswp, M: 8, N: 16}
	w := newMeasurer(be, kernels.WallClock, 1, 1)
	w.reserve(Plan{Calls: []Call{scattered, compact}}, []bool{false, false})
	if w.stream == nil {
		t.Fatal("a plan with dlaswp calls reserved no stream")
	}

	var starts []*float64
	for range 3 {
		w.prepare(scattered)
		if len(w.a) != 3000*16 {
			t.Fatalf("dlaswp operand holds %d elements, want K·N = %d", len(w.a), 3000*16)
		}
		starts = append(starts, &w.a[0])
		if lo, hi := minMax(w.piv); len(w.piv) != 8 || lo < 0 || hi >= 3000 || hi < 16 {
			t.Fatalf("pivots %v: want 8 rows in [0, 3000) reaching past the first 2M", w.piv)
		}
	}
	if starts[0] == starts[1] || starts[1] == starts[2] {
		t.Error("consecutive dlaswp repeats share their operand: the second finds it in cache")
	}

	w.prepare(compact)
	if len(w.a) != 2*8*16 {
		t.Errorf("duswp operand holds %d elements, want 2M·N = %d", len(w.a), 2*8*16)
	}
	if lo, hi := minMax(w.piv); lo < 0 || hi >= 16 {
		t.Errorf("duswp pivots %v: want rows in [0, 2M)", w.piv)
	}

	// A plan without dlaswp does not pay for the stream's pages.
	w = newMeasurer(be, kernels.WallClock, 1, 1)
	w.reserve(Plan{Calls: []Call{compact}}, []bool{false})
	if w.stream != nil {
		t.Error("a plan without dlaswp reserved the stream")
	}
}

func minMax(x []int) (lo, hi int) {
	lo, hi = x[0], x[0]
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}
