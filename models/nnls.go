package models

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// nnlsTol is the relative size of a gradient component (of the column-
// normalised problem) below which no coefficient is worth freeing, and of a
// coefficient below which it is taken as zero.
const nnlsTol = 1e-10

// nnls solves min Σ w_i (y_i − Σ_j x_ij β_j)² subject to β ≥ 0 by Lawson and
// Hanson's active-set method (Solving Least Squares Problems, 1974, ch. 23):
// free the coefficient whose gradient most wants to grow, solve the free
// ones by least squares, step back to the boundary where one would turn
// negative, repeat until no coefficient wants to grow. x is row-major n×p;
// w nil means unit weights. Each term of a kernel's polynomial is a cost
// (multiply-adds, elements moved, a call's overhead), so a fit that makes
// one negative buys accuracy on the measured sizes with predictions below
// zero elsewhere: issue 10's M2 fit of dgemm charged a 2×1, N=4000 HPL run
// a fifth of its real kernel time.
func nnls(x []float64, n, p int, y, w []float64) ([]float64, error) {
	if n == 0 {
		return nil, errNoData
	}
	// The weighted, column-normalised problem: A = diag(√w)·X·diag(1/scale).
	a := mat.NewDense(n, p, nil)
	b := mat.NewVecDense(n, nil)
	scale := make([]float64, p)
	for i := range n {
		sw := 1.0
		if w != nil {
			sw = math.Sqrt(w[i])
		}
		for j := range p {
			v := sw * x[i*p+j]
			a.Set(i, j, v)
			scale[j] = math.Max(scale[j], math.Abs(v))
		}
		b.SetVec(i, sw*y[i])
	}
	for j := range p {
		if scale[j] == 0 {
			scale[j] = 1 // an all-zero column: its coefficient stays 0
		}
		for i := range n {
			a.Set(i, j, a.At(i, j)/scale[j])
		}
	}
	bnorm := mat.Norm(b, 2)
	if bnorm == 0 {
		return make([]float64, p), nil
	}
	free := make([]bool, p)
	z := make([]float64, p) // the solution of the normalised problem
	grad := func() []float64 {
		var r, g mat.VecDense
		r.MulVec(a, mat.NewVecDense(p, z))
		r.SubVec(b, &r)
		g.MulVec(a.T(), &r) // Aᵀ(b − Az): where the residual wants each β to move
		out := make([]float64, p)
		for j := range p {
			out[j] = g.AtVec(j)
		}
		return out
	}
	// solveFree returns the least-squares solution on the free columns.
	solveFree := func() ([]float64, error) {
		cols := []int{}
		for j, f := range free {
			if f {
				cols = append(cols, j)
			}
		}
		sub := make([]float64, n*len(cols))
		for i := range n {
			for c, j := range cols {
				sub[i*len(cols)+c] = a.At(i, j)
			}
		}
		yb := make([]float64, n)
		for i := range n {
			yb[i] = b.AtVec(i)
		}
		s, err := lsq(sub, n, len(cols), yb, nil)
		if err != nil {
			return nil, err
		}
		out := make([]float64, p)
		for c, j := range cols {
			out[j] = s[c]
		}
		return out, nil
	}
	for iter := 0; iter < 3*p+10; iter++ {
		g := grad()
		best, bj := nnlsTol*bnorm, -1
		for j := range p {
			if !free[j] && g[j] > best {
				best, bj = g[j], j
			}
		}
		if bj < 0 {
			break // no bound coefficient wants to grow: optimal
		}
		free[bj] = true
		for inner := 0; inner <= p; inner++ {
			s, err := solveFree()
			if err != nil {
				return nil, err
			}
			alpha, bad := 1.0, false
			for j := range p {
				if free[j] && s[j] <= 0 {
					bad = true
					if d := z[j] - s[j]; d > 0 {
						alpha = math.Min(alpha, z[j]/d)
					}
				}
			}
			if !bad {
				copy(z, s)
				break
			}
			for j := range p {
				if free[j] {
					z[j] += alpha * (s[j] - z[j])
					if z[j] <= nnlsTol*math.Abs(s[j]) || z[j] <= 0 {
						z[j], free[j] = 0, false
					}
				}
			}
		}
	}
	beta := make([]float64, p)
	for j := range p {
		beta[j] = math.Max(z[j], 0) / scale[j]
	}
	return beta, nil
}
