package calibration

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/kernels"
)

// BenchmarkNeighbour times one large dgemm (3000×6000×128, an HPL update's
// shape) alone, beside a thread that rewrites its own operands of that size
// between its dgemms (what free-running calibration workers did), and beside a
// thread running dgemm without a pause (what lockstep workers do, and HPL's
// ranks during the update). It reports each median against alone:
//
//	go test -tags cblas -run XXX -bench Neighbour -benchtime 1x ./calibration
//
// The machine needs a second idle core; the backend is OpenBLAS where the
// build has it, else gonum.
func BenchmarkNeighbour(b *testing.B) {
	if runtime.NumCPU() < 2 {
		b.Skip("needs two cores")
	}
	be, err := kernels.LookupBackend("openblas")
	if err != nil {
		be, _ = kernels.LookupBackend("gonum")
	}
	be = kernels.OneCore(be)
	const m, n, k = 3000, 6000, 128
	operands := func() (a, bb, c []float64) {
		a, bb, c = make([]float64, m*k), make([]float64, k*n), make([]float64, m*n)
		for i := range c {
			c[i] = float64(i%1000)/1000 - 0.5
		}
		copy(a, c)
		copy(bb, c)
		return a, bb, c
	}
	gemm := func(a, bb, c []float64) { be.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, -1, a, m, bb, k, 1, c, m) }
	a, bb, c := operands()
	median := func(neighbour func(a, bb, c []float64)) float64 {
		var stop atomic.Bool
		done := make(chan struct{})
		if neighbour != nil {
			go func() {
				defer close(done)
				a2, b2, c2 := operands()
				for !stop.Load() {
					neighbour(a2, b2, c2)
				}
			}()
			time.Sleep(20 * time.Millisecond)
		}
		var ts []float64
		for range 11 {
			ts = append(ts, kernels.Measure(kernels.WallClock, func() { gemm(a, bb, c) }))
		}
		stop.Store(true)
		if neighbour != nil {
			<-done
		}
		slices.Sort(ts)
		return ts[len(ts)/2]
	}
	rewrite := func(a2, b2, c2 []float64) {
		for i := range c2 {
			c2[i] = float64(i&1023) / 1024
		}
		copy(a2, c2)
		copy(b2, c2)
		gemm(a2, b2, c2)
	}
	for range b.N {
		alone := median(nil)
		refill := median(rewrite)
		busy := median(gemm)
		b.ReportMetric(alone, "s-alone")
		b.ReportMetric(refill/alone, "beside-rewrite/alone")
		b.ReportMetric(busy/alone, "beside-dgemm/alone")
	}
}
