package hpl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// PMap is how world ranks are laid onto the P×Q grid (HPL.dat line 9, hpl.md §2.1).
type PMap uint8

const (
	RowMajor    PMap = iota // myrow = r div Q, mycol = r mod Q (HPL.dat 0)
	ColumnMajor             // myrow = r mod P, mycol = r div P (HPL.dat 1)
)

// Fact is a panel factorization kind, used both for PFACT (the base routine) and
// RFACT (the recursive routine), hpl.md §5.
type Fact uint8

const (
	Left  Fact = iota // left-looking (HPL.dat 0)
	Crout             // Crout (HPL.dat 1)
	Right             // right-looking (HPL.dat 2)
)

// BCast is the panel broadcast topology along process rows (hpl.md §6).
type BCast uint8

const (
	OneRing  BCast = iota // 1ring (HPL.dat 0)
	OneRingM              // 1ringM, modified increasing ring (HPL.dat 1)
	TwoRing               // 2ring (HPL.dat 2)
	TwoRingM              // 2ringM (HPL.dat 3)
	Long                  // long, binomial spread + roll (HPL.dat 4)
	LongM                 // longM (HPL.dat 5)
)

// Swap is the row-swapping algorithm (hpl.md §7).
type Swap uint8

const (
	BinaryExchange Swap = iota // HPL.dat 0
	SpreadRoll                 // "long", HPL.dat 1
	Mix                        // binary exchange up to the threshold, spread-roll above (HPL.dat 2)
)

var (
	pmapNames  = []string{"row", "column"}
	factNames  = []string{"left", "crout", "right"}
	bcastNames = []string{"1ring", "1ringM", "2ring", "2ringM", "long", "longM"}
	swapNames  = []string{"binary-exchange", "spread-roll", "mix"}
)

func name(names []string, i uint8, kind string) string {
	if int(i) < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", kind, i)
}

// parseName looks s up in names, then in aliases (the spellings HPL prints and
// HPL.dat's comments use), then, for HPL.dat's parameters (aliases not nil), as
// HPL.dat's numeric code (the index in names; out of range is an error, not HPL's
// silent fallback). Names compare exactly first,
// then case-insensitively when that is unambiguous ("1RINGM" is ambiguous between
// 1ring and 1ringM only in case, so exact spelling wins).
func parseName(names []string, aliases map[string]int, s, kind string) (uint8, error) {
	for i, n := range names {
		if n == s {
			return uint8(i), nil
		}
	}
	found := -1
	for i, n := range names {
		if strings.EqualFold(n, s) {
			if found >= 0 {
				return 0, fmt.Errorf("hpl: ambiguous %s %q (one of %s)", kind, s, strings.Join(names, ", "))
			}
			found = i
		}
	}
	if found >= 0 {
		return uint8(found), nil
	}
	if i, ok := aliases[strings.ToLower(s)]; ok {
		return uint8(i), nil
	}
	if c, err := strconv.Atoi(s); err == nil && aliases != nil { // HPL.dat has a code for it
		if c < 0 || c >= len(names) {
			return 0, fmt.Errorf("hpl: %s code %d: want 0…%d (%s)", kind, c, len(names)-1, strings.Join(names, ", "))
		}
		return uint8(c), nil
	}
	return 0, fmt.Errorf("hpl: unknown %s %q (one of %s)", kind, s, strings.Join(names, ", "))
}

// Other spellings, in lower case (they match in any case): HPL's banner words and
// HPL.dat's comment abbreviations.
var (
	pmapAliases  = map[string]int{"row-major": 0, "column-major": 1, "col": 1, "row-major process mapping": 0, "column-major process mapping": 1, "row-": 0, "column-": 1}
	factAliases  = map[string]int{}
	bcastAliases = map[string]int{"1rg": 0, "1rm": 1, "2rg": 2, "2rm": 3, "lng": 4, "lnm": 5, "blong": 4, "blongm": 5}
	swapAliases  = map[string]int{"bin-exch": 0, "binary exchange": 0, "long": 1, "spread roll": 1, "spread-roll (long)": 1}
)

func (m PMap) String() string  { return name(pmapNames, uint8(m), "pmap") }
func (f Fact) String() string  { return name(factNames, uint8(f), "fact") }
func (b BCast) String() string { return name(bcastNames, uint8(b), "bcast") }
func (s Swap) String() string  { return name(swapNames, uint8(s), "swap") }

// ParsePMap accepts "row" or "column" (also HPL's "Row-major", "Column-major", and HPL.dat's 0, 1).
func ParsePMap(s string) (PMap, error) {
	v, err := parseName(pmapNames, pmapAliases, s, "pmap")
	return PMap(v), err
}

// ParseFact accepts "left", "crout" or "right" (any case; also HPL.dat's 0, 1, 2).
func ParseFact(s string) (Fact, error) {
	v, err := parseName(factNames, factAliases, s, "fact")
	return Fact(v), err
}

// ParseBCast accepts "1ring", "1ringM", "2ring", "2ringM", "long" or "longM" (also
// HPL's "Blong", "BlongM", HPL.dat's "1rg" … "LnM" and codes 0…5).
func ParseBCast(s string) (BCast, error) {
	v, err := parseName(bcastNames, bcastAliases, s, "bcast")
	return BCast(v), err
}

// ParseSwap accepts "binary-exchange", "spread-roll" or "mix" (also HPL.dat's
// "bin-exch", "long" and codes 0, 1, 2).
func ParseSwap(s string) (Swap, error) {
	v, err := parseName(swapNames, swapAliases, s, "swap")
	return Swap(v), err
}

// HPL.dat numeric codes, with HPL's own fallbacks for values out of range (hpl.md §1).

// BCastFromCode: 0..5 as listed, anything else 1ringM.
func BCastFromCode(c int) BCast {
	if c >= 0 && c <= 5 {
		return BCast(c)
	}
	return OneRingM
}

// Params is one HPL test: the parameters of one line of HPL's T/V table.
type Params struct {
	N, NB         int     // order of the system, block size (NB ≥ 1)
	P, Q          int     // process grid (P·Q ranks)
	PMap          PMap    // rank → grid mapping
	PFact, RFact  Fact    // base and recursive panel factorization
	NBMin, NDiv   int     // recursion stops at ≤ NBMin columns (≥ 1); NDiv parts per level (≥ 2)
	BCast         BCast   // panel broadcast
	Depth         int     // look-ahead depth (≥ 0)
	Swap          Swap    // row-swapping algorithm
	SwapThreshold int     // mix: binary exchange when the local columns ≤ this (≥ 0)
	L1Transposed  bool    // L1 kept transposed (HPL.dat line 28 = 0)
	UTransposed   bool    // U kept transposed (HPL.dat line 29 = 0)
	Equilibration bool    // spread-roll equilibration (HPL.dat line 30)
	Alignment     int     // buffer alignment in doubles (> 0; HPL uses 4 for ≤ 0)
	Threshold     float64 // residual threshold; ≤ 0 turns the check off
}

// MaxN is the largest N: HPL's N is a C int. Beyond it a model-mode run, even
// sampled, walks ~N/NB panels (N = 2⁶³−1 never ended).
const MaxN = math.MaxInt32

// MaxDepth bounds the look-ahead depth. HPL sets no bound, but every rank
// holds DEPTH + 1 panels: a DEPTH of 10⁶ took 4 GB for a 2×2 grid and 2⁶³−1
// crashed; real runs use 0 to 2.
const MaxDepth = 1024

// DefaultParams is a small valid test (the values of HPL's shipped HPL.dat where one
// value is asked for).
func DefaultParams() Params {
	return Params{N: 1000, NB: 64, P: 1, Q: 1, PMap: RowMajor, PFact: Right, RFact: Crout,
		NBMin: 4, NDiv: 2, BCast: OneRingM, Depth: 1, Swap: Mix, SwapThreshold: 64,
		L1Transposed: true, UTransposed: true, Equilibration: true, Alignment: 8, Threshold: 16}
}

// Validate reports the first parameter HPL would reject (hpl.md §1).
func (p Params) Validate() error {
	switch {
	case p.N < 0:
		return fmt.Errorf("hpl: N = %d: must be ≥ 0", p.N)
	case p.N > MaxN:
		return fmt.Errorf("hpl: N = %d: at most %d", p.N, MaxN)
	case p.NB < 1:
		return fmt.Errorf("hpl: NB = %d: must be ≥ 1", p.NB)
	case p.P < 1 || p.Q < 1:
		return fmt.Errorf("hpl: grid %d×%d: P and Q must be ≥ 1", p.P, p.Q)
	case p.NBMin < 1:
		return fmt.Errorf("hpl: NBMIN = %d: must be ≥ 1", p.NBMin)
	case p.NDiv < 2:
		return fmt.Errorf("hpl: NDIV = %d: must be ≥ 2", p.NDiv)
	case p.Depth < 0:
		return fmt.Errorf("hpl: DEPTH = %d: must be ≥ 0", p.Depth)
	case p.Depth > MaxDepth:
		return fmt.Errorf("hpl: DEPTH = %d: at most %d", p.Depth, MaxDepth)
	case p.PMap > ColumnMajor:
		return fmt.Errorf("hpl: unknown PMAP %d", p.PMap)
	case p.PFact > Right || p.RFact > Right:
		return fmt.Errorf("hpl: unknown PFACT/RFACT %d/%d", p.PFact, p.RFact)
	case p.BCast > LongM:
		return fmt.Errorf("hpl: unknown BCAST %d", p.BCast)
	case p.Swap > Mix:
		return fmt.Errorf("hpl: unknown SWAP %d", p.Swap)
	case p.SwapThreshold < 0:
		return fmt.Errorf("hpl: swapping threshold = %d: must be ≥ 0", p.SwapThreshold)
	case p.Alignment < 1:
		return fmt.Errorf("hpl: alignment = %d: must be ≥ 1", p.Alignment)
	}
	return nil
}

// Variant is HPL's T/V code, e.g. "WR11C2R4": W, R|C for PMAP, the depth, the BCAST
// code, RFACT letter, NDIV, PFACT letter, NBMIN (hpl.md §11).
func (p Params) Variant() string {
	pm := "R"
	if p.PMap == ColumnMajor {
		pm = "C"
	}
	letter := func(f Fact) string { return [...]string{"L", "C", "R"}[f%3] }
	return fmt.Sprintf("W%s%d%d%s%d%s%d", pm, p.Depth, p.BCast, letter(p.RFact), p.NDiv, letter(p.PFact), p.NBMin)
}

// Grid is one P×Q process grid of HPL.dat.
type Grid struct{ P, Q int }

// Dat is HPL.dat's whole content, as HPL reads it (hpl.md §1). Lists keep the file's order.
type Dat struct {
	OutFile       string // line 3: output file name
	Device        int    // line 4: 6 = stdout, 7 = stderr, other = OutFile
	Ns            []int  // line 6
	NBs           []int  // line 8
	PMap          PMap   // line 9
	Grids         []Grid // lines 11 and 12
	Threshold     float64
	PFacts        []Fact // line 15
	NBMins        []int  // line 17
	NDivs         []int  // line 19
	RFacts        []Fact // line 21
	BCasts        []BCast
	Depths        []int
	Swap          Swap // line 26
	SwapThreshold int  // line 27
	L1Transposed  bool // line 28 (0 = transposed)
	UTransposed   bool // line 29 (0 = transposed)
	Equilibration bool // line 30
	Alignment     int  // line 31
}

// Tests expands the lists in HPL's loop order, outermost first: grid → N → NB → DEPTH →
// BCAST → RFACT → PFACT → NBMIN → NDIV (hpl.md §1).
func (d Dat) Tests() []Params {
	var out []Params
	for _, g := range d.Grids {
		for _, n := range d.Ns {
			for _, nb := range d.NBs {
				for _, depth := range d.Depths {
					for _, bc := range d.BCasts {
						for _, rf := range d.RFacts {
							for _, pf := range d.PFacts {
								for _, nbmin := range d.NBMins {
									for _, ndiv := range d.NDivs {
										out = append(out, Params{
											N: n, NB: nb, P: g.P, Q: g.Q, PMap: d.PMap,
											PFact: pf, RFact: rf, NBMin: nbmin, NDiv: ndiv,
											BCast: bc, Depth: depth, Swap: d.Swap,
											SwapThreshold: d.SwapThreshold,
											L1Transposed:  d.L1Transposed, UTransposed: d.UTransposed,
											Equilibration: d.Equilibration, Alignment: d.Alignment,
											Threshold: d.Threshold,
										})
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// Dat is the HPL.dat of this one test: Tests gives back [p].
func (p Params) Dat() Dat {
	return Dat{
		OutFile: "HPL.out", Device: 6, Ns: []int{p.N}, NBs: []int{p.NB}, PMap: p.PMap,
		Grids: []Grid{{P: p.P, Q: p.Q}}, Threshold: p.Threshold,
		PFacts: []Fact{p.PFact}, NBMins: []int{p.NBMin}, NDivs: []int{p.NDiv},
		RFacts: []Fact{p.RFact}, BCasts: []BCast{p.BCast}, Depths: []int{p.Depth},
		Swap: p.Swap, SwapThreshold: p.SwapThreshold,
		L1Transposed: p.L1Transposed, UTransposed: p.UTransposed,
		Equilibration: p.Equilibration, Alignment: p.Alignment,
	}
}

// MaxRanks is the largest P·Q over the grids: the number of ranks the run needs.
func (d Dat) MaxRanks() int {
	m := 0
	for _, g := range d.Grids {
		m = max(m, g.P*g.Q)
	}
	return m
}
