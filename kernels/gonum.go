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
//
// gonum's dgemm splits a product of four or more 64×64 blocks of C among
// goroutines. A measured call must not (see OneCore): oneCore runs the same
// blocks one after the other on the calling goroutine.
type gonumBackend struct {
	impl    gonum.Implementation
	oneCore bool
}

// gonumBlock is the tile side of gonum's parallel dgemm, and gonumParBlocks
// the number of C tiles from which it goes parallel (gonum's blockSize and
// minParBlock).
const gonumBlock, gonumParBlocks = 64, 4

// OneCore returns be made to run every call on the calling goroutine, as one
// core of a node running one rank per core does — what a measured call must
// be (Timed mode, calibration): a BLAS that spreads a call over helper
// threads makes it look faster in wall time than one core is, and the
// process CPU clock accounts the helpers' time only at their next scheduler
// tick (milliseconds later), so that call and the next are mis-measured.
// OpenBLAS is already limited to one thread; gonum's dgemm is tiled here
// into the blocks its parallel version would hand to goroutines.
func OneCore(be Backend) Backend {
	if g, ok := be.(gonumBackend); ok {
		g.oneCore = true
		return g
	}
	return be
}

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
	if !g.oneCore || ceilDiv(m, gonumBlock)*ceilDiv(n, gonumBlock) < gonumParBlocks || k == 0 {
		g.impl.Dgemm(tB, tA, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc)
		return
	}
	// Column-major tiles: C(i:i+mi, j:j+nj) += α·op(A)(i:i+mi, l:l+kl)·op(B)(l:l+kl, j:j+nj),
	// β applied with the first slice of the inner dimension.
	aAt := func(i, l int) []float64 { // op(A)(i, l)
		if tA == blas.NoTrans {
			return a[i+l*lda:]
		}
		return a[l+i*lda:]
	}
	bAt := func(l, j int) []float64 { // op(B)(l, j)
		if tB == blas.NoTrans {
			return b[l+j*ldb:]
		}
		return b[j+l*ldb:]
	}
	for j := 0; j < n; j += gonumBlock {
		nj := min(gonumBlock, n-j)
		for i := 0; i < m; i += gonumBlock {
			mi := min(gonumBlock, m-i)
			bt := beta
			for l := 0; l < k; l += gonumBlock {
				kl := min(gonumBlock, k-l)
				g.impl.Dgemm(tB, tA, nj, mi, kl, alpha, bAt(l, j), ldb, aAt(i, l), lda, bt, c[i+j*ldc:], ldc)
				bt = 1
			}
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

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
