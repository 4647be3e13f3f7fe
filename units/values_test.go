package units

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestListsTakeOneValueOrAList checks IntList and NameList on the values the
// TOML decoder hands them (int64, string, []any): one value or a list is
// kept in order, an empty list or a wrong element is an error naming what
// the key wants, and on error the list keeps what it held.
func TestListsTakeOneValueOrAList(t *testing.T) {
	ints := []struct {
		in      any
		want    []int
		errPart string
	}{
		{int64(1000), []int{1000}, ""},
		{[]any{int64(1000), int64(2000)}, []int{1000, 2000}, ""},
		{[]any{}, nil, "empty list"},
		{[]any{int64(1), "2"}, nil, `want an integer or a list of integers, got "2"`},
		{"1000", nil, `want an integer or a list of integers, got "1000"`},
		{1.5, nil, "want an integer or a list of integers, got the float 1.5"},
	}
	for _, c := range ints {
		l := IntList{7}
		err := l.UnmarshalTOML(c.in)
		switch {
		case c.errPart == "" && (err != nil || !slices.Equal(l, c.want)):
			t.Errorf("IntList(%v) = %v, %v; want %v", c.in, l, err, c.want)
		case c.errPart != "" && (err == nil || !strings.Contains(err.Error(), c.errPart) || !slices.Equal(l, IntList{7})):
			t.Errorf("IntList(%v) = %v, %v; want error %q and the list unchanged", c.in, l, err, c.errPart)
		}
	}
	names := []struct {
		in      any
		want    []string
		errPart string
	}{
		{"1ringM", []string{"1ringM"}, ""},
		{[]any{"1ring", "long"}, []string{"1ring", "long"}, ""},
		{[]any{}, nil, "empty list"},
		{[]any{"1ring", int64(2)}, []string{"1ring", "2"}, ""}, // HPL.dat's code, read by hpl.ParseBCast
		{[]any{"1ring", 2.5}, nil, "want a name or a list of names, got the float 2.5"},
	}
	for _, c := range names {
		l := NameList{"x"}
		err := l.UnmarshalTOML(c.in)
		switch {
		case c.errPart == "" && (err != nil || !slices.Equal(l, c.want)):
			t.Errorf("NameList(%v) = %v, %v; want %v", c.in, l, err, c.want)
		case c.errPart != "" && (err == nil || !strings.Contains(err.Error(), c.errPart) || !slices.Equal(l, NameList{"x"})):
			t.Errorf("NameList(%v) = %v, %v; want error %q and the list unchanged", c.in, l, err, c.errPart)
		}
	}
}

// Grids are written [P, Q] or "PxQ"; the README and HPL's docs write P×Q, so the
// multiplication sign and capital X work too.
func TestGridSpellings(t *testing.T) {
	for in, want := range map[string][2]int{"2x4": {2, 4}, "2X4": {2, 4}, "2×4": {2, 4}, " 8 x 16 ": {8, 16}} {
		var g GridList
		if err := g.UnmarshalTOML(in); err != nil || len(g) != 1 || g[0] != want {
			t.Errorf("%q: got %v, %v; want %v", in, g, err, want)
		}
	}
	for _, in := range []string{"2x4x2", "2*4", "2 4", "x4"} {
		var g GridList
		if err := g.UnmarshalTOML(in); err == nil {
			t.Errorf("%q: accepted as %v", in, g)
		}
	}
}

// TestWordAndToggleErrorsQuoteStrings: a wrong value is shown as it was
// written, a string in quotes (equilibration = "yes" said got yes, and
// n = "1000" said got 1000, which reads as the integer that was wanted).
func TestWordAndToggleErrorsQuoteStrings(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func(any) error
		in   any
		want string
	}{
		{"toggle string", func(v any) error { var x Toggle; return x.UnmarshalTOML(v) }, "on", `want true or false (or 1, 0, yes, no), got "on"`},
		{"toggle 2", func(v any) error { var x Toggle; return x.UnmarshalTOML(v) }, int64(2), "want true or false (or 1, 0, yes, no), got 2"},
		{"word float", func(v any) error { var x Word; return x.UnmarshalTOML(v) }, 1.5, "want a name, got the float 1.5"},
		// hpl.n = 3e2 said "want an integer ..., got 300", as if 300 were
		// wanted; --set hpl.n.x=5 said "got map[x:5]"; --set hpl.grids=0x2
		// (TOML's hexadecimal 2) said "grid 2" (qa57)
		{"ints float", func(v any) error { var x IntList; return x.UnmarshalTOML(v) }, 300.0, "want an integer or a list of integers, got the float 300"},
		{"ints table", func(v any) error { var x IntList; return x.UnmarshalTOML(v) }, map[string]any{"x": int64(5)}, "want an integer or a list of integers, got a table"},
		{"grid number", func(v any) error { var x GridList; return x.UnmarshalTOML(v) }, int64(2), `grid 2: a number, want [P, Q] or "PxQ" (TOML reads 0x… as a hexadecimal number: quote the grid, and P must be ≥ 1)`},
		{"grid table", func(v any) error { var x GridList; return x.UnmarshalTOML(v) }, map[string]any{"p": int64(2)}, `want each grid as [P, Q] or "PxQ", got a table`},
		{"word list", func(v any) error { var x Word; return x.UnmarshalTOML(v) }, []any{"mix"}, "want one name, not a list (HPL.dat has one value for this key; emu tune --sweep tries several), got [mix]"},
		{"word codes list", func(v any) error { var x Word; return x.UnmarshalTOML(v) }, []any{int64(0), int64(1), int64(2)}, "want one name, not a list (HPL.dat has one value for this key; emu tune --sweep tries several), got [0 1 2]"},
		{"names float", func(v any) error { var x NameList; return x.UnmarshalTOML(v) }, []any{true}, "want a name or a list of names, got true"},
	} {
		if err := c.fn(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestWrongKindsInPlainWords: a value of the wrong kind is named in the
// scenario's words. A quantity said "got bool", "got []interface {}",
// "got map[string]interface {}" or "got time.Time" (Go's type names), and a
// seed said "seed abc:" (unquoted) or "seed 1000:" for seed = 1e3, which
// reads as if 1000 were out of range.
func TestWrongKindsInPlainWords(t *testing.T) {
	quantity := func(v any) error { var x Time; return x.UnmarshalTOML(v) }
	seed := func(v any) error { var x Seed; return x.UnmarshalTOML(v) }
	const seeds = "want an integer from 0 to 9223372036854775807, got "
	for _, c := range []struct {
		name string
		fn   func(any) error
		in   any
		want string
	}{
		{"time bool", quantity, true, "want a number or a string with a unit, got a boolean"},
		{"time list", quantity, []any{int64(1), int64(2)}, "want a number or a string with a unit, got a list"},
		{"time table", quantity, map[string]any{"a": int64(1)}, "want a number or a string with a unit, got a table"},
		{"time date", quantity, time.Date(1979, 5, 27, 0, 0, 0, 0, time.UTC), "want a number or a string with a unit, got a date"},
		{"seed float", seed, 1000.0, seeds + "the float 1000"},
		{"seed fraction", seed, 1.5, seeds + "the float 1.5"},
		{"seed string", seed, "abc", seeds + `"abc"`},
		{"seed list", seed, []any{int64(1)}, seeds + "a list"},
		{"seed bool", seed, true, seeds + "a boolean"},
		{"seed negative", seed, int64(-1), "seed -1: " + seeds[:len(seeds)-len(", got ")]},
	} {
		if err := c.fn(c.in); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
