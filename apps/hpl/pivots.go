package hpl

import (
	"fmt"
	"sync"
)

// Pivot rules for model mode (hpl.md §14 "Data-dependent message sizes"): with no
// matrix, the pivot row of each global column comes from a rule every rank
// evaluates identically, so the swap message sizes stay realistic.

// PivotRule names a model-mode pivot rule.
type PivotRule uint8

const (
	PivotSplitmix PivotRule = iota // the SMPI peer's MR rule, seed 42 (peers/smpi/README.md §2)
	PivotDiagonal                  // the diagonal row: no row ever moves (peer runs MD)
	PivotRandom                    // the MR formula with Options.Seed instead of 42
	PivotReplay                    // rows recorded from a real-mode run (Options.Replay)
)

var pivotNames = []string{"splitmix", "diagonal", "random", "replay"}

func (r PivotRule) String() string { return name(pivotNames, uint8(r), "pivot") }

// ParsePivotRule accepts "splitmix", "diagonal", "random" or "replay".
func ParsePivotRule(s string) (PivotRule, error) {
	v, err := parseName(pivotNames, nil, s, "pivot rule")
	return PivotRule(v), err
}

// mrSeed is the seed of the SMPI peer's MR runs.
const mrSeed = 42

// splitmixRow is the MR rule: for global column c of an order-n matrix, row
// c + h(c) mod (n − c), h the splitmix64 finalizer of c XOR (seed << 32) after
// adding the golden gamma.
func splitmixRow(c, n int, seed uint64) int {
	z := uint64(c) ^ (seed << 32)
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return c + int(z%uint64(n-c))
}

// pivotSource evaluates a rule for one run.
type pivotSource struct {
	rule   PivotRule
	seed   uint64
	replay *Pivots
}

// row is the pivot row of global column c (c < n).
func (ps pivotSource) row(c, n int) int {
	switch ps.rule {
	case PivotDiagonal:
		return c
	case PivotRandom:
		return splitmixRow(c, n, ps.seed)
	case PivotReplay:
		if r, ok := ps.replay.Row(c); ok && r >= c && r < n {
			return r
		}
		return c
	}
	return splitmixRow(c, n, mrSeed)
}

// Pivots records the pivot row chosen for every global column of one run (real
// mode) so that a model-mode run can replay them. It is safe for concurrent use
// by the ranks of one run.
type Pivots struct {
	mu   sync.Mutex
	rows []int // rows[c] = pivot row of column c, −1 unknown
}

// NewPivots returns an empty record for an order-n system.
func NewPivots(n int) *Pivots {
	p := &Pivots{rows: make([]int, n)}
	for i := range p.rows {
		p.rows[i] = -1
	}
	return p
}

func (p *Pivots) set(c, r int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c >= 0 && c < len(p.rows) {
		p.rows[c] = r
	}
}

// Row returns the recorded pivot row of column c.
func (p *Pivots) Row(c int) (int, bool) {
	if p == nil {
		return 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c < 0 || c >= len(p.rows) || p.rows[c] < 0 {
		return 0, false
	}
	return p.rows[c], true
}

// Rows returns a copy of the record (−1 where a column was not seen).
func (p *Pivots) Rows() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.rows...)
}

// PivotsFromRows builds a record from a list (e.g. read back from a file); it
// checks that every row is a legal pivot of its column.
func PivotsFromRows(rows []int) (*Pivots, error) {
	n := len(rows)
	for c, r := range rows {
		if r < c || r >= n {
			return nil, fmt.Errorf("hpl: pivot of column %d is row %d, want %d..%d", c, r, c, n-1)
		}
	}
	return &Pivots{rows: append([]int(nil), rows...)}, nil
}
