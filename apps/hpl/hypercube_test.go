package hpl

import (
	"math/rand/v2"
	"testing"
)

// The binary exchange's hypercube reads, at every step, the row counts HPL's
// own bookkeeping holds then: HPL's loop (hpl.md §7.2, 2a), which after each
// step sets both entries of every pair to their sum, run beside it on random
// counts for every P up to 70 and every owner of the current row.
func TestHypercubeRowsMatchHPL(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var pre []int
	for P := 1; P <= 70; P++ {
		ip2 := pow2floor(P)
		for icur := range P {
			llen := make([]int, P)
			for i := range llen {
				llen[i] = rng.IntN(9) // empty rows too
			}
			h := hypercubeRows(&pre, llen, icur, ip2)
			for k, ipow := 0, 1; k < log2(ip2); k, ipow = k+1, ipow<<1 {
				for d := range ip2 {
					if got, want := h.rows(d, k), llen[modAdd(icur, d, P)]; got != want {
						t.Fatalf("P=%d icur=%d step %d distance %d: %d rows, HPL's count %d", P, icur, k, d, got, want)
					}
				}
				for ipdist, iprow := 0, icur; ipdist < ip2; ipdist, iprow = ipdist+1, modAdd(iprow, 1, P) {
					if p2 := ipdist ^ ipow; p2 > ipdist {
						p2 = modAdd(icur, p2, P)
						llen[iprow] += llen[p2]
						llen[p2] = llen[iprow]
					}
				}
			}
		}
	}
}
