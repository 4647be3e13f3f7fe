package hpl

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// OutputRow is one test of an HPL output file (xhpl's or hpcc's): its T/V
// row and, from an HPL built with -DHPL_DETAILED_TIMING, the phase lines
// that follow it.
type OutputRow struct {
	Variant     string
	N, NB, P, Q int
	// Time is recomputed from the row's Gflops, which HPL prints with five
	// significant digits where its Time has two decimals (0.53 s).
	Time   float64
	Gflops float64
	Phases *Phases // nil without detailed timing
	Line   int     // line of the T/V row
}

// variantRe is HPL's T/V code (Params.Variant): W, R|C, depth, bcast, RFACT
// letter, NDIV, PFACT letter, NBMIN.
var variantRe = regexp.MustCompile(`^W[RC][0-9]+[LCR][0-9]+[LCR][0-9]+$`)

// phaseLabels maps the words after "wall time" on a detailed-timing line
// to its field.
var phaseLabels = []struct {
	label string
	field func(*Phases) *float64
}{
	{"rfact", func(p *Phases) *float64 { return &p.RFact }},
	{"pfact", func(p *Phases) *float64 { return &p.PFact }},
	{"mxswp", func(p *Phases) *float64 { return &p.MxSwp }},
	{"update", func(p *Phases) *float64 { return &p.Update }},
	{"laswp", func(p *Phases) *float64 { return &p.Laswp }},
	{"up tr sv", func(p *Phases) *float64 { return &p.UpTrsv }},
}

// ParseOutput reads the results of an HPL output file; file names it in
// errors. A test of N = 0 (HPL prints its row, Gflops 0, when its clock
// moved) keeps its printed Time. Lines that are not results (HPL's banner, parameters, residual
// checks) are skipped. A result row whose numbers do not parse, or a file
// with none, is an error naming the file and line.
func ParseOutput(data []byte, file string) ([]OutputRow, error) {
	var out []OutputRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.Index(text, "aggregated wall time"); i >= 0 && len(out) > 0 {
			if err := readPhase(&out[len(out)-1], text[i+len("aggregated wall time"):]); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, line, err)
			}
			continue
		}
		f := strings.Fields(text)
		if len(f) != 7 || !variantRe.MatchString(f[0]) {
			continue
		}
		r := OutputRow{Variant: f[0], Line: line}
		for i, dst := range []*int{&r.N, &r.NB, &r.P, &r.Q} {
			v, err := strconv.Atoi(f[1+i])
			if i == 0 && err == nil && v == 0 {
				continue // N = 0: a test HPL times and prints when its clock moved
			}
			if err != nil || v < 1 {
				return nil, fmt.Errorf("%s:%d: HPL result %s: %q is not a positive integer", file, line, f[0], f[1+i])
			}
			*dst = v
		}
		g, err := strconv.ParseFloat(f[6], 64)
		if r.N == 0 {
			// HPL's rate of N = 0 is 0 whatever the time: the row's Time is
			// the one kept
			t, terr := strconv.ParseFloat(f[5], 64)
			if err != nil || g != 0 || terr != nil || !(t >= 0) || t > 1e30 {
				return nil, fmt.Errorf("%s:%d: HPL result %s of N = 0: want Time ≥ 0 and Gflops 0, have %q and %q", file, line, f[0], f[5], f[6])
			}
			r.Time = t
			out = append(out, r)
			continue
		}
		if err != nil || !(g > 0) || g > 1e30 {
			return nil, fmt.Errorf("%s:%d: HPL result %s: Gflops %q is not a positive number", file, line, f[0], f[6])
		}
		r.Gflops = g
		n := float64(r.N)
		r.Time = (2.0/3.0*n*n*n + 1.5*n*n) / (g * 1e9)
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no HPL result row (a line such as \"WR11C2R4  4000  64  1  2  0.53  8.01e+01\")", file)
	}
	return out, nil
}

// readPhase reads the rest of a "Max aggregated wall time rfact . . . : 0.01"
// line into r's phases.
func readPhase(r *OutputRow, rest string) error {
	colon := strings.LastIndex(rest, ":")
	if colon < 0 {
		return fmt.Errorf("detailed timing line without a value")
	}
	label := strings.TrimSpace(strings.Trim(strings.TrimSpace(rest[:colon]), ". "))
	v, err := strconv.ParseFloat(strings.TrimSpace(rest[colon+1:]), 64)
	if err != nil || v < 0 {
		return fmt.Errorf("detailed timing of %q: %q is not a time", label, strings.TrimSpace(rest[colon+1:]))
	}
	for _, p := range phaseLabels {
		if label == p.label {
			if r.Phases == nil {
				r.Phases = &Phases{}
			}
			*p.field(r.Phases) = v
			return nil
		}
	}
	return nil // a timer this version does not know
}
