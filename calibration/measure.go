package calibration

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/kernels"
)

// measurer runs planned calls on real data with one backend. It keeps its
// buffers between calls; each worker has its own.
type measurer struct {
	be       kernels.Backend
	clock    kernels.Clock
	rng      *rand.Rand
	pristine []float64 // random values in [-1, 1) that outputs are reset from
	a, b, c  []float64
	piv      []int
	repeats  int // timed runs per call, averaged
}

// newMeasurer returns a measurer timing each call repeats times (at least
// once) on one core of be (kernels.OneCore, as Timed mode runs calls).
func newMeasurer(be kernels.Backend, clock kernels.Clock, repeats int, seed uint64) *measurer {
	return &measurer{be: kernels.OneCore(be), clock: clock, repeats: max(1, repeats), rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// fill returns buf resized to n elements holding pristine values.
func (w *measurer) fill(buf []float64, n int) []float64 {
	for len(w.pristine) < n {
		w.pristine = append(w.pristine, 2*w.rng.Float64()-1)
	}
	if cap(buf) < n {
		buf = make([]float64, n)
	}
	buf = buf[:n]
	copy(buf, w.pristine)
	return buf
}

// triangle makes an order×order well-conditioned triangular operand in w.a
// (unit diagonal and small off-diagonal terms, so repeated solves neither
// blow up nor sink into subnormals).
func (w *measurer) triangle(order int) {
	w.a = w.fill(w.a, order*order)
	for i := range w.a {
		w.a[i] /= float64(order)
	}
	for i := 0; i < order; i++ {
		w.a[i+i*order] = 1
	}
}

// measure runs c once to warm caches and pages, then repeats times timed,
// its output operand reset to the same values before each run, and returns
// the mean of the timed runs' seconds on the measurer's clock. The mean, not
// the median: Timed mode charges every call as it comes, bursts of a loaded
// machine included, and a model is to predict the sum of those charges.
func (w *measurer) measure(c Call) float64 {
	w.prepare(c)()
	sum := 0.0
	for range w.repeats {
		sum += kernels.Measure(w.clock, w.prepare(c))
	}
	return sum / float64(w.repeats)
}

// prepare sets up the operands of c and returns the call itself.
func (w *measurer) prepare(c Call) func() {
	be, m, n, k := w.be, c.M, c.N, c.K
	switch c.Kernel {
	case "dgemm": // the trailing update: C = C − A·op(B), A m×k, op(B) k×n
		w.a, w.b, w.c = w.fill(w.a, m*k), w.fill(w.b, k*n), w.fill(w.c, m*n)
		ldb := k
		if c.TransB == blas.Trans {
			ldb = n // B is stored n×k
		}
		return func() { be.Dgemm(blas.NoTrans, c.TransB, m, n, k, -1, w.a, m, w.b, ldb, 1, w.c, m) }
	case "dtrsm": // unit triangle in one of HPL's forms: L-Lo-N, L-Up-T, R-Up-N, R-Lo-T
		w.triangle(k)
		w.b = w.fill(w.b, m*n)
		uplo := blas.Lower
		if (c.Side == blas.Left) == (c.TransA == blas.Trans) {
			uplo = blas.Upper
		}
		return func() { be.Dtrsm(c.Side, uplo, c.TransA, blas.Unit, m, n, 1, w.a, k, w.b, m) }
	case "dgemv":
		w.a, w.b, w.c = w.fill(w.a, m*n), w.fill(w.b, n), w.fill(w.c, m)
		return func() { be.Dgemv(blas.NoTrans, m, n, -1, w.a, m, w.b, 1, 1, w.c, 1) }
	case "dger":
		w.a, w.b, w.c = w.fill(w.a, m*n), w.fill(w.b, m), w.fill(w.c, n)
		return func() { be.Dger(m, n, -1, w.b, 1, w.c, 1, w.a, m) }
	case "dtrsv": // back substitution: upper, non-unit diagonal
		w.triangle(n)
		for i := 0; i < n; i++ {
			w.a[i+i*n] = 2
		}
		w.b = w.fill(w.b, n)
		return func() { be.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, n, w.a, n, w.b, 1) }
	case "dscal":
		w.b = w.fill(w.b, n)
		return func() { be.Dscal(n, 0.5, w.b, 1) }
	case "daxpy":
		w.b, w.c = w.fill(w.b, n), w.fill(w.c, n)
		return func() { be.Daxpy(n, -0.5, w.b, 1, w.c, 1) }
	case "dcopy":
		w.b, w.c = w.fill(w.b, n), w.fill(w.c, n)
		return func() { be.Dcopy(n, w.b, 1, w.c, 1) }
	case "dswap":
		w.b, w.c = w.fill(w.b, n), w.fill(w.c, n)
		return func() { be.Dswap(n, w.b, 1, w.c, 1) }
	case "idamax":
		w.b = w.fill(w.b, n)
		return func() { be.Idamax(n, w.b, 1) }
	case kernels.Lacpy:
		w.a, w.b = w.fill(w.a, m*n), w.fill(w.b, m*n)
		return func() { lacpy(m, n, w.a, m, w.b, m) }
	case kernels.Latcpy:
		w.a, w.b = w.fill(w.a, m*n), w.fill(w.b, m*n)
		return func() { latcpy(m, n, w.a, m, w.b, n) }
	default: // dlaswp, dlocswp: m row interchanges across n columns of a 2m-row matrix
		rows := 2 * m
		w.a = w.fill(w.a, rows*n)
		w.piv = w.piv[:0]
		for i := 0; i < m; i++ {
			w.piv = append(w.piv, i+w.rng.IntN(rows-i))
		}
		return func() { laswp(n, w.a, rows, w.piv) }
	}
}

// The three routines below stand in for HPL's own dlacpy, dlatcpy and
// dlaswp (whose code lives in apps/hpl): the same memory traffic, written
// plainly, column by column.

func lacpy(m, n int, a []float64, lda int, b []float64, ldb int) {
	for j := 0; j < n; j++ {
		copy(b[j*ldb:j*ldb+m], a[j*lda:j*lda+m])
	}
}

func latcpy(m, n int, a []float64, lda int, b []float64, ldb int) {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			b[j+i*ldb] = a[i+j*lda]
		}
	}
}

func laswp(n int, a []float64, lda int, piv []int) {
	for j := 0; j < n; j++ {
		col := a[j*lda : j*lda+lda]
		for i, p := range piv {
			col[i], col[p] = col[p], col[i]
		}
	}
}
