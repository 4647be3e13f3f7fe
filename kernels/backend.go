package kernels

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/gonum/blas"
)

// Backend executes the kernels on real data. Every matrix is column-major in
// HPL's argument order (see the package documentation); a backend that is
// row-major underneath does the mapping itself.
type Backend interface {
	Name() string
	Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
	Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int)
	Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int)
	Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int)
	Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int)
	Dscal(n int, alpha float64, x []float64, incX int)
	Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int)
	Dcopy(n int, x []float64, incX int, y []float64, incY int)
	Dswap(n int, x []float64, incX int, y []float64, incY int)
	// Idamax returns the 0-based index of the first element of largest
	// absolute value among n > 0 elements.
	Idamax(n int, x []float64, incX int) int
}

// DefaultBackend is the pure-Go backend every build has.
const DefaultBackend = "gonum"

// backends maps a backend name to its constructor. Entries are added by init
// functions only (openblas.go under the cblas build tag), never at run time.
var backends = map[string]func() Backend{
	DefaultBackend: func() Backend { return gonumBackend{} },
}

// Backends lists the backends compiled into this binary, sorted.
func Backends() []string {
	names := make([]string, 0, len(backends))
	for name := range backends {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// LookupBackend returns the named backend; "" means DefaultBackend.
func LookupBackend(name string) (Backend, error) {
	if name == "" {
		name = DefaultBackend
	}
	mk, ok := backends[name]
	if !ok {
		hint := ""
		if name == "openblas" {
			hint = " (rebuild with -tags cblas)"
		}
		return nil, fmt.Errorf("kernels: unknown BLAS backend %q%s; this binary has %s", name, hint, strings.Join(Backends(), ", "))
	}
	return mk(), nil
}
