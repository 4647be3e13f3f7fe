package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/ranks"
)

// TestSdrvReceiveOnlyBlocks: HPL_sdrv with nothing to send receives with a
// blocking MPI_Recv, not an Irecv and a Wait (HPL 2.3's HPL_sdrv; smpirun's
// trace of validation/testdata/hpltrace's 006.dat showed the departure).
// With binary-exchange swaps every tag-1001 message is HPL_sdrv's or
// HPL_send/HPL_recv's, so an Irecv on it is always followed by a Send
// before its Wait. On P = 3 (not a power of two) and P = 5 the exchanges
// fold, and rows with no W to send only receive.
func TestSdrvReceiveOnlyBlocks(t *testing.T) {
	for _, c := range []struct{ n, nb, p int }{{321, 24, 3}, {200, 13, 5}, {97, 8, 3}} {
		p := DefaultParams()
		p.N, p.NB, p.P, p.Q, p.Swap, p.Depth = c.n, c.nb, c.p, 1, BinaryExchange, 0
		t.Run(fmt.Sprintf("N%d_NB%d_P%d", c.n, c.nb, c.p), func(t *testing.T) {
			call := make([]string, c.p)
			open := make([]bool, c.p) // an Irecv on tag 1001 with no Send since
			recvs := 0
			bad := ""
			hook := func(e *ranks.Event) {
				r := e.Rank
				switch {
				case e.Kind == ranks.CallStart:
					call[r] = e.Kernel
					if e.Kernel == "MPI_Wait" && open[r] && bad == "" {
						bad = fmt.Sprintf("rank %d: an Irecv on tag %d waited for with no Send between, at %g s", r, tagPfact, e.Time)
					}
					if e.Kernel == "MPI_Wait" {
						open[r] = false
					}
				case e.Kind == ranks.RecvPost && e.Tag == tagPfact:
					if call[r] == "MPI_Irecv" {
						open[r] = true
					} else {
						recvs++
					}
				case e.Kind == ranks.SendPost && e.Tag == tagPfact:
					open[r] = false
				}
			}
			res := runHPL(t, p, kernels.Real, Options{}, 0, hook)
			if !res.Passed {
				t.Fatalf("residual %g", res.Residual)
			}
			if bad != "" {
				t.Fatal(bad)
			}
			if recvs == 0 {
				t.Fatal("no blocking receive on the pivot and swap tag: the case tests nothing")
			}
		})
	}
}
