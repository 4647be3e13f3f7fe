package calibration

import (
	"slices"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// TestLaswpMeasuredAsHPLMakesIt: a dlaswp call is measured with its rows
// scattered over the K rows the application spread them over, and each run
// on lines the previous run did not touch, never refilled (a refill would
// bring the operand into cache), after twice the last-level cache has been
// written over (as HPL's update sweeps the matrix); a duswp call (rows within HPL's compact U
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
		if len(w.sweep) != w.evict/8 || w.evict != 2*lastLevelCache() || w.sweep[0] != float64(r+1) || w.sweep[len(w.sweep)-8] != float64(r+1) {
			t.Fatalf("run %d: the caches were not swept before it (%d-word scratch, want %d written %d times)", r, len(w.sweep), 2*lastLevelCache()/8, r+1)
		}
		pivots = append(pivots, slices.Clone(w.piv))
		run()
		after = slices.Clone(w.a[:3000*16])
	}
	if slices.Equal(pivots[0], pivots[1]) || slices.Equal(pivots[1], pivots[2]) {
		t.Error("consecutive dlaswp runs swap the same rows: the second finds them in cache")
	}

	w.prepare(compact)
	if w.sweep[0] != 3 {
		t.Error("the caches were swept before a duswp run: its U and W buffers are in cache in HPL")
	}
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

func TestParseCacheSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"32768K", 32 << 20, true},
		{"2M", 2 << 20, true},
		{"1G", 1 << 30, true},
		{"512", 512, true},
		{"", 0, false},
		{"K", 0, false},
		{"-4K", 0, false},
		{"12Q", 0, false},
	} {
		if got, ok := parseCacheSize(c.in); got != c.want || ok != c.ok {
			t.Errorf("parseCacheSize(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if llc := lastLevelCache(); llc <= 0 || llc > maxLastLevelCache {
		t.Errorf("lastLevelCache() = %d, want in (0, %d]", llc, maxLastLevelCache)
	}
}

// The row-move stand-ins take hplDepth columns at a time, as HPL does; they
// must move what the plain column-by-column loops move, for widths that are
// and are not multiples of hplDepth, and with repeated pivots (interchanges
// are sequential, as LAPACK's). The reference is written out per column.
func TestRowMovesInHPLOrderMoveTheSameData(t *testing.T) {
	for _, n := range []int{1, hplDepth, 70} {
		const lda, top = 20, 3
		piv := []int{7, 3, 19, 7, 0}
		a := make([]float64, lda*n)
		for i := range a {
			a[i] = float64(i)
		}
		want := slices.Clone(a)
		for j := 0; j < n; j++ {
			col := want[j*lda : j*lda+lda]
			for i, p := range piv {
				col[top+i], col[p] = col[p], col[top+i]
			}
		}
		got := slices.Clone(a)
		laswp(n, got, lda, top, piv)
		if !slices.Equal(got, want) {
			t.Errorf("n = %d: laswp moved other data than the interchanges, column by column", n)
		}

		buf := make([]float64, len(piv)*n)
		gather(n, a, lda, piv, buf)
		for i, p := range piv {
			for j := range n {
				if buf[i*n+j] != a[j*lda+p] {
					t.Fatalf("n = %d: gather's row %d, column %d holds %v, want A(%d, %d) = %v", n, i, j, buf[i*n+j], p, j, a[j*lda+p])
				}
			}
		}
		back := make([]float64, len(a))
		scatter(n, back, lda, piv[2:3], buf[2*n:3*n])
		for j := range n {
			if back[j*lda+piv[2]] != a[j*lda+piv[2]] {
				t.Fatalf("n = %d: scatter did not put gather's row back in column %d", n, j)
			}
		}
	}
}

// dgather and dscatter calls are measured as dlaswp's are: rows anywhere
// among K, the caches swept before each run, and a compact M×N buffer.
func TestCopiesMeasuredColdOverK(t *testing.T) {
	be, err := kernels.LookupBackend("gonum")
	if err != nil {
		t.Fatal(err)
	}
	for _, kernel := range []string{kernels.Gather, kernels.Scatter} {
		c := Call{Kernel: kernel, M: 8, N: 16, K: 3000}
		w := newMeasurer(be, kernels.WallClock, 1, 1)
		w.reserve(Plan{Calls: []Call{c}}, []bool{false})
		for r := range 2 {
			w.prepare(c)()
			if w.sweep[0] != float64(r+1) {
				t.Errorf("%s run %d: the caches were not swept before it", kernel, r)
			}
			if lo, hi := minMax(w.piv); len(w.piv) != 8 || lo < 0 || hi >= 3000 || hi < 16 {
				t.Errorf("%s: pivots %v, want 8 rows in [0, 3000) reaching past the first 2M", kernel, w.piv)
			}
			if cap(w.b) < 8*16 {
				t.Errorf("%s: buffer of %d elements, want M·N = %d", kernel, cap(w.b), 8*16)
			}
		}
	}
}
