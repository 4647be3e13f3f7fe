package hpldat

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/emu-hpc/emu/apps/hpl"
)

// maxHPLList is HPL's compile-time limit on the number of values of a list line
// (HPL_MAX_PARAM, shared/reference/hpl.md §1).
const maxHPLList = 20

// significantLines is the number of significant lines of HPL.dat.
const significantLines = 31

// Line numbers of HPL.dat that later checks refer to (hpl.md §1).
const (
	// LineOutFile is the output file name's line, which emu run checks
	// (it can be written) before the run.
	LineOutFile = 3
	linePs      = 11
	lineQs      = 12
)

// Parse reads HPL.dat (shared/reference/hpl.md §1) into an hpl.Dat. ranks is the
// number of ranks the platform offers; when it is positive, a grid with P·Q > ranks is
// an error, as in HPL. Errors name the file and the line, e.g. "HPL.dat:8: NB = 0: must
// be ≥ 1".
//
// Where HPL is lenient we are strict, on purpose: a value that is not a number is an
// error (HPL's atoi reads it as 0), and a variant code outside its legal range (PFACT 3,
// BCAST 9, ...) is an error instead of HPL's silent fallback, because a typo there
// silently changes the algorithm being measured. Values are split on white space, so
// HPL's cursor quirk with runs of blanks (hpl.md §1) is not reproduced: "  8 16" reads
// as 8 and 16. Text after the needed tokens is a comment, as in HPL.
func Parse(data []byte, file string, ranks int) (hpl.Dat, error) {
	if n := nulLine(data); n > 0 {
		return hpl.Dat{}, fmt.Errorf("%s:%d: a NUL byte: binary data, not an HPL.dat (%d lines of text)", file, n, significantLines)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	p := datParser{file: file}
	if text != "" { // an empty file has no line 1, where Split would give one
		p.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	var d hpl.Dat
	p.line(1) // free text
	p.line(2)
	if f := p.fields(LineOutFile); len(f) > 0 {
		d.OutFile = f[0]
	}
	d.Device = p.int(4, "device out")
	if p.err == nil && d.Device != 6 && d.Device != 7 && d.OutFile == "" {
		p.fail(LineOutFile, "output file name: empty, but line 4's device %d sends the report to it", d.Device)
	}
	d.Ns = p.intList(5, "N", 0)
	for _, v := range d.Ns {
		if v > hpl.MaxN {
			p.fail(6, "N = %d: at most %d", v, hpl.MaxN)
		}
	}
	d.NBs = p.intList(7, "NB", 1)
	d.PMap = hpl.PMap(p.code(9, "PMAP", 1))
	np := p.count(10, "process grids")
	ps := p.values(linePs, "P", np, 10, 1)
	qs := p.values(lineQs, "Q", np, 10, 1)
	for i := range min(len(ps), len(qs)) {
		d.Grids = append(d.Grids, hpl.Grid{P: ps[i], Q: qs[i]})
	}
	d.Threshold = p.float(13, "threshold")
	for _, c := range p.codeList(14, "PFACT", 2) {
		d.PFacts = append(d.PFacts, hpl.Fact(c))
	}
	d.NBMins = p.intList(16, "NBMIN", 1)
	d.NDivs = p.intList(18, "NDIV", 2)
	for _, c := range p.codeList(20, "RFACT", 2) {
		d.RFacts = append(d.RFacts, hpl.Fact(c))
	}
	for _, c := range p.codeList(22, "BCAST", 5) {
		d.BCasts = append(d.BCasts, hpl.BCast(c))
	}
	d.Depths = p.intList(24, "DEPTH", 0)
	for _, v := range d.Depths {
		if v > hpl.MaxDepth {
			p.fail(25, "DEPTH = %d: at most %d", v, hpl.MaxDepth)
		}
	}
	d.Swap = hpl.Swap(p.code(26, "SWAP", 2))
	// HPL's own fallbacks for the single values (hpl.md §1, lines 27–31).
	d.SwapThreshold = max(p.int(27, "swapping threshold"), 0)
	d.L1Transposed = p.code(28, "L1 form", 1) == 0
	d.UTransposed = p.code(29, "U form", 1) == 0
	d.Equilibration = p.code(30, "equilibration", 1) == 1
	if p.err == nil && len(p.lines) == significantLines-1 {
		d.Alignment = alignmentOfShortFile(d.Equilibration)
	} else if d.Alignment = p.int(31, "alignment"); d.Alignment <= 0 {
		d.Alignment = 4
	}
	if p.err != nil {
		return hpl.Dat{}, p.err
	}
	if ranks > 0 {
		if need := d.MaxRanks(); need > ranks {
			return hpl.Dat{}, fmt.Errorf("%s:%d: a %d-process grid needs more ranks than the %d the platform offers", file, lineQs, need, ranks)
		}
	}
	return d, nil
}

// alignmentOfShortFile is the alignment HPL 2.3 takes from an HPL.dat of 30
// lines, as older files were written (no alignment line): its fgets at the
// end of the file leaves line 30 in the buffer, so it reads the
// equilibration's 0 or 1 again as the alignment, and 0 falls back to 4.
func alignmentOfShortFile(equilibration bool) int {
	if equilibration {
		return 1
	}
	return 4
}

// nulLine is the line (1-based) of the first NUL byte among HPL.dat's
// significant lines, 0 when there is none: no text file holds one, so the
// file is binary (an execution graph, a compressed file) given by mistake,
// whose tokens would otherwise be quoted in the error as a screenful of
// escapes. What follows line 31 HPL does not read.
func nulLine(data []byte) int {
	lines := bytes.SplitN(data, []byte("\n"), significantLines+1) // the last holds the lines after 31
	for n, line := range lines[:min(len(lines), significantLines)] {
		if bytes.IndexByte(line, 0) >= 0 {
			return n + 1
		}
	}
	return 0
}

// quoteToken quotes a token for an error, cut to its first 24 characters
// when it is longer than 32, so that the error stays one readable line.
func quoteToken(tok string) string {
	if utf8.RuneCountInString(tok) <= 32 {
		return strconv.Quote(tok)
	}
	r := []rune(tok)
	return strconv.Quote(string(r[:24])) + "…"
}

// datParser reads HPL.dat line by line; the first error sticks and later reads are
// no-ops, so Parse reads straight through and reports the first problem.
type datParser struct {
	file  string
	lines []string
	err   error
}

func (p *datParser) fail(n int, format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%s:%d: %s", p.file, n, fmt.Sprintf(format, args...))
	}
}

// line returns line n (1-based) or fails when the file is shorter.
func (p *datParser) line(n int) (string, bool) {
	if p.err != nil {
		return "", false
	}
	if n > len(p.lines) {
		p.fail(n, "missing line %d of %d (HPL.dat has %d significant lines)", n, significantLines, significantLines)
		return "", false
	}
	return p.lines[n-1], true
}

func (p *datParser) fields(n int) []string {
	l, ok := p.line(n)
	if !ok {
		return nil
	}
	return strings.Fields(l)
}

// int reads the first token of line n as an integer.
func (p *datParser) int(n int, what string) int {
	f := p.fields(n)
	if p.err != nil {
		return 0
	}
	if len(f) == 0 {
		p.fail(n, "%s: empty line, want an integer", what)
		return 0
	}
	v, err := strconv.Atoi(f[0])
	if err != nil {
		p.failInt(n, what, f[0], err)
	} else if v > math.MaxInt32 || v < math.MinInt32 {
		p.failInt(n, what, f[0], strconv.ErrRange)
	}
	return v
}

// failInt reports a token of line n that is no integer HPL can read: one
// beyond a C int (HPL 2.3 reads every integer with atoi, which wraps NB =
// 99999999999 to 1215752191; emu ran it as 99999999999 and printed it so;
// "N = 99999999999999999999", which is an integer, said "is not an
// integer") or not an integer at all.
func (p *datParser) failInt(n int, what, tok string, err error) {
	if errors.Is(err, strconv.ErrRange) {
		bound := fmt.Sprintf("at most %d", math.MaxInt32)
		if strings.HasPrefix(tok, "-") {
			bound = fmt.Sprintf("at least %d", math.MinInt32)
		}
		p.fail(n, "%s = %s: %s (HPL reads it as a C int)", what, tok, bound)
		return
	}
	p.fail(n, "%s: %s is not an integer", what, quoteToken(tok))
}

func (p *datParser) float(n int, what string) float64 {
	f := p.fields(n)
	if p.err != nil {
		return 0
	}
	if len(f) == 0 {
		p.fail(n, "%s: empty line, want a number", what)
		return 0
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
		err = nil // 1e999: HPL's atof reads ±inf, as it reads "inf" (said "is not a number")
	}
	if err != nil || math.IsNaN(v) {
		p.fail(n, "%s: %s is not a number", what, quoteToken(f[0]))
	}
	return v
}

// count reads a list length on line n, which HPL limits to 1…20.
func (p *datParser) count(n int, what string) int {
	c := p.int(n, "number of "+what)
	if p.err == nil && (c < 1 || c > maxHPLList) {
		p.fail(n, "number of %s = %d: must be in 1…%d", what, c, maxHPLList)
	}
	return c
}

// values reads the first c integers of line n, each at least least; line
// countLine gave c.
func (p *datParser) values(n int, what string, c, countLine, least int) []int {
	f := p.fields(n)
	if p.err != nil {
		return nil
	}
	// "2 # of problems sizes" over "400  Ns": the line's label where a
	// value is due (said: N: "Ns" is not an integer).
	for i := 1; i < min(c, len(f)); i++ {
		if isLabel(f[i:]) {
			p.fail(n, "%s: want %d values (line %d says so), found %d before %s", what, c, countLine, i, quoteToken(f[i]))
			return nil
		}
	}
	if len(f) < c {
		p.fail(n, "%s: want %d values (line %d says so), found %d", what, c, countLine, len(f))
		return nil
	}
	out := make([]int, c)
	for i := range c {
		v, err := strconv.Atoi(f[i])
		switch {
		case err != nil:
			p.failInt(n, what, f[i], err)
		case v > math.MaxInt32 || v < math.MinInt32:
			p.failInt(n, what, f[i], strconv.ErrRange)
		case v < least:
			p.fail(n, "%s = %d: must be ≥ %d", what, v, least)
		}
		out[i] = v
	}
	return out
}

// isLabel reports whether the rest of a line is its label (Ns, NBs, # of
// ...): it starts as no number does and no integer follows ("29 thirty 34"
// is a value misspelt).
func isLabel(rest []string) bool {
	if strings.ContainsRune("0123456789+-.", rune(rest[0][0])) {
		return false
	}
	for _, tok := range rest[1:] {
		if _, err := strconv.Atoi(tok); err == nil {
			return false
		}
	}
	return true
}

// intList reads a count on line n and that many values on line n+1.
func (p *datParser) intList(n int, what string, least int) []int {
	return p.values(n+1, what, p.count(n, what+" values"), n, least)
}

// code reads a single variant code on line n, legal in 0…top.
func (p *datParser) code(n int, what string, top int) int {
	c := p.int(n, what)
	if p.err == nil && (c < 0 || c > top) {
		p.fail(n, "%s = %d: unknown variant, must be in 0…%d", what, c, top)
	}
	return c
}

// codeList reads a count on line n and that many variant codes, each in 0…top.
func (p *datParser) codeList(n int, what string, top int) []int {
	cs := p.intList(n, what, 0)
	for _, c := range cs {
		if c > top {
			p.fail(n+1, "%s = %d: unknown variant, must be in 0…%d", what, c, top)
		}
	}
	return cs
}
