package hpldat

import (
	"slices"
	"strings"
	"testing"
)

// TestHPLReads: what HPL 2.3 reads from a list line, against hpcc's own HPL
// (Debian's hpcc 1.5.0, whose HPL_pdinfo reads as 2.3's) on the first two
// lines — it echoed "N : 10 0" and "BCAST : 1ring 1ringM 1ringM" — and by
// hand (hpl.md §1's rule) on the others.
func TestHPLReads(t *testing.T) {
	for _, c := range []struct {
		line string
		n    int
		want []int
	}{
		{"  10 20     Ns", 2, []int{10, 0}},              // hpcc: N : 10 0
		{"0   1   4          BCASTs", 3, []int{0, 1, 1}}, // hpcc: 1ring 1ringM 1ringM
		{"1 2 4", 3, []int{1, 2, 4}},                     // single blanks
		{"1  2 4", 3, []int{1, 2, 4}},                    // one surplus blank: still right
		{"2000   4000 6000", 3, []int{2000, 4000, 0}},    // two surplus: the tail of 4000
		{"\t64\t128", 2, []int{64, 128}},                 // one leading tab
		{"29 30 34 35  Ns", 4, []int{29, 30, 34, 35}},    // HPL's shipped line
		{"   8", 1, []int{8}},                            // one value: never behind
		{"100 200Ns", 2, []int{100, 200}},                // atoi stops at the comment
	} {
		if got := hplReads(c.line, c.n); !slices.Equal(got, c.want) {
			t.Errorf("%q: HPL reads %v, want %v", c.line, got, c.want)
		}
	}
}

// TestCursorNotes: a file HPL reads otherwise gets one note a line, naming the
// file, the line, both readings; a file HPL reads as Parse does gets none.
func TestCursorNotes(t *testing.T) {
	good := strings.Split(strings.TrimSuffix(string(readFile(t, "testdata/shipped.dat")), "\n"), "\n")
	edit := func(edits map[int]string) []byte {
		l := append([]string(nil), good...)
		for n, text := range edits {
			l[n-1] = text
		}
		return []byte(strings.Join(l, "\r\n") + "\r\n")
	}
	for _, c := range []struct {
		name     string
		data     []byte
		replaced map[string]bool
		want     []string
	}{
		{"shipped", edit(nil), nil, nil},
		// hpcc's HPL on a file whose line 2 has 300 characters: "Value of NB
		// less than 1", its lines shifted by one from line 3 on.
		{"a long line", edit(map[int]string{2: strings.Repeat("x", 300), 6: "  29 30 34 35"}), nil, []string{
			"x.dat:2: 301 characters: a real HPL 2.3 reads a line in pieces of at most 253, so it reads the rest of this one as line 3 and every line after it one further down",
		}},
		// fgets reads 253 characters at most; the file's lines end in CR LF,
		// and the CR is one of them. hpcc's HPL reads a line 2 of 252 x's
		// and stops on one of 253.
		{"252 characters with the CR", edit(map[int]string{2: strings.Repeat("x", 251)}), nil, nil},
		{"253 characters with the CR", edit(map[int]string{2: strings.Repeat("x", 252)}), nil, []string{
			"x.dat:2: 253 characters: a real HPL 2.3 reads a line in pieces of at most 253, so it reads the rest of this one as line 3 and every line after it one further down",
		}},
		{"aligned columns", edit(map[int]string{6: "  29 30 34 35", 12: "2   2   1"}), nil, []string{
			"x.dat:6: a real HPL 2.3 reads N here as 29 9 30 34 (blanks before the first value or runs of them between values put its cursor behind, hpl.md §1); emu reads 29 30 34 35",
			"x.dat:12: a real HPL 2.3 reads Q here as 2 2 2 (blanks before the first value or runs of them between values put its cursor behind, hpl.md §1); emu reads 2 2 1",
		}},
		// --set hpl.n replaces line 6: what HPL reads there does not matter.
		{"line 6 replaced", edit(map[int]string{6: "  29 30 34 35", 12: "2   2   1"}), map[string]bool{"N": true}, []string{
			"x.dat:12: a real HPL 2.3 reads Q here as 2 2 2 (blanks before the first value or runs of them between values put its cursor behind, hpl.md §1); emu reads 2 2 1",
		}},
	} {
		if _, err := Parse(c.data, "x.dat", 0); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := CursorNotes(c.data, "x.dat", c.replaced); !slices.Equal(got, c.want) {
			t.Errorf("%s: notes\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
