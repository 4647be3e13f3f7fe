package hpl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// A real run's pivots survive the file round trip and replay to the same time.
func TestPivotsFileRoundTrip(t *testing.T) {
	p := Params{N: 90, NB: 6, P: 3, Q: 2, PFact: Left, RFact: Crout, NBMin: 2, NDiv: 2, BCast: TwoRing,
		Depth: 1, Swap: Mix, SwapThreshold: 12, Equilibration: true, Alignment: 8, Threshold: 16}
	rec := NewPivots(p.N)
	real := runHPL(t, p, kernels.Real, Options{Record: rec}, 0)
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPivots(&buf, "pivots.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Rows(), rec.Rows()) {
		t.Fatal("rows differ after the round trip")
	}
	model := runHPL(t, p, kernels.Model, Options{Pivot: PivotReplay, Replay: back}, 0)
	if model.Time != real.Time {
		t.Errorf("replayed time %g, real %g", model.Time, real.Time)
	}
}

func TestReadPivotsErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty"},
		{"0 0\n", "f:1: want the header"},
		{"# hpl pivots N=2\n0 0\n1\n", "f:3: want"},
		{"# hpl pivots N=2\n1 1\n", "f:2: column 1 out of order"},
		{"# hpl pivots N=2\n0 5\n", "f:2: pivot of column 0 is row 5"},
		{"# hpl pivots N=3\n0 0\n", "1 columns, header says N=3"},
		{"# hpl pivots N=x\n", "f:1: bad order"},
	}
	for _, c := range cases {
		_, err := ReadPivots(strings.NewReader(c.in), "f")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func FuzzReadPivots(f *testing.F) {
	f.Add("# hpl pivots N=3\n0 2\n1 1\n2 2\n")
	f.Add("# hpl pivots N=1\n# comment\n\n0 -1\n")
	f.Add("# hpl pivots N=2\n0 0 0\n")
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ReadPivots(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		rows := p.Rows()
		for c, r := range rows {
			if r != -1 && (r < c || r >= len(rows)) {
				t.Fatalf("accepted row %d for column %d of %d", r, c, len(rows))
			}
		}
		var buf bytes.Buffer
		p.WriteTo(&buf)
		q, err := ReadPivots(&buf, "again")
		if err != nil || !slices.Equal(q.Rows(), rows) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
