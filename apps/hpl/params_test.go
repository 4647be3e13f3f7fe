package hpl

import "testing"

func TestNamesRoundTrip(t *testing.T) {
	for i, n := range bcastNames {
		b, err := ParseBCast(n)
		if err != nil || int(b) != i || b.String() != n {
			t.Errorf("bcast %q: got %v, %v", n, b, err)
		}
	}
	for i, n := range factNames {
		f, err := ParseFact(n)
		if err != nil || int(f) != i || f.String() != n {
			t.Errorf("fact %q: got %v, %v", n, f, err)
		}
	}
	for i, n := range swapNames {
		s, err := ParseSwap(n)
		if err != nil || int(s) != i || s.String() != n {
			t.Errorf("swap %q: got %v, %v", n, s, err)
		}
	}
	for i, n := range pmapNames {
		m, err := ParsePMap(n)
		if err != nil || int(m) != i || m.String() != n {
			t.Errorf("pmap %q: got %v, %v", n, m, err)
		}
	}
	if _, err := ParseBCast("3ring"); err == nil {
		t.Error("3ring accepted")
	}
	if b, err := ParseBCast("LONGM"); err != nil || b != LongM {
		t.Errorf("LONGM: %v %v", b, err)
	}
}

func TestVariantCode(t *testing.T) {
	// hpl.md §11.2: WR11C2R4 = row-major, depth 1, 1ringM, recursive Crout, NDIV 2,
	// base right-looking, NBMIN 4; NBMIN 16 widens the code.
	p := Params{PMap: RowMajor, Depth: 1, BCast: OneRingM, RFact: Crout, NDiv: 2, PFact: Right, NBMin: 4}
	if got := p.Variant(); got != "WR11C2R4" {
		t.Errorf("got %s", got)
	}
	p = Params{PMap: ColumnMajor, Depth: 0, BCast: LongM, RFact: Left, NDiv: 3, PFact: Left, NBMin: 16}
	if got := p.Variant(); got != "WC05L3L16" {
		t.Errorf("got %s", got)
	}
}

func TestTestsLoopOrder(t *testing.T) {
	// The shipped HPL.dat makes 4·4·3·3·2·1·3·1·1 = 864 tests (hpl.md §1).
	d := Dat{Ns: []int{29, 30, 34, 35}, NBs: []int{1, 2, 3, 4}, Grids: []Grid{{2, 2}, {1, 4}, {4, 1}},
		PFacts: []Fact{Left, Crout, Right}, NBMins: []int{2, 4}, NDivs: []int{2},
		RFacts: []Fact{Left, Crout, Right}, BCasts: []BCast{OneRing}, Depths: []int{0}}
	ts := d.Tests()
	if len(ts) != 864 {
		t.Fatalf("%d tests, want 864", len(ts))
	}
	// innermost varying: NBMIN, then PFACT, then RFACT.
	if ts[0].NBMin != 2 || ts[1].NBMin != 4 || ts[2].PFact != Crout || ts[6].RFact != Crout {
		t.Errorf("order: %+v %+v %+v %+v", ts[0], ts[1], ts[2], ts[6])
	}
	if ts[18].NB != 2 || ts[18*4].N != 30 || ts[288].P != 1 || ts[288].Q != 4 {
		t.Errorf("outer order wrong")
	}
	if d.MaxRanks() != 4 {
		t.Errorf("MaxRanks %d", d.MaxRanks())
	}
	// Each test's own HPL.dat holds that test alone.
	for _, i := range []int{0, 1, 2, 6, 18, 72, 288, 863} {
		if got := ts[i].Dat().Tests(); len(got) != 1 || got[0] != ts[i] {
			t.Errorf("test %d: its Dat gives %+v, want [%+v]", i, got, ts[i])
		}
	}
}

func TestValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []func(*Params){
		func(p *Params) { p.NB = 0 }, func(p *Params) { p.N = -1 }, func(p *Params) { p.P = 0 },
		func(p *Params) { p.NDiv = 1 }, func(p *Params) { p.NBMin = 0 }, func(p *Params) { p.Depth = -1 },
		func(p *Params) { p.BCast = 6 }, func(p *Params) { p.Alignment = 0 }, func(p *Params) { p.Depth = MaxDepth + 1 }, func(p *Params) { p.N = MaxN + 1 },
	}
	for i, f := range bad {
		p := DefaultParams()
		f(&p)
		if p.Validate() == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}
