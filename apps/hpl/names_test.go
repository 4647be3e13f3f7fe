package hpl

import "testing"

// The names HPL itself prints (banner: "Blong", "Spread-roll (long)") and the ones
// HPL.dat's comments use ("1rM", "bin-exch"), and HPL.dat's numeric codes, are
// accepted beside emu's own names; a code out of range is an error, not HPL's
// silent fallback.
func TestHPLSpellings(t *testing.T) {
	parse := map[string]func(string) (uint8, error){
		"bcast": func(s string) (uint8, error) { v, err := ParseBCast(s); return uint8(v), err },
		"swap":  func(s string) (uint8, error) { v, err := ParseSwap(s); return uint8(v), err },
		"fact":  func(s string) (uint8, error) { v, err := ParseFact(s); return uint8(v), err },
		"pmap":  func(s string) (uint8, error) { v, err := ParsePMap(s); return uint8(v), err },
	}
	for _, c := range []struct {
		kind, in string
		want     uint8
	}{
		{"bcast", "Blong", uint8(Long)}, {"bcast", "BlongM", uint8(LongM)}, {"bcast", "1rg", uint8(OneRing)},
		{"bcast", "1rM", uint8(OneRingM)}, {"bcast", "2rg", uint8(TwoRing)}, {"bcast", "2rM", uint8(TwoRingM)},
		{"bcast", "Lng", uint8(Long)}, {"bcast", "LnM", uint8(LongM)}, {"bcast", "3", uint8(TwoRingM)},
		{"bcast", "0", uint8(OneRing)}, {"swap", "long", uint8(SpreadRoll)}, {"swap", "bin-exch", uint8(BinaryExchange)},
		{"swap", "Binary-exchange", uint8(BinaryExchange)}, {"swap", "Spread-roll (long)", uint8(SpreadRoll)},
		{"swap", "2", uint8(Mix)}, {"fact", "Crout", uint8(Crout)}, {"fact", "0", uint8(Left)},
		{"pmap", "1", uint8(ColumnMajor)}, {"pmap", "Row-major", uint8(RowMajor)}, {"pmap", "column-major", uint8(ColumnMajor)},
	} {
		got, err := parse[c.kind](c.in)
		if err != nil || got != c.want {
			t.Errorf("%s %q: got %d, %v; want %d", c.kind, c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ kind, in string }{{"bcast", "6"}, {"bcast", "-1"}, {"swap", "3"}, {"fact", "3"}, {"pmap", "2"}, {"bcast", "Blongg"}} {
		if _, err := parse[c.kind](c.in); err == nil {
			t.Errorf("%s %q: accepted", c.kind, c.in)
		}
	}
}
