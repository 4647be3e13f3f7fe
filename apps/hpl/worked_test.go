package hpl

import (
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/ranks"
)

// hpl.md §13.1's worked example: N = 8, NB = 2, P = Q = 2. Panel broadcast
// lengths per process row are (11, 15), (11, 11), (7, 11), (7, 7) doubles; each
// pivot round is one exchange in which the diagonal rank sends 2·jb+4 = 8
// doubles and receives jb+4 = 6; back substitution starts by moving b (mp = 4
// doubles) from process column 0 to column 1 on tag 3001.
func TestWorkedExampleN8(t *testing.T) {
	p := Params{N: 8, NB: 2, P: 2, Q: 2, PFact: Right, RFact: Right, NBMin: 2, NDiv: 2, BCast: OneRing,
		Depth: 0, Swap: BinaryExchange, Alignment: 8, Threshold: 16}
	type send struct{ rank, peer, tag, bytes int }
	var sends []send
	hook := func(e *ranks.Event) {
		if e.Kind == ranks.SendPost {
			sends = append(sends, send{e.Rank, e.Peer, e.Tag, e.Bytes})
		}
	}
	runHPL(t, p, kernels.Model, Options{Pivot: PivotDiagonal}, 0, hook)
	// broadcasts: panel k has tag 2001+k; process row r is world ranks 2r, 2r+1
	wantLen := [4][2]int{{11, 15}, {11, 11}, {7, 11}, {7, 7}}
	for k := range 4 {
		for r := range 2 {
			n := 0
			for _, s := range sends {
				if s.tag == tagFactBegin+k && s.rank/2 == r {
					n++
					if s.bytes != wantLen[k][r]*8 {
						t.Errorf("panel %d row %d: %d bytes, want %d", k, r, s.bytes, wantLen[k][r]*8)
					}
				}
			}
			if n != 1 {
				t.Errorf("panel %d row %d: %d broadcast messages, want 1", k, r, n)
			}
		}
	}
	// pivot rounds: 8 rounds, each 8 doubles from the diagonal rank, 6 back
	var big, small int
	for _, s := range sends {
		if s.tag == tagPfact && s.bytes == 8*8 {
			big++
		}
		if s.tag == tagPfact && s.bytes == 6*8 {
			small++
		}
	}
	if big != 8+1 || small != 8+2 {
		t.Errorf("tag 1001: %d messages of 8 doubles and %d of 6, want 9 and 10", big, small)
	}
	// b moves from column 0 to column 1 in both process rows
	moved := 0
	for _, s := range sends {
		if s.tag == tagTrsvBegin && s.bytes == 4*8 && s.rank%2 == 0 && s.peer == s.rank+1 {
			moved++
		}
	}
	if moved != 2 {
		t.Errorf("b moves: %d, want 2", moved)
	}
}
