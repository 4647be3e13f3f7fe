package scenario

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/observe"
)

func TestPivotsRoundTrip(t *testing.T) {
	in, err := hpl.PivotsFromRows([]int{3, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	out, err := ParsePivots(FormatPivots(in), "p.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Rows(), in.Rows(); len(got) != len(want) || got[0] != 3 || got[3] != 3 {
		t.Errorf("round trip gives %v, want %v", got, want)
	}
}

func FuzzParsePivots(f *testing.F) {
	f.Add([]byte("# rows\n3\n1\n2\n3\n"))
	f.Add([]byte("0\n-1\n"))
	f.Add([]byte("1 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePivots(data, "f.txt")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "f.txt") {
				t.Fatalf("error %q: want one line naming f.txt", msg)
			}
			return
		}
		rows := p.Rows()
		for c, r := range rows {
			if r < c || r >= len(rows) {
				t.Fatalf("accepted pivot %d for column %d of %d", r, c, len(rows))
			}
		}
	})
}

func FuzzParseTraceWindow(f *testing.F) {
	for _, s := range []string{"0:5ms", "1s:", ":100us", "", "2s:1s", "::", "0:0", "1ms:1ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		from, to, err := observe.ParseTraceWindow(s)
		if err != nil && (strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "--trace-window ")) {
			t.Errorf("error %q: want one line naming --trace-window", err)
		}
		if err == nil && (from < 0 || to <= from) {
			t.Errorf("%q gives the window [%g, %g]", s, from, to)
		}
	})
}

// An editor's byte order mark before the first row is not part of it.
func TestParsePivotsByteOrderMark(t *testing.T) {
	p, err := ParsePivots([]byte("\ufeff1\n1\n"), "p.txt")
	if err != nil {
		t.Fatal(err)
	}
	if rows := p.Rows(); len(rows) != 2 || rows[0] != 1 || rows[1] != 1 {
		t.Errorf("rows %v, want [1 1]", rows)
	}
}
