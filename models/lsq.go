package models

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// rankTol is the relative size below which a diagonal element of R (of the
// column-normalised design) marks a column as a linear combination of the
// others. Such columns (m*k and m*m*n when every dtrsm sample has k = m, a
// dimension that never varies) get coefficient 0 instead of making the fit
// singular.
const rankTol = 1e-9

var errNoData = errors.New("no samples")

// lsq solves min Σ w_i (y_i − Σ_j x_ij β_j)² by QR of the weighted,
// column-normalised design. x is row-major n×p; w nil means unit weights.
// Collinear columns are dropped (β_j = 0) one at a time, worst first.
func lsq(x []float64, n, p int, y, w []float64) ([]float64, error) {
	if n == 0 {
		return nil, errNoData
	}
	active := make([]int, p)
	for j := range active {
		active[j] = j
	}
	beta := make([]float64, p)
	for len(active) > 0 {
		q := len(active)
		if n < q {
			// Fewer samples than unknowns: drop the last (lowest-degree) terms.
			active = active[:n]
			continue
		}
		a := mat.NewDense(n, q, nil)
		b := mat.NewVecDense(n, nil)
		scale := make([]float64, q)
		for i := range n {
			sw := 1.0
			if w != nil {
				sw = math.Sqrt(w[i])
			}
			for c, j := range active {
				v := sw * x[i*p+j]
				a.Set(i, c, v)
				scale[c] = math.Max(scale[c], math.Abs(v))
			}
			b.SetVec(i, sw*y[i])
		}
		// Normalise columns so the rank test compares like with like (m*n*k
		// is 1e9 times larger than k).
		dead := -1
		for c := range q {
			if scale[c] == 0 {
				dead = c
				break
			}
			for i := range n {
				a.Set(i, c, a.At(i, c)/scale[c])
			}
		}
		if dead < 0 {
			var qr mat.QR
			qr.Factorize(a)
			var r mat.Dense
			qr.RTo(&r)
			maxDiag := 0.0
			for c := range q {
				maxDiag = math.Max(maxDiag, math.Abs(r.At(c, c)))
			}
			worst := math.Inf(1)
			for c := range q {
				if d := math.Abs(r.At(c, c)); d < rankTol*maxDiag && d < worst {
					dead, worst = c, d
				}
			}
			if dead < 0 {
				var sol mat.VecDense
				if err := qr.SolveVecTo(&sol, false, b); err != nil {
					return nil, err
				}
				for c, j := range active {
					beta[j] = sol.AtVec(c) / scale[c]
				}
				return beta, nil
			}
		}
		active = append(active[:dead], active[dead+1:]...)
	}
	return beta, nil // every column was zero: the best fit is 0
}

// design evaluates terms at every sample, plus a trailing column of ones when
// intercept is set; row-major.
func design(data []Sample, terms []term, intercept bool) ([]float64, int) {
	p := len(terms)
	if intercept {
		p++
	}
	x := make([]float64, len(data)*p)
	for i := range data {
		v := data[i].Vars
		row := x[i*p : (i+1)*p]
		for j := range terms {
			row[j] = terms[j].eval(&v)
		}
		if intercept {
			row[p-1] = 1
		}
	}
	return x, p
}

// fitPoly fits intercept + Σ coef·terms to the samples' durations by
// (weighted) least squares.
func fitPoly(data []Sample, terms []term, w []float64) (poly, error) {
	return fitPolyTo(data, terms, durations(data), w)
}

// fitPolyTo fits intercept + Σ coef·terms evaluated at the samples to y.
func fitPolyTo(data []Sample, terms []term, y, w []float64) (poly, error) {
	x, p := design(data, terms, true)
	beta, err := lsq(x, len(data), p, y, w)
	if err != nil {
		return poly{}, err
	}
	return newPoly(terms, beta[:len(terms)], beta[len(terms)]), nil
}

// fitPolyNonneg is fitPoly with every coefficient, the intercept included,
// constrained to ≥ 0 (nnls): a call cannot cost less than nothing, and a
// negative term or intercept lets the others absorb what the smallest or the
// largest calls pay, with predictions below zero beyond the measured sizes.
// The intercept is also held at most at what the smallest calls measure
// (smallCallsBound): above it, it is charged to every tiny call of a run
// (issue 10: 2.5 ms on dgemm calls of µs), and a mean that cannot follow
// every size must not buy its fit of the large calls with it. When the
// intercept crosses that bound the constrained optimum has it on the bound
// (the problem is convex), so the terms are refitted, still ≥ 0, with the
// intercept fixed there.
func fitPolyNonneg(data []Sample, terms []term, w []float64) (poly, error) {
	return fitPolyNonnegBelow(data, terms, w, math.Inf(1))
}

// fitPolyNonnegBelow is fitPolyNonneg with the intercept also held at most
// at limit: a piece of a piecewise mean is held at what the kernel's
// smallest calls measure, not the piece's.
func fitPolyNonnegBelow(data []Sample, terms []term, w []float64, limit float64) (poly, error) {
	x, p := design(data, terms, true)
	beta, err := nnls(x, len(data), p, durations(data), w)
	if err != nil {
		return poly{}, err
	}
	b := beta[len(terms)]
	if len(terms) == 0 || b <= 0 {
		return newPoly(terms, beta[:len(terms)], b), nil
	}
	bound := min(limit, smallCallsBound(data, terms, w))
	if b <= bound {
		return newPoly(terms, beta[:len(terms)], b), nil
	}
	x, q := design(data, terms, false)
	y := durations(data)
	for i := range y {
		y[i] -= bound
	}
	if beta, err = nnls(x, len(data), q, y, w); err != nil {
		return poly{}, err
	}
	return newPoly(terms, beta, bound), nil
}

// smallCallsBound is the median duration of the smallest calls (the
// 1/smallCallShare of the weighted samples with the least Σ term values),
// the most an intercept may be.
func smallCallsBound(data []Sample, terms []term, w []float64) float64 {
	size := make([]float64, 0, len(data))
	idx := make([]int, 0, len(data))
	for i := range data {
		if w != nil && w[i] <= 0 {
			continue
		}
		v := data[i].Vars
		s := 0.0
		for j := range terms {
			s += terms[j].eval(&v)
		}
		size, idx = append(size, s), append(idx, i)
	}
	if len(idx) == 0 {
		return math.Inf(1)
	}
	k := max(1, len(idx)/smallCallShare)
	selectSmallest(size, idx, k)
	ys := make([]float64, k)
	for j, i := range idx[:k] {
		ys[j] = data[i].Seconds
	}
	return median(ys)
}

// selectSmallest reorders key and idx together so that their first k
// entries hold the k smallest keys (in no order): Hoare's quickselect, O(n)
// on average, since a full sort of every fit's samples in every IRLS round
// cost BenchmarkFitM2N2 a third of its speed. Pivots are medians of three,
// so the result is deterministic.
func selectSmallest(key []float64, idx []int, k int) {
	lo, hi := 0, len(key)-1
	swap := func(a, b int) {
		key[a], key[b] = key[b], key[a]
		idx[a], idx[b] = idx[b], idx[a]
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if key[mid] < key[lo] {
			swap(mid, lo)
		}
		if key[hi] < key[lo] {
			swap(hi, lo)
		}
		if key[hi] < key[mid] {
			swap(hi, mid)
		}
		pivot := key[mid]
		i, j := lo, hi
		for i <= j {
			for key[i] < pivot {
				i++
			}
			for key[j] > pivot {
				j--
			}
			if i <= j {
				swap(i, j)
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

func durations(data []Sample) []float64 {
	y := make([]float64, len(data))
	for i := range data {
		y[i] = data[i].Seconds
	}
	return y
}
