package models

// Natural term sets of the kernels emu knows (reference/hpl.md §12 and the
// kernels package's Vars conventions: dtrsm carries the triangle order in K,
// dtrsv its order in N, level-1 kernels their length in N, HPL's copy and
// swap routines rows in M and columns in N; dlaswp, dgather and dscatter,
// whose rows of A are scattered, the local rows they are scattered over in K).

// kernelDims lists, per kernel, the variables its calls use.
var kernelDims = map[string]string{
	"dgemm": "mnk", "dtrsm": "mnk",
	"dgemv": "mn", "dger": "mn",
	"dtrsv": "n",
	"dscal": "n", "daxpy": "n", "dcopy": "n", "dswap": "n", "idamax": "n",
	"dlacpy": "mn", "dlatcpy": "mn", "dlaswp": "mnk", "duswp": "mn", "dlocswp": "mn",
	"dgather": "mnk", "dscatter": "mnk",
}

// ProductTerm is the M1 term of a kernel: the product that drives its cost
// (dgemm and dtrsm "m*n*k", dgemv and dger "m*n", dtrsv "n*n", level-1 "n",
// HPL's copies and swaps "m*n"); "" for a kernel it does not know.
func ProductTerm(kernel string) string {
	switch family(kernel) {
	case "dtrsv":
		return "n*n"
	case "dlaswp", "dgather", "dscatter":
		return "m*n" // elements moved; K only makes each dearer
	}
	dims, ok := dimsOf(kernel)
	if !ok {
		return ""
	}
	return productOf(dims).String()
}

// PieceTerms is the term set of each piece of a kernel's Mp mean, nil where
// it is the product term alone. A level-3 kernel (dgemm, dtrsm) also pays
// per element of its m×n output — C or B read and written once a call,
// packing amortised over k — so its time per multiply-add is a + b/k and a
// piece gets the output term m*n beside m*n*k: with the product alone, a
// piece holding NB = 64 and NB = 128 updates charged both one rate, where
// OpenBLAS on the project's VM runs k = 64 about 5% slower per multiply-add
// than k = 128, and emu's predictions of real HPL came out 5 points lower
// at NB = 64 than at NB = 128 (TestPieceTermsSeeTheInnerDimension).
func PieceTerms(kernel string) []string {
	switch family(kernel) {
	case "dgemm", "dtrsm":
		return []string{"m*n*k", "m*n"}
	}
	return nil
}

// PolyTerms is the M2 term set of a kernel: every product of its variables
// with each variable at most once, highest degree first, then "1" (dgemm:
// m*n*k, m*n, m*k, n*k, m, n, k, 1); dtrsv, whose cost is quadratic in its
// order, gets n*n, n, 1. Nil for a kernel it does not know.
func PolyTerms(kernel string) []string {
	switch family(kernel) {
	case "dtrsv":
		return []string{"n*n", "n", "1"}
	case "dlaswp", "dgather", "dscatter":
		// Each element moved costs a cache line, and more the wider the
		// rows are scattered (TLB misses): m*n at a rate growing with k.
		return []string{"m*n*k", "m*n", "m", "n", "1"}
	}
	dims, ok := dimsOf(kernel)
	if !ok {
		return nil
	}
	ts := multilinear(dims)
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// dimsOf resolves a kernel's variables; HPL's own routines are matched by
// family so "HPL_dlaswp01T" and "dlaswp00N" both count as dlaswp.
func dimsOf(kernel string) ([]int, bool) {
	d, ok := kernelDims[family(kernel)]
	if !ok {
		return nil, false
	}
	idx := make([]int, len(d))
	for i := range d {
		idx[i] = varIndex(d[i : i+1])
	}
	return idx, true
}

// family is the kernelDims entry a kernel name belongs to: itself, or for
// HPL's variants of its own routines their family ("HPL_dlaswp01T" and
// "dlaswp00N" are dlaswp); an unknown name is returned as it is.
func family(kernel string) string {
	if _, ok := kernelDims[kernel]; ok {
		return kernel
	}
	for _, fam := range sortedKeys(kernelDims) {
		if len(fam) > 5 && (hasPrefix(kernel, fam) || hasPrefix(kernel, "HPL_"+fam)) {
			return fam
		}
	}
	return kernel
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// productOf is the product of the given variables.
func productOf(dims []int) term {
	var t term
	for _, d := range dims {
		t[d]++
	}
	return t
}

// multilinear lists every product of a subset of dims, by decreasing degree
// and then in m, n, k, w order, ending with the constant term.
func multilinear(dims []int) []term {
	n := len(dims)
	var out []term
	for deg := n; deg >= 0; deg-- {
		for mask := (1 << n) - 1; mask >= 0; mask-- {
			if bitCount(mask) != deg {
				continue
			}
			var t term
			for i := range n {
				if mask&(1<<(n-1-i)) != 0 {
					t[dims[i]]++
				}
			}
			out = append(out, t)
		}
	}
	return out
}

func bitCount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}
