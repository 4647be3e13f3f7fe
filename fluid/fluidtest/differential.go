package fluidtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Solver is any max-min solver under test: rates (bytes/s) for p's flows.
type Solver func(p Problem) []float64

// Differential draws n random problems from seed and checks solve against
// the reference solver (relative tolerance tol on each rate) and against
// the invariants of Check. A failure prints the problem as a Go literal,
// ready to become a named case in Cases, and stops the test.
func Differential(tb testing.TB, solve Solver, seed uint64, n int, c RandomConfig, tol float64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for i := range n {
		p := Random(rng, c)
		if err := Compare(p, solve(p), tol); err != nil {
			tb.Fatalf("random problem %d of seed %d: %v\nas a case: %s", i, seed, err, GoString(p))
		}
	}
}

// Compare checks rates against Reference(p) and Check(p, rates, tol).
func Compare(p Problem, rates []float64, tol float64) error {
	if err := Check(p, rates, tol); err != nil {
		return err
	}
	want := Reference(p)
	for f, x := range rates {
		w := want[f]
		if x != w && math.Abs(x-w) > tol*math.Max(1, math.Max(math.Abs(x), math.Abs(w))) {
			return fmt.Errorf("flow %d: rate %v, reference %v", f, x, w)
		}
	}
	return nil
}

// GoString renders p as a Go composite literal for a table case.
func GoString(p Problem) string {
	return fmt.Sprintf("%#v", p)
}
