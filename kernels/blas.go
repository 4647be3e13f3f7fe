package kernels

import (
	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/models"
)

// The methods below take HPL's column-major arguments (see the package
// documentation). Each one either charges the model (Model mode), or executes
// through the backend and then charges the model (Real) or the measured time
// (Timed). Calls with an empty dimension charge nothing, unless
// Config.ChargeEmpty.

// Dgemm computes C = α·op(A)·op(B) + β·C with C m×n and inner dimension kk.
func (k *Set) Dgemm(tA, tB blas.Transpose, m, n, kk int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m <= 0 || n <= 0 {
		k.chargeEmpty(idDgemm, gemmVars(m, n, kk), GemmForm(tB))
		return
	}
	if kk <= 0 { // C = β·C still happens, but is not a modelled multiply
		if k.mode != Model && beta != 1 {
			scaleMatrix(m, n, beta, c, ldc)
		}
		k.chargeEmpty(idDgemm, gemmVars(m, n, kk), GemmForm(tB))
		return
	}
	fm, fn, fk := float64(m), float64(n), float64(kk)
	v := models.Vars{M: fm, N: fn, K: fk, W: fm * fn * fk}
	if k.mode == Model {
		k.chargeModel(idDgemm, v, GemmForm(tB))
		return
	}
	t0 := k.start()
	k.be.Dgemm(tA, tB, m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
	k.finish(idDgemm, v, GemmForm(tB), t0)
}

// scaleMatrix sets the m×n matrix C to β·C (β = 0 clears it, as BLAS
// does, even where C holds NaN). It is done here rather than by the backend,
// whose argument checks would reject the A and B operands HPL passes with an
// empty inner dimension (zero-length slices, nominal leading dimensions).
func scaleMatrix(m, n int, beta float64, c []float64, ldc int) {
	for j := 0; j < n; j++ {
		col := c[j*ldc : j*ldc+m]
		for i := range col {
			if beta == 0 {
				col[i] = 0
			} else {
				col[i] *= beta
			}
		}
	}
}

// Dtrsm solves op(A)·X = α·B (side Left) or X·op(A) = α·B (side Right) for
// X, overwriting the m×n matrix B; A is triangular of order m (Left) or n
// (Right). The model sees K = that order and W = M·N·K.
func (k *Set) Dtrsm(side blas.Side, uplo blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	order := m
	if side == blas.Right {
		order = n
	}
	v := gemmVars(m, n, order)
	if m <= 0 || n <= 0 {
		k.chargeEmpty(idDtrsm, v, TrsmForm(side, uplo, tA))
		return
	}
	if k.mode == Model {
		k.chargeModel(idDtrsm, v, TrsmForm(side, uplo, tA))
		return
	}
	t0 := k.start()
	k.be.Dtrsm(side, uplo, tA, d, m, n, alpha, a, lda, b, ldb)
	k.finish(idDtrsm, v, TrsmForm(side, uplo, tA), t0)
}

// Dgemv computes y = α·op(A)·x + β·y with A m×n.
func (k *Set) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	v := mnVars(m, n)
	if m <= 0 || n <= 0 {
		k.chargeEmpty(idDgemv, v, FormOf(tA))
		return
	}
	if k.mode == Model {
		k.chargeModel(idDgemv, v, FormOf(tA))
		return
	}
	t0 := k.start()
	k.be.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
	k.finish(idDgemv, v, FormOf(tA), t0)
}

// Dger computes A += α·x·yᵀ with A m×n.
func (k *Set) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	v := mnVars(m, n)
	if m <= 0 || n <= 0 {
		k.chargeEmpty(idDger, v, 0)
		return
	}
	if k.mode == Model {
		k.chargeModel(idDger, v, 0)
		return
	}
	t0 := k.start()
	k.be.Dger(m, n, alpha, x, incX, y, incY, a, lda)
	k.finish(idDger, v, 0, t0)
}

// Dtrsv solves op(A)·x = b in place for triangular A of order n.
func (k *Set) Dtrsv(uplo blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	fn := float64(max(n, 0))
	v := models.Vars{N: fn, W: fn * fn}
	if n <= 0 {
		k.chargeEmpty(idDtrsv, v, TrsvForm(uplo, tA))
		return
	}
	if k.mode == Model {
		k.chargeModel(idDtrsv, v, TrsvForm(uplo, tA))
		return
	}
	t0 := k.start()
	k.be.Dtrsv(uplo, tA, d, n, a, lda, x, incX)
	k.finish(idDtrsv, v, TrsvForm(uplo, tA), t0)
}

// gemmVars is the model description of a call with dimensions m, n, k (W =
// M·N·K); a dimension below zero counts as zero.
func gemmVars(m, n, kk int) models.Vars {
	fm, fn, fk := float64(max(m, 0)), float64(max(n, 0)), float64(max(kk, 0))
	return models.Vars{M: fm, N: fn, K: fk, W: fm * fn * fk}
}

// mnVars is the model description of an m×n operand (W = M·N).
func mnVars(m, n int) models.Vars {
	fm, fn := float64(max(m, 0)), float64(max(n, 0))
	return models.Vars{M: fm, N: fn, W: fm * fn}
}

// level1 is the model description of a vector kernel of length n.
func level1(n int) models.Vars {
	fn := float64(n)
	return models.Vars{N: fn, W: fn}
}

// Dscal computes x = α·x over n elements.
func (k *Set) Dscal(n int, alpha float64, x []float64, incX int) {
	if n <= 0 {
		k.chargeEmpty(idDscal, level1(0), 0)
		return
	}
	if k.mode == Model {
		k.chargeModel(idDscal, level1(n), 0)
		return
	}
	t0 := k.start()
	k.be.Dscal(n, alpha, x, incX)
	k.finish(idDscal, level1(n), 0, t0)
}

// Daxpy computes y += α·x over n elements.
func (k *Set) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
	if n <= 0 {
		k.chargeEmpty(idDaxpy, level1(0), 0)
		return
	}
	if k.mode == Model {
		k.chargeModel(idDaxpy, level1(n), 0)
		return
	}
	t0 := k.start()
	k.be.Daxpy(n, alpha, x, incX, y, incY)
	k.finish(idDaxpy, level1(n), 0, t0)
}

// Dcopy copies n elements of x into y.
func (k *Set) Dcopy(n int, x []float64, incX int, y []float64, incY int) {
	if n <= 0 {
		k.chargeEmpty(idDcopy, level1(0), 0)
		return
	}
	if k.mode == Model {
		k.chargeModel(idDcopy, level1(n), 0)
		return
	}
	t0 := k.start()
	k.be.Dcopy(n, x, incX, y, incY)
	k.finish(idDcopy, level1(n), 0, t0)
}

// Dswap exchanges n elements of x and y.
func (k *Set) Dswap(n int, x []float64, incX int, y []float64, incY int) {
	if n <= 0 {
		k.chargeEmpty(idDswap, level1(0), 0)
		return
	}
	if k.mode == Model {
		k.chargeModel(idDswap, level1(n), 0)
		return
	}
	t0 := k.start()
	k.be.Dswap(n, x, incX, y, incY)
	k.finish(idDswap, level1(n), 0, t0)
}

// Idamax returns the 0-based index of the first element of largest absolute
// value among n elements of x, and 0 when n < 1 (as HPL_idamax). In Model
// mode x is nil and the answer is a deterministic pseudo-random index in
// [0, n) drawn from Config.Seed, so pivot-dependent control flow stays
// plausible; HPL's pivot rules that need a global view live in apps/hpl.
func (k *Set) Idamax(n int, x []float64, incX int) int {
	if n < 1 {
		return 0
	}
	v := level1(n)
	if k.mode == Model {
		k.chargeModel(idIdamax, v, 0)
		k.pivot += splitmixGamma
		return int(splitmix64(k.pivot) % uint64(n))
	}
	t0 := k.start()
	i := k.be.Idamax(n, x, incX)
	k.finish(idIdamax, v, 0, t0)
	return i
}

// splitmixGamma is splitmix64's increment (the odd integer closest to
// 2⁶⁴/φ, Steele, Lea & Flood 2014).
const splitmixGamma = 0x9e3779b97f4a7c15

// splitmix64 is the splitmix64 output finalizer.
func splitmix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
