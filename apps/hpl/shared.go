package hpl

import "slices"

// Shared holds what the ranks of one run compute alike and may compute once
// for all: per panel, the list of row moves its DPIV implies (pipid, with
// nextOf and each entry's owner). Every rank of the grid receives the
// panel's DPIV with the broadcast, so the list is the same on all of them;
// computed on each, it was 6% of a Stampede panel's CPU and, as 6,006 ranks'
// scratch arrays, 900 MB of the live heap. It also lends the ranks of a
// panel's process column their factorization workspaces, for the time of
// the factorization: a rank factors one panel in Q, so a workspace of its
// own would sit idle (at Stampede's scale, 16 KiB × 6,006 ranks, gained
// a process column per panel). Ranks run one at a time, so they share it
// without locks. Give one Shared to every rank of a run through
// Options.Shared; nil leaves each rank to compute its own.
type Shared struct {
	swap            swapScratch
	ipid, next, own []int                  // computeMoves' arrays; each list is copied out at its size
	recent          [sharedLists]*moveList // the lists last computed, newest first
	work            [][]float64            // factorization workspaces not lent
	rolls           map[rollKey]*rollData  // roots' payloads for merged rolls (RollMerged)
}

// sharedLists is how many panels' lists a Shared keeps: ranks drift apart by
// a panel or two (the look-ahead), never more.
const sharedLists = 4

// NewShared returns an empty Shared for one run.
func NewShared() *Shared { return new(Shared) }

// moveList is one panel's list of moves, read-only once made: the ranks'
// panels point into its arrays.
type moveList struct {
	key               moveKey
	dpiv              []float64 // the pivots it was computed from (a copy)
	ipid, next, owner []int
	// HPL_plindx0's arrays (panel.plindx0), made by the first rank that
	// needs them: llen is the same for every process row, rows[r] holds
	// process row r's own.
	llen []int
	rows []*rowIndex
	// HPL_plindx1's arrays (panel.plindx1) for every process row, made by
	// the first rank that needs them.
	spread *spreadIndex
}

// rowIndex is HPL_plindx0's lindxA and lindxAU for the ranks of one
// process row.
type rowIndex struct{ lindxA, lindxAU []int }

// moves returns the list of moves of panel k with pivots dpiv: one of the
// recent lists if it has the same key and pivots, else a new one.
func (sh *Shared) moves(k moveKey, dpiv []float64) *moveList {
	dpiv = dpiv[:k.jb]
	for _, m := range sh.recent {
		if m != nil && m.key == k && slices.Equal(m.dpiv, dpiv) {
			return m
		}
	}
	sh.ipid, sh.next, sh.own = computeMoves(&sh.swap, k, dpiv, sh.ipid, sh.next, sh.own)
	m := &moveList{key: k, dpiv: slices.Clone(dpiv),
		ipid: slices.Clone(sh.ipid), next: slices.Clone(sh.next), owner: slices.Clone(sh.own)}
	copy(sh.recent[1:], sh.recent[:])
	sh.recent[0] = m
	return m
}

// takeWork lends a zeroed workspace of n doubles for one panel
// factorization; putWork takes it back.
func (sh *Shared) takeWork(n int) []float64 {
	var w []float64
	if k := len(sh.work); k > 0 {
		w, sh.work[k-1], sh.work = sh.work[k-1], nil, sh.work[:k-1]
	}
	return zeroed(w, n)
}

func (sh *Shared) putWork(w []float64) { sh.work = append(sh.work, w) }
