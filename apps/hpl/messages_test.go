package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/ranks"
)

// sends collects SendPost events: tag → process row → (count, bytes).
type sends struct {
	p    Params
	rows map[int]map[int][2]int
}

func newSends(p Params) *sends { return &sends{p: p, rows: map[int]map[int][2]int{}} }

func (s *sends) hook(e *ranks.Event) {
	if e.Kind != ranks.SendPost {
		return
	}
	row, _ := gridCoords(e.Rank, s.p.P, s.p.Q, s.p.PMap)
	if s.rows[e.Tag] == nil {
		s.rows[e.Tag] = map[int][2]int{}
	}
	v := s.rows[e.Tag][row]
	s.rows[e.Tag][row] = [2]int{v[0] + 1, v[1] + e.Bytes}
}

// bcastExpect is the number of messages and bytes one process row sends to
// broadcast a payload of L doubles over Q columns (hpl.md §6), derived
// independently of the code: rings are trees with Q−1 edges of the whole
// payload; long is a binomial scatter in which non-root v receives the pieces
// of its subtree v … v+lowbit(v)−1, then a roll in which every rank receives
// the G−1 pieces it lacks; longM first sends everything to relative rank 1.
func bcastExpect(b BCast, Q, L int) (int, int) {
	switch b {
	case Long, LongM:
		msgs, bytes := 0, 0
		G := Q
		if b == LongM {
			msgs, bytes = 1, L*8
			if Q == 2 {
				return msgs, bytes
			}
			G = Q - 1
		}
		c := max(L/G, 1)
		for v := 1; v < G; v++ {
			end := v + v&-v
			hi := L
			if end < G {
				hi = min(end*c, L)
			}
			msgs++
			bytes += max(0, hi-min(v*c, L)) * 8
		}
		return msgs + G*(G-1), bytes + (G-1)*L*8
	}
	return Q - 1, (Q - 1) * L * 8
}

// TestBroadcastMessages checks every broadcast's messages and bytes a
// process row against bcastExpect. Merged rolls (RollMerged) send the same
// bytes as HPL's steps in two exchanges a rank instead of G−1: the spread's
// messages plus G·min(G−1, 2).
func TestBroadcastMessages(t *testing.T) {
	type variant struct {
		b    BCast
		roll RollModel
	}
	var variants []variant
	for b := OneRing; b <= LongM; b++ {
		variants = append(variants, variant{b, RollSteps})
	}
	variants = append(variants, variant{Long, RollMerged}, variant{LongM, RollMerged}) // the rolls merged are long broadcasts'
	for _, v := range variants {
		b, roll := v.b, v.roll
		for _, q := range []int{2, 3, 4, 5, 7} {
			p := Params{N: 61, NB: 6, P: 2, Q: q, PFact: Right, RFact: Right, NBMin: 2, NDiv: 2, BCast: b,
				Depth: 0, Swap: BinaryExchange, Alignment: 8, Threshold: 16}
			t.Run(fmt.Sprintf("%s_%s_Q%d", roll, b, q), func(t *testing.T) {
				rec := newSends(p)
				opt := Options{Roll: roll}
				if roll == RollMerged {
					opt.Shared = NewShared()
				}
				runHPL(t, p, kernels.Model, opt, 1e-6, rec.hook)
				for j, tag := 0, tagFactBegin; j < p.N; j, tag = j+p.NB, tag+1 {
					jb := min(p.NB, p.N-j)
					for r := 0; r < p.P; r++ {
						mp := numrocI(p.N-j, j, p.NB, r, p.P)
						ml2 := mp
						if r == g2p(j, p.NB, p.P) {
							ml2 = max(0, mp-jb)
						}
						L := ml2*jb + jb*jb + jb + 1
						wm, wb := bcastExpect(b, q, L)
						if G := rollGroup(b, q); roll == RollMerged && G > 1 {
							wm += G*min(G-1, 2) - G*(G-1)
						}
						if got := rec.rows[tag][r]; got != [2]int{wm, wb} {
							t.Errorf("panel %d row %d: %d msgs %d bytes, want %d %d", j, r, got[0], got[1], wm, wb)
						}
					}
				}
			})
		}
	}
}

// With the diagonal pivot rule no row moves, so each panel's column traffic is
// the pivot rounds plus U reaching the other ranks: binary exchange sends U
// (jb·n) ip2−1 times in the hypercube, and for r = P−ip2 > 0 once more in the
// fold-in, r−1 times in the upper tree and r times in the fold-out (P+r−1 in
// all, hpl.md §7.2); spread-roll without equilibration rolls the jb rows to the
// P−1 others. Pivot rounds (hpl.md §5.3): P=4 is two exchange steps per column,
// 3 messages of 2jb+4 and 5 of jb+4; P=3 is {jb, jb+4}, {2jb+4, jb+4}, {jb+4}.
func TestPivotAndSwapMessages(t *testing.T) {
	for _, P := range []int{3, 4} {
		for _, sw := range []Swap{BinaryExchange, SpreadRoll, Mix} {
			p := Params{N: 50, NB: 7, P: P, Q: 1, PFact: Crout, RFact: Left, NBMin: 3, NDiv: 2, BCast: OneRing,
				Depth: 0, Swap: sw, SwapThreshold: 20, Alignment: 8, Threshold: 16}
			t.Run(fmt.Sprintf("P%d_%s", P, sw), func(t *testing.T) {
				rec := newSends(p)
				runHPL(t, p, kernels.Model, Options{Pivot: PivotDiagonal}, 0, rec.hook)
				want := 0
				for j := 0; j < p.N; j += p.NB {
					jb := min(p.NB, p.N-j)
					n := p.N + 1 - j - jb // columns the update swaps (Q = 1: all of them)
					if P == 4 {
						want += jb * (3*(2*jb+4) + 5*(jb+4)) * 8
					} else {
						want += jb * (6*jb + 16) * 8
					}
					copies := P - 1
					// mix: binary exchange when the call's columns are ≤ the threshold
					if sw == BinaryExchange || (sw == Mix && n <= p.SwapThreshold) {
						copies = P + (P - pow2floor(P)) - 1
					}
					if n > 0 {
						want += copies * jb * n * 8
					}
				}
				got := 0
				for _, v := range rec.rows[tagPfact] {
					got += v[1]
				}
				if got != want {
					t.Errorf("column traffic %d bytes, want %d", got, want)
				}
			})
		}
	}
}

// rollGroup is the size of a long broadcast's roll group over Q columns:
// longM leaves relative rank 1 out (it has the whole payload).
func rollGroup(b BCast, Q int) int {
	if b == LongM {
		if Q == 2 {
			return 0
		}
		return Q - 1
	}
	return Q
}

func TestMergedRollNeedsShared(t *testing.T) {
	p := Params{N: 61, NB: 6, P: 1, Q: 3, PFact: Right, RFact: Right, NBMin: 2, NDiv: 2, BCast: Long,
		Depth: 0, Swap: BinaryExchange, Alignment: 8, Threshold: 16}
	w := world(t, 3, 0)
	errs := make([]error, 3)
	if err := w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: kernels.Model, Models: peerModels(t)}, r, r.Rand())
		_, errs[r.ID()] = Run(r, p, k, Options{Roll: RollMerged})
	}); err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("rank %d: merged rolls without a Shared ran", i)
		}
	}
}
