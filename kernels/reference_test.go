package kernels

import (
	"gonum.org/v1/gonum/blas"
)

// Naive column-major reference kernels written straight from the BLAS
// definitions, element (i, j) of a matrix at a[i+j*lda]. They share no code
// with the backends, so agreement checks the row-major mapping of gonum.go.

// opAt returns element (i, j) of op(A).
func opAt(t blas.Transpose, a []float64, lda, i, j int) float64 {
	if t == blas.NoTrans {
		return a[i+j*lda]
	}
	return a[j+i*lda]
}

func refDgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			s := 0.0
			for l := 0; l < k; l++ {
				s += opAt(tA, a, lda, i, l) * opAt(tB, b, ldb, l, j)
			}
			c[i+j*ldc] = alpha*s + beta*c[i+j*ldc]
		}
	}
}

// triAt returns element (i, j) of op(A) for triangular A, honouring uplo
// (the other triangle is ignored, whatever it holds) and a unit diagonal.
func triAt(ul blas.Uplo, t blas.Transpose, d blas.Diag, a []float64, lda, i, j int) float64 {
	p, q := i, j // element (p, q) of A itself
	if t != blas.NoTrans {
		p, q = j, i
	}
	switch {
	case p == q && d == blas.Unit:
		return 1
	case ul == blas.Upper && p > q, ul == blas.Lower && p < q:
		return 0
	}
	return a[p+q*lda]
}

// refTriDense returns op(A) as a dense order×order column-major matrix.
func refTriDense(ul blas.Uplo, t blas.Transpose, d blas.Diag, order int, a []float64, lda int) []float64 {
	out := make([]float64, order*order)
	for j := 0; j < order; j++ {
		for i := 0; i < order; i++ {
			out[i+j*order] = triAt(ul, t, d, a, lda, i, j)
		}
	}
	return out
}

func refDgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	rows, cols := m, n
	if tA != blas.NoTrans {
		rows, cols = n, m
	}
	for i := 0; i < rows; i++ {
		s := 0.0
		for j := 0; j < cols; j++ {
			s += opAt(tA, a, lda, i, j) * x[j*incX]
		}
		y[i*incY] = alpha*s + beta*y[i*incY]
	}
}

func refDger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			a[i+j*lda] += alpha * x[i*incX] * y[j*incY]
		}
	}
}
