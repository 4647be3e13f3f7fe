package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/ranks"
)

// echoComm is a column communicator whose hypercube exchanges hand each
// step's message back to the rank that sent it (a candidate that never
// wins). Only sendRecvs is implemented.
type echoComm struct{ commPort }

func (echoComm) sendRecvs(n, _ int, ex ranks.Exchanger) {
	for k := range n {
		_, m, _ := ex.Exchange(k)
		ex.Received(k, m)
	}
}

// The pivot search runs once a panel column on every rank (540,000 times in
// a Dahu run at N = 20,000), so it allocates nothing: its hypercube
// exchange is the solver's own, refilled each call, not a new one boxed
// into ranks.Exchanger each time (once 70% of such a run's allocations).
func TestPivotSearchAllocatesNothing(t *testing.T) {
	const P, jb = 8, 16
	for _, real := range []bool{false, true} {
		for _, myrow := range []int{0, 5} { // the current row's owner and another
			t.Run(fmt.Sprintf("real=%v/myrow%d", real, myrow), func(t *testing.T) {
				g := &grid{p: P, q: 1, myrow: myrow, col: echoComm{}}
				s := &solver{n: 1024, nb: jb, lda: 1024, real: real, g: g}
				if real {
					s.a = make([]float64, 1024*jb)
				}
				pn := &panel{s: s, jb: jb, prow: 0, dpiv: make([]float64, jb)}
				work := make([]float64, 4+2*jb)
				allocs := testing.AllocsPerRun(50, func() {
					work[0], work[1], work[2], work[3] = 1, 0, float64(myrow), float64(myrow)
					pn.mxswp(4, 0, 3, work)
				})
				if allocs != 0 {
					t.Fatalf("%v allocations per pivot search, want 0", allocs)
				}
				if pn.dpiv[3] != float64(myrow) { // the echoes never win: the rank's own candidate stands
					t.Fatalf("pivot %v, want %d", pn.dpiv[3], myrow)
				}
			})
		}
	}
}
