package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// agreeTol is the largest relative difference allowed between a backend and
// the naive reference: a few ulps times the inner dimension (≤ 40 here).
const agreeTol = 1e-12

// recorder is a Charger that remembers every charge.
type recorder struct {
	seconds []float64
	kernels []string
}

func (r *recorder) Compute(s float64, k string) {
	r.seconds = append(r.seconds, s)
	r.kernels = append(r.kernels, k)
}

func randSlice(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

func assertClose(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		scale := math.Max(1, math.Abs(want[i]))
		if math.Abs(got[i]-want[i]) > agreeTol*scale*40 {
			t.Fatalf("%s: element %d = %.17g, want %.17g", what, i, got[i], want[i])
		}
	}
}

// testBackends returns every backend compiled in, so the cblas build checks
// OpenBLAS with the same tables.
func testBackends(t *testing.T) []string {
	t.Helper()
	return Backends()
}

func newReal(t *testing.T, backend string) *Set {
	t.Helper()
	return New(Config{Mode: Real, Backend: backend}, &recorder{}, nil)
}

var transposes = []blas.Transpose{blas.NoTrans, blas.Trans}

// shapes includes tall-skinny, wide, square, and 1-sized dimensions, as HPL
// calls them; lda pads the leading dimension to catch stride mistakes.
var shapes = []struct{ m, n, k, pad int }{
	{1, 1, 1, 0}, {5, 3, 2, 1}, {3, 7, 4, 2}, {17, 2, 3, 0}, {2, 19, 5, 3}, {8, 8, 8, 1}, {33, 4, 1, 2},
}

func TestDgemmMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, be := range testBackends(t) {
		k := newReal(t, be)
		dgemmMatchesReference(t, rng, be, shapes, k.Dgemm)
	}
}

// TestOneCoreDgemmMatchesReference checks the tiled dgemm OneCore runs:
// shapes of four or more 64×64 tiles of C (those gonum would parallelise),
// ragged edges, an inner dimension over several tiles, and β ≠ 1 applied once.
func TestOneCoreDgemmMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range testBackends(t) {
		be, err := LookupBackend(name)
		if err != nil {
			t.Fatal(err)
		}
		tiled := []struct{ m, n, k, pad int }{{128, 128, 64, 0}, {200, 70, 150, 3}, {65, 300, 1, 1}, {64, 256, 129, 0}}
		dgemmMatchesReference(t, rng, name, tiled, OneCore(be).Dgemm)
	}
}

// dgemmMatchesReference runs dgemm on every shape and transpose pair with
// padded leading dimensions and compares C with the reference dgemm's.
func dgemmMatchesReference(t *testing.T, rng *rand.Rand, label string, shapes []struct{ m, n, k, pad int },
	dgemm func(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)) {
	t.Helper()
	for _, s := range shapes {
		for _, tA := range transposes {
			for _, tB := range transposes {
				name := fmt.Sprintf("%s/%dx%dx%d/%c%c", label, s.m, s.n, s.k, tA, tB)
				ar, ac := s.m, s.k
				if tA != blas.NoTrans {
					ar, ac = s.k, s.m
				}
				br, bc := s.k, s.n
				if tB != blas.NoTrans {
					br, bc = s.n, s.k
				}
				lda, ldb, ldc := ar+s.pad, br+s.pad, s.m+s.pad
				a, b := randSlice(rng, lda*ac), randSlice(rng, ldb*bc)
				c := randSlice(rng, ldc*s.n)
				want := append([]float64(nil), c...)
				refDgemm(tA, tB, s.m, s.n, s.k, 0.7, a, lda, b, ldb, -1.3, want, ldc)
				dgemm(tA, tB, s.m, s.n, s.k, 0.7, a, lda, b, ldb, -1.3, c, ldc)
				assertClose(t, name, c, want)
			}
		}
	}
}

// triangular returns a well-conditioned order×order column-major matrix
// with leading dimension lda: both triangles random (the solver must ignore
// the other one), diagonal dominant.
func triangular(rng *rand.Rand, order, lda int) []float64 {
	a := randSlice(rng, lda*order)
	for i := 0; i < order; i++ {
		for j := 0; j < order; j++ {
			a[i+j*lda] /= float64(order)
		}
		a[i+i*lda] += 2
	}
	return a
}

// TestDtrsmSolves checks op(A)·X = α·B (left) or X·op(A) = α·B (right) by
// multiplying the result back with the naive dense op(A).
func TestDtrsmSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, be := range testBackends(t) {
		k := newReal(t, be)
		for _, s := range shapes {
			for _, side := range []blas.Side{blas.Left, blas.Right} {
				for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
					for _, tA := range transposes {
						for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
							name := fmt.Sprintf("%s/%dx%d/%c%c%c%c", be, s.m, s.n, side, ul, tA, d)
							order := s.m
							if side == blas.Right {
								order = s.n
							}
							lda, ldb := order+s.pad, s.m+s.pad
							a := triangular(rng, order, lda)
							b := randSlice(rng, ldb*s.n)
							x := append([]float64(nil), b...)
							const alpha = 1.5
							k.Dtrsm(side, ul, tA, d, s.m, s.n, alpha, a, lda, x, ldb)
							op := refTriDense(ul, tA, d, order, a, lda)
							got := make([]float64, ldb*s.n)
							want := make([]float64, ldb*s.n)
							if side == blas.Left {
								refDgemm(blas.NoTrans, blas.NoTrans, s.m, s.n, s.m, 1, op, order, x, ldb, 0, got, ldb)
							} else {
								refDgemm(blas.NoTrans, blas.NoTrans, s.m, s.n, s.n, 1, x, ldb, op, order, 0, got, ldb)
							}
							for j := 0; j < s.n; j++ {
								for i := 0; i < s.m; i++ {
									want[i+j*ldb] = alpha * b[i+j*ldb]
								}
							}
							assertClose(t, name, got, want)
						}
					}
				}
			}
		}
	}
}

func TestDtrsvSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, be := range testBackends(t) {
		k := newReal(t, be)
		for _, n := range []int{1, 2, 7, 16} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, tA := range transposes {
					for _, d := range []blas.Diag{blas.NonUnit, blas.Unit} {
						for _, inc := range []int{1, 3} {
							name := fmt.Sprintf("%s/n%d/%c%c%c/inc%d", be, n, ul, tA, d, inc)
							lda := n + 2
							a := triangular(rng, n, lda)
							b := randSlice(rng, (n-1)*inc+1)
							x := append([]float64(nil), b...)
							k.Dtrsv(ul, tA, d, n, a, lda, x, inc)
							op := refTriDense(ul, tA, d, n, a, lda)
							got := make([]float64, len(x))
							copy(got, x)
							refDgemv(blas.NoTrans, n, n, 1, op, n, x, inc, 0, got, inc)
							assertClose(t, name, got, b)
						}
					}
				}
			}
		}
	}
}

func TestDgemvDgerMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, be := range testBackends(t) {
		k := newReal(t, be)
		for _, s := range shapes {
			lda := s.m + s.pad
			for _, tA := range transposes {
				for _, inc := range []int{1, 2} {
					name := fmt.Sprintf("%s/gemv/%dx%d/%c/inc%d", be, s.m, s.n, tA, inc)
					lx, ly := s.n, s.m
					if tA != blas.NoTrans {
						lx, ly = s.m, s.n
					}
					a := randSlice(rng, lda*s.n)
					x := randSlice(rng, (lx-1)*inc+1)
					y := randSlice(rng, (ly-1)*inc+1)
					want := append([]float64(nil), y...)
					refDgemv(tA, s.m, s.n, -0.5, a, lda, x, inc, 2, want, inc)
					k.Dgemv(tA, s.m, s.n, -0.5, a, lda, x, inc, 2, y, inc)
					assertClose(t, name, y, want)
				}
			}
			name := fmt.Sprintf("%s/ger/%dx%d", be, s.m, s.n)
			a := randSlice(rng, lda*s.n)
			x, y := randSlice(rng, 2*s.m), randSlice(rng, s.n)
			want := append([]float64(nil), a...)
			refDger(s.m, s.n, 0.25, x, 2, y, 1, want, lda)
			k.Dger(s.m, s.n, 0.25, x, 2, y, 1, a, lda)
			assertClose(t, name, a, want)
		}
	}
}

func TestLevel1MatchesDefinitions(t *testing.T) {
	for _, be := range testBackends(t) {
		k := newReal(t, be)
		x := []float64{1, -9, 2, 9, -3, 4}
		y := []float64{10, 20, 30}
		// Stride 2 over x sees 1, 2, -3.
		k.Daxpy(3, 2, x, 2, y, 1) // y = {12, 24, 24}
		assertClose(t, be+"/daxpy", y, []float64{12, 24, 24})
		k.Dscal(3, 0.5, y, 1)
		assertClose(t, be+"/dscal", y, []float64{6, 12, 12})
		k.Dcopy(3, y, 1, x, 2) // x = {6, -9, 12, 9, 12, 4}
		assertClose(t, be+"/dcopy", x, []float64{6, -9, 12, 9, 12, 4})
		z := []float64{0, 0, 0}
		k.Dswap(3, z, 1, x, 2)
		assertClose(t, be+"/dswap", z, []float64{6, 12, 12})
		assertClose(t, be+"/dswap", x, []float64{0, -9, 0, 9, 0, 4})
		// First of equal maxima wins; |−9| and |9| tie at indexes 1 and 3.
		if got := k.Idamax(6, x, 1); got != 1 {
			t.Errorf("%s: idamax = %d, want 1", be, got)
		}
		if got := k.Idamax(3, x, 2); got != 0 { // all zero: first
			t.Errorf("%s: idamax stride 2 = %d, want 0", be, got)
		}
		if got := k.Idamax(0, nil, 1); got != 0 {
			t.Errorf("%s: idamax n=0 = %d, want 0 (HPL_idamax)", be, got)
		}
	}
}

func TestUnknownBackend(t *testing.T) {
	err := Config{Backend: "mkl"}.Validate()
	if err == nil {
		t.Fatal("Validate accepted backend mkl")
	}
	if err := (Config{SpeedRatio: -1}).Validate(); err == nil {
		t.Fatal("Validate accepted a negative speed ratio")
	}
}

// TestEmptyInnerDimension: with k = 0 dgemm only scales C (HPL passes
// empty A and B then), and charges nothing.
func TestEmptyInnerDimension(t *testing.T) {
	rec := &recorder{}
	k := New(Config{Mode: Real}, rec, nil)
	c := []float64{1, 2, 99, 3, 4, 99} // 2×2 with ldc 3
	k.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, nil, 1, nil, 1, 1, c, 3)
	assertClose(t, "beta=1", c, []float64{1, 2, 99, 3, 4, 99})
	k.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, nil, 1, nil, 1, 0.5, c, 3)
	assertClose(t, "beta=0.5", c, []float64{0.5, 1, 99, 1.5, 2, 99})
	k.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, nil, 1, nil, 1, 0, c, 3)
	assertClose(t, "beta=0", c, []float64{0, 0, 99, 0, 0, 99})
	if len(rec.seconds) != 0 {
		t.Errorf("charged %v for empty multiplies", rec.seconds)
	}
}
