package hpl

import (
	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/kernels"
)

// kern is the kernel set the port calls, in HPL's column-major argument order.
// *kernels.Set satisfies it through kernelsAdapter; tests may plug a plain BLAS.
// In model mode every slice is nil and only time is charged.
type kern interface {
	Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
	Dtrsm(side blas.Side, uplo blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int)
	Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int)
	Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int)
	Dtrsv(uplo blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int)
	Dscal(n int, alpha float64, x []float64, incX int)
	Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int)
	Dcopy(n int, x []float64, incX int, y []float64, incY int)
	Idamax(n int, x []float64, incX int) int
	// copier resolves one of HPL's own copy kernels (laswp, lacpy, latcpy)
	// for billing. variant names HPL's routine ("dlaswp01T"; "" for none),
	// whose own model, where there is one, is used instead of kernel's
	// (kernels.Set.Copy). The solver resolves each pair once (copies.go).
	copier(kernel, variant string) copier
	// owns reports whether the models have one for this routine variant.
	owns(variant string) bool
}

// copier bills calls of one copy kernel on m rows of n columns; span is how
// many rows of the local matrix those m rows are scattered over (0:
// adjacent), which sets the cache misses the call takes and is recorded for
// calibration as the call's K.
type copier interface{ charge(m, n, span int) }

// Names of HPL's own kernels as charged: package kernels' names, so their
// models come from the same models.toml entries calibration writes.
const (
	kLaswp   = kernels.Laswp
	kGather  = kernels.Gather
	kScatter = kernels.Scatter
	kUswp    = kernels.Uswp
	kLacpy   = kernels.Lacpy
	kLatcpy  = kernels.Latcpy
)

// at returns the slice of x from offset off, or nil when x is nil (model mode):
// the one place where a column-major "pointer" A + off is formed.
func at(x []float64, off int) []float64 {
	if x == nil {
		return nil
	}
	if off >= len(x) { // zero-size calls may point one past the end, as in C
		return x[len(x):]
	}
	return x[off:]
}
