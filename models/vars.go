package models

import (
	"fmt"
	"strings"
)

// Vars are one kernel call's dimensions. M, N and K are element counts as
// the kernel is called; W is a derived work term the caller computes (dgemm
// M·N·K, dtrsm M²·N or M·N², ...), so a model can use the exact flop count
// even where it is not a plain product of M, N and K.
type Vars struct{ M, N, K, W float64 }

// varNames are the letters of Vars' fields, in the order terms print them.
var varNames = [numVars]string{"m", "n", "k", "w"}

const numVars = 4

// get returns the variable with index i (0 m, 1 n, 2 k, 3 w).
func (v *Vars) get(i int) float64 {
	switch i {
	case 0:
		return v.M
	case 1:
		return v.N
	case 2:
		return v.K
	default:
		return v.W
	}
}

// varIndex is the index of a variable letter, or -1.
func varIndex(name string) int {
	for i, n := range varNames {
		if n == name {
			return i
		}
	}
	return -1
}

// maxPower bounds the exponent of one variable in a term; beyond it a term is
// more likely a typo than a model (and products overflow quickly).
const maxPower = 4

// term is a monomial: the power of m, n, k and w. The zero term is "1".
type term [numVars]uint8

// parseTerm reads a product of variables such as "m*n*k", "m*m*n", "w" or
// "1". Spaces around factors are allowed; anything else is an error.
func parseTerm(s string) (term, error) {
	var t term
	if strings.TrimSpace(s) == "1" {
		return t, nil
	}
	for _, f := range strings.Split(s, "*") {
		f = strings.TrimSpace(f)
		i := varIndex(f)
		if i < 0 {
			return t, fmt.Errorf("unknown term %q: factors must be m, n, k or w joined by '*', or \"1\"", s)
		}
		if t[i] == maxPower {
			return t, fmt.Errorf("term %q: power of %s above %d", s, f, maxPower)
		}
		t[i]++
	}
	return t, nil
}

// String is the canonical spelling: factors in the order m, n, k, w.
func (t term) String() string {
	var b strings.Builder
	for i, p := range t {
		for range p {
			if b.Len() > 0 {
				b.WriteByte('*')
			}
			b.WriteString(varNames[i])
		}
	}
	if b.Len() == 0 {
		return "1"
	}
	return b.String()
}

// eval is the term's value at v. It does not allocate.
func (t *term) eval(v *Vars) float64 {
	vals := [numVars]float64{v.M, v.N, v.K, v.W}
	return t.evalAt(&vals)
}

// evalAt is eval on the variables as an array (m, n, k, w), the hot path of
// Sample: no branch per variable name.
func (t *term) evalAt(vals *[numVars]float64) float64 {
	x := 1.0
	for i, p := range t {
		// Powers 0 and 1 are by far the most common; keep them branch-cheap.
		switch p {
		case 0:
		case 1:
			x *= vals[i]
		default:
			for range p {
				x *= vals[i]
			}
		}
	}
	return x
}

// degree is the total power of the term.
func (t term) degree() int {
	d := 0
	for _, p := range t {
		d += int(p)
	}
	return d
}

// parseTerms parses a list of terms, rejecting duplicates (which would make a
// least-squares fit singular and a hand-written table ambiguous).
func parseTerms(list []string) ([]term, error) {
	out := make([]term, len(list))
	seen := make(map[term]int, len(list))
	for i, s := range list {
		t, err := parseTerm(s)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		if j, dup := seen[t]; dup {
			return nil, fmt.Errorf("[%d]: term %q repeats [%d] %q", i, s, j, list[j])
		}
		seen[t] = i
		out[i] = t
	}
	return out, nil
}

// CanonicalTerm returns the canonical spelling of a term string ("k*m" →
// "m*k"), or an error naming what is wrong with it.
func CanonicalTerm(s string) (string, error) {
	t, err := parseTerm(s)
	if err != nil {
		return "", err
	}
	return t.String(), nil
}

// TermValue is the value at v of the term s, written as CanonicalTerm reads
// it ("m*n", "n*k*k"): what a kernel's product is for a call of sizes v.
func TermValue(s string, v Vars) (float64, error) {
	t, err := parseTerm(s)
	if err != nil {
		return 0, err
	}
	return t.eval(&v), nil
}
