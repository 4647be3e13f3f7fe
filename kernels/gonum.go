package kernels

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gonumBackend runs the kernels with gonum's pure-Go BLAS, which is
// row-major. A column-major m×n matrix with leading dimension ld occupies the
// same memory as the row-major n×m matrix Aᵀ with stride ld, so every call is
// rewritten as the equivalent statement about the transposes:
//
//	dgemm  C = α·op(A)·op(B) + β·C   ⇔  Cᵀ = α·op(B)ᵀ·op(A)ᵀ + β·Cᵀ   (swap operands and m, n)
//	dtrsm  op(A)·X = α·B (left)      ⇔  Xᵀ·op(A)ᵀ = α·Bᵀ (right)       (flip side and uplo, swap m, n)
//	dgemv  y = α·op(A)·x + β·y       ⇔  y = α·op'(Aᵀ)·x + β·y          (flip trans, swap m, n)
//	dger   A += α·x·yᵀ               ⇔  Aᵀ += α·y·xᵀ                     (swap vectors and m, n)
//	dtrsv  op(A)·x = b               ⇔  op'(Aᵀ)·x = b                   (flip trans and uplo)
//
// The transpose of a lower triangle is an upper one, hence the uplo flips;
// op(A)ᵀ keeps the trans flag because the row-major view already is Aᵀ.
type gonumBackend struct{ impl gonum.Implementation }

func (gonumBackend) Name() string { return DefaultBackend }

func flipTrans(t blas.Transpose) blas.Transpose {
	if t == blas.NoTrans {
		return blas.Trans
	}
	return blas.NoTrans
}

func flipUplo(u blas.Uplo) blas.Uplo {
	if u == blas.Upper {
		return blas.Lower
	}
	return blas.Upper
}

func flipSide(s blas.Side) blas.Side {
	if s == blas.Left {
		return blas.Right
	}
	return blas.Left
}

func (g gonumBackend) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	g.impl.Dgemm(tB, tA, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc)
}

func (g gonumBackend) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	g.impl.Dtrsm(flipSide(s), flipUplo(ul), tA, d, n, m, alpha, a, lda, b, ldb)
}

func (g gonumBackend) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	g.impl.Dgemv(flipTrans(tA), n, m, alpha, a, lda, x, incX, beta, y, incY)
}

func (g gonumBackend) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	g.impl.Dger(n, m, alpha, y, incY, x, incX, a, lda)
}

func (g gonumBackend) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	g.impl.Dtrsv(flipUplo(ul), flipTrans(tA), d, n, a, lda, x, incX)
}

func (g gonumBackend) Dscal(n int, alpha float64, x []float64, incX int) {
	g.impl.Dscal(n, alpha, x, incX)
}

func (g gonumBackend) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	g.impl.Daxpy(n, alpha, x, incX, y, incY)
}

func (g gonumBackend) Dcopy(n int, x []float64, incX int, y []float64, incY int) {
	g.impl.Dcopy(n, x, incX, y, incY)
}

func (g gonumBackend) Dswap(n int, x []float64, incX int, y []float64, incY int) {
	g.impl.Dswap(n, x, incX, y, incY)
}

func (g gonumBackend) Idamax(n int, x []float64, incX int) int {
	return g.impl.Idamax(n, x, incX)
}
