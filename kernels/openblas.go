//go:build cblas

package kernels

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>
*/
import "C"

import (
	"fmt"
	"os"
	"sync"

	"gonum.org/v1/gonum/blas"
)

// openblasBackend calls the node's OpenBLAS through its CBLAS interface in
// column-major order, so arguments pass through unchanged. It exists only in
// builds with the cblas tag (see the package documentation).
type openblasBackend struct{}

func init() {
	backends["openblas"] = func() Backend {
		singleThread.Do(func() {
			// emu runs one rank per core, as HPL does; OpenBLAS's own threads
			// would measure a whole node per call. OPENBLAS_NUM_THREADS wins.
			if os.Getenv("OPENBLAS_NUM_THREADS") == "" {
				C.openblas_set_num_threads(1)
			}
		})
		return openblasBackend{}
	}
}

var singleThread sync.Once

func (openblasBackend) Name() string { return "openblas" }

// ptr returns the address of the first element, nil for an empty slice (C
// does not read it then: the checks below guarantee a non-empty operand).
func ptr(x []float64) *C.double {
	if len(x) == 0 {
		return nil
	}
	return (*C.double)(&x[0])
}

// checkMat panics, as gonum does, when a column-major rows×cols operand with
// leading dimension ld does not fit in x: C would read out of bounds.
func checkMat(what string, rows, cols int, x []float64, ld int) {
	if ld < max(1, rows) {
		panic(fmt.Sprintf("kernels/openblas: %s: leading dimension %d < %d", what, ld, rows))
	}
	if rows > 0 && cols > 0 && len(x) < ld*(cols-1)+rows {
		panic(fmt.Sprintf("kernels/openblas: %s: slice of %d too short for %d×%d, ld %d", what, len(x), rows, cols, ld))
	}
}

func checkVec(what string, n int, x []float64, inc int) {
	if inc == 0 {
		panic("kernels/openblas: " + what + ": zero increment")
	}
	if inc < 0 {
		inc = -inc
	}
	if n > 0 && len(x) < (n-1)*inc+1 {
		panic(fmt.Sprintf("kernels/openblas: %s: slice of %d too short for %d elements, inc %d", what, len(x), n, inc))
	}
}

func opDims(t blas.Transpose, r, c int) (int, int) {
	if t == blas.NoTrans {
		return r, c
	}
	return c, r
}

func cTrans(t blas.Transpose) C.enum_CBLAS_TRANSPOSE {
	if t == blas.NoTrans {
		return C.CblasNoTrans
	}
	return C.CblasTrans
}

func cUplo(u blas.Uplo) C.enum_CBLAS_UPLO {
	if u == blas.Upper {
		return C.CblasUpper
	}
	return C.CblasLower
}

func cDiag(d blas.Diag) C.enum_CBLAS_DIAG {
	if d == blas.Unit {
		return C.CblasUnit
	}
	return C.CblasNonUnit
}

func cSide(s blas.Side) C.enum_CBLAS_SIDE {
	if s == blas.Left {
		return C.CblasLeft
	}
	return C.CblasRight
}

func (openblasBackend) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	ar, ac := opDims(tA, m, k)
	br, bc := opDims(tB, k, n)
	checkMat("dgemm A", ar, ac, a, lda)
	checkMat("dgemm B", br, bc, b, ldb)
	checkMat("dgemm C", m, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	C.cblas_dgemm(C.CblasColMajor, cTrans(tA), cTrans(tB), C.blasint(m), C.blasint(n), C.blasint(k),
		C.double(alpha), ptr(a), C.blasint(lda), ptr(b), C.blasint(ldb), C.double(beta), ptr(c), C.blasint(ldc))
}

func (openblasBackend) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	order := m
	if s == blas.Right {
		order = n
	}
	checkMat("dtrsm A", order, order, a, lda)
	checkMat("dtrsm B", m, n, b, ldb)
	if m == 0 || n == 0 {
		return
	}
	C.cblas_dtrsm(C.CblasColMajor, cSide(s), cUplo(ul), cTrans(tA), cDiag(d), C.blasint(m), C.blasint(n),
		C.double(alpha), ptr(a), C.blasint(lda), ptr(b), C.blasint(ldb))
}

func (openblasBackend) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	lx, ly := n, m
	if tA != blas.NoTrans {
		lx, ly = m, n
	}
	checkMat("dgemv A", m, n, a, lda)
	checkVec("dgemv x", lx, x, incX)
	checkVec("dgemv y", ly, y, incY)
	if m == 0 || n == 0 {
		return
	}
	C.cblas_dgemv(C.CblasColMajor, cTrans(tA), C.blasint(m), C.blasint(n), C.double(alpha), ptr(a), C.blasint(lda),
		ptr(x), C.blasint(incX), C.double(beta), ptr(y), C.blasint(incY))
}

func (openblasBackend) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	checkMat("dger A", m, n, a, lda)
	checkVec("dger x", m, x, incX)
	checkVec("dger y", n, y, incY)
	if m == 0 || n == 0 {
		return
	}
	C.cblas_dger(C.CblasColMajor, C.blasint(m), C.blasint(n), C.double(alpha), ptr(x), C.blasint(incX),
		ptr(y), C.blasint(incY), ptr(a), C.blasint(lda))
}

func (openblasBackend) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	checkMat("dtrsv A", n, n, a, lda)
	checkVec("dtrsv x", n, x, incX)
	if n == 0 {
		return
	}
	C.cblas_dtrsv(C.CblasColMajor, cUplo(ul), cTrans(tA), cDiag(d), C.blasint(n), ptr(a), C.blasint(lda), ptr(x), C.blasint(incX))
}

func (openblasBackend) Dscal(n int, alpha float64, x []float64, incX int) {
	checkVec("dscal x", n, x, incX)
	if n <= 0 {
		return
	}
	C.cblas_dscal(C.blasint(n), C.double(alpha), ptr(x), C.blasint(incX))
}

func (openblasBackend) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	checkVec("daxpy x", n, x, incX)
	checkVec("daxpy y", n, y, incY)
	if n <= 0 {
		return
	}
	C.cblas_daxpy(C.blasint(n), C.double(alpha), ptr(x), C.blasint(incX), ptr(y), C.blasint(incY))
}

func (openblasBackend) Dcopy(n int, x []float64, incX int, y []float64, incY int) {
	checkVec("dcopy x", n, x, incX)
	checkVec("dcopy y", n, y, incY)
	if n <= 0 {
		return
	}
	C.cblas_dcopy(C.blasint(n), ptr(x), C.blasint(incX), ptr(y), C.blasint(incY))
}

func (openblasBackend) Dswap(n int, x []float64, incX int, y []float64, incY int) {
	checkVec("dswap x", n, x, incX)
	checkVec("dswap y", n, y, incY)
	if n <= 0 {
		return
	}
	C.cblas_dswap(C.blasint(n), ptr(x), C.blasint(incX), ptr(y), C.blasint(incY))
}

func (openblasBackend) Idamax(n int, x []float64, incX int) int {
	checkVec("idamax x", n, x, incX)
	if n <= 0 {
		return 0
	}
	return int(C.cblas_idamax(C.blasint(n), ptr(x), C.blasint(incX)))
}
