package models

import (
	"slices"
	"testing"
)

func TestNaturalTerms(t *testing.T) {
	cases := []struct {
		kernel  string
		product string
		poly    []string
	}{
		// The study's M2 for dgemm (section VI-A): all products of m, n, k.
		{"dgemm", "m*n*k", []string{"m*n*k", "m*n", "m*k", "n*k", "m", "n", "k", "1"}},
		{"dtrsm", "m*n*k", []string{"m*n*k", "m*n", "m*k", "n*k", "m", "n", "k", "1"}},
		{"dgemv", "m*n", []string{"m*n", "m", "n", "1"}},
		{"dger", "m*n", []string{"m*n", "m", "n", "1"}},
		{"dtrsv", "n*n", []string{"n*n", "n", "1"}},
		{"daxpy", "n", []string{"n", "1"}},
		{"idamax", "n", []string{"n", "1"}},
		{"HPL_dlaswp01T", "m*n", []string{"m*n*k", "m*n", "m", "n", "1"}},
		{"duswp", "m*n", []string{"m*n", "m", "n", "1"}},
		{"dlatcpy", "m*n", []string{"m*n", "m", "n", "1"}},
		{"frobnicate", "", nil},
	}
	for _, c := range cases {
		if got := ProductTerm(c.kernel); got != c.product {
			t.Errorf("ProductTerm(%q) = %q, want %q", c.kernel, got, c.product)
		}
		if got := PolyTerms(c.kernel); !slices.Equal(got, c.poly) {
			t.Errorf("PolyTerms(%q) = %q, want %q", c.kernel, got, c.poly)
		}
	}
}

func TestParseTerm(t *testing.T) {
	cases := []struct {
		in, want string // want "" means an error
	}{
		{"m*n*k", "m*n*k"}, {"k*m", "m*k"}, {" n * m ", "m*n"}, {"1", "1"},
		{"w", "w"}, {"m*m*n", "m*m*n"}, {"x", ""}, {"m*", ""}, {"", ""},
		{"m*m*m*m*m", ""}, {"m+n", ""}, {"M", ""},
	}
	for _, c := range cases {
		got, err := CanonicalTerm(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("CanonicalTerm(%q) = %q, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("CanonicalTerm(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestTermValue: a term written as CanonicalTerm reads it, at a call's sizes.
func TestTermValue(t *testing.T) {
	v := Vars{M: 2, N: 3, K: 5, W: 7}
	for _, c := range []struct {
		term string
		want float64
	}{{"m*n", 6}, {"k*n", 15}, {"n*k*k", 75}, {"1", 1}, {"w", 7}} {
		if got, err := TermValue(c.term, v); err != nil || got != c.want {
			t.Errorf("TermValue(%q) = %g, %v; want %g", c.term, got, err, c.want)
		}
	}
	if _, err := TermValue("m*x", v); err == nil {
		t.Error(`TermValue("m*x"): no error`)
	}
}
