//go:build cblas && linux

package validation

import (
	"math"
	"testing"
)

func TestParseHPLTable(t *testing.T) {
	out := []byte(`T/V                N    NB     P     Q               Time                 Gflops
--------------------------------------------------------------------------------
WR11C2R4        4000   128     1     2               0.56              7.620e+01
WR14C2R4        2000    64     2     1               0.10              5.248e+01
WR11C2R4        4000   128     1     2               0.57              7.480e+01
||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=        0.0027444 ...... PASSED
`)
	got, err := parseHPLTable(out)
	if err != nil {
		t.Fatal(err)
	}
	// HPL's flop count for N = 4000: 2/3·4000³ + 3/2·4000² = 4.2667e10 + 2.4e7.
	want := (2.0/3*64e9 + 1.5*16e6) / 76.20e9
	again := (2.0/3*64e9 + 1.5*16e6) / 74.80e9
	if g := got[hplTest{"WR11C2R4", 4000, 128, 1, 2}]; len(g) != 2 || math.Abs(g[0]-want) > 1e-12 || math.Abs(g[1]-again) > 1e-12 {
		t.Errorf("N=4000: %g s, want [%g %g] (both runs, in order)", g, want, again)
	}
	if len(got) != 2 || len(got[hplTest{"WR14C2R4", 2000, 64, 2, 1}]) != 1 {
		t.Errorf("%d tests, want 2, the second run once: %v", len(got), got)
	}
}
