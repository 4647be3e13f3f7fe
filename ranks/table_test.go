package ranks

import (
	"math"
	"strings"
	"testing"
)

// TestTableLookup follows SimGrid's rule (reference §2.6, §9): chunk b:v
// applies to sizes > b up to the next boundary; sizes ≤ the smallest
// boundary get the default.
func TestTableLookup(t *testing.T) {
	size500 := 500 // a variable: the runtime float product, not a constant folded exactly
	smpi := MustParseTable(SMPILatFactor)
	cases := []struct {
		table string
		size  int
		def   float64
		want  float64
	}{
		{"", 100, 1, 1},
		{"2.5", 0, 1, 2.5},
		{"0:1;1000:2;5000:3", 0, 7, 7}, // size 0 ≤ bound 0: default
		{"0:1;1000:2;5000:3", 1, 7, 1},
		{"0:1;1000:2;5000:3", 1000, 7, 1}, // boundaries belong to the chunk below
		{"0:1;1000:2;5000:3", 1001, 7, 2},
		{"5000:3;0:1;1000:2", 5001, 7, 3},                     // any order
		{"0:1e-6:2e-9", 500, 0, 1e-6 + 2e-9*float64(size500)}, // the same float operations
		{" 10 : 4 ;", 11, 0, 4},                               // spaces and a trailing ';'
	}
	for _, c := range cases {
		tb, err := ParseTable(c.table)
		if err != nil {
			t.Fatalf("ParseTable(%q): %v", c.table, err)
		}
		if got := tb.Value(c.size, c.def); got != c.want {
			t.Errorf("%q at %d = %v, want %v", c.table, c.size, got, c.want)
		}
	}
	// SMPI rows at the wire sizes of the reference's boundary examples.
	for size, want := range map[int]float64{257: 2.01467, 258: 1.95341, 65472: 3.48845, 65473: 11.6436, 16: 2.01467} {
		if got := smpi.Value(size, 1); got != want {
			t.Errorf("SMPI lat factor at %d = %v, want %v", size, got, want)
		}
	}
}

// TestTableMemo: a World's memo of a table's last two lookups (tableMemo)
// gives the chunk rule's values, by hand, through repeats of the latest
// size, returns to the other one, new sizes that push one out, and the
// sizes 0 and −1 on an empty memo; and on a per-byte table the very float
// Value computes.
func TestTableMemo(t *testing.T) {
	steps := []struct {
		size int
		want float64
	}{
		{0, 7}, {0, 7}, {1, 1}, {1, 1}, {1001, 2}, {1, 1}, {1001, 2}, {1000, 1}, {1000, 1}, {5001, 3}, {1000, 1},
		{0, 7}, {1001, 2}, {5001, 3}, {1000, 1},
	}
	tb := MustParseTable("0:1;1000:2;5000:3")
	var m tableMemo
	for i, s := range steps {
		if got := m.lookup(&tb, s.size, 7); got != s.want {
			t.Errorf("step %d: size %d = %v, want %v", i, s.size, got, s.want)
		}
	}
	for _, size := range []int{-1, 0} { // an empty memo's keys are no size's
		var e tableMemo
		if got := e.lookup(&tb, size, 7); got != 7 {
			t.Errorf("empty memo: size %d = %v, want 7", size, got)
		}
	}
	os := MustParseTable("0:2.965491847282898e-07:9.63619592297199e-11;8133:4.117386759387727e-06:9.998650637323814e-11;64000:0:0")
	var mo tableMemo
	for _, size := range []int{1032, 1032, 8133, 8134, 1032, 70000, 70000, 8134} {
		if got, want := mo.lookup(&os, size, 0), os.Value(size, 0); got != want {
			t.Errorf("os at %d = %v, want Value's %v", size, got, want)
		}
	}
}

func TestParseTableErrors(t *testing.T) {
	for _, s := range []string{"x", "-1", "NaN", "Inf", "1:2:3:4", "a:1", "-5:1", "1:-2", "3:1;3:2", ";;", "1:"} {
		if _, err := ParseTable(s); err == nil {
			t.Errorf("ParseTable(%q) accepted", s)
		}
	}
}

func TestPresetsAndValidate(t *testing.T) {
	smpi, _ := Preset("smpi")
	if smpi.WeightS != 8775 || smpi.CrossTraffic != 0.05 || smpi.LatFactor.IsZero() || smpi.EagerThreshold != 65536 {
		t.Errorf("smpi preset %+v", smpi)
	}
	cm, _ := Preset("cm02")
	if cm.WeightS != 0 || cm.CrossTraffic != 0 || !cm.LatFactor.IsZero() || cm.TCPGamma != 4194304 || cm.IprobeCost != 1e-4 {
		t.Errorf("cm02 preset %+v", cm)
	}
	if _, err := Preset("lv08"); err == nil {
		t.Error("unknown model accepted")
	}
	bad := map[string]func(*Config){
		"EagerThreshold": func(c *Config) { c.EagerThreshold = -1 },
		"AsyncThreshold": func(c *Config) { c.AsyncThreshold = 1 << 20 },
		"IprobeCost":     func(c *Config) { c.IprobeCost = -1e-6 },
		"BwFactor":       func(c *Config) { c.BwFactor = MustParseTable("0:1;100:0") },
		"BcastAlgo":      func(c *Config) { c.BcastAlgo = "scatter" },
		// The approximations of emu's max-min do not apply to SimGrid's lmm.
		"LocalSolve": func(c *Config) { c.WakeOrder, c.LocalSolve = WakeSimGrid, true },
		"LightFlow":  func(c *Config) { c.WakeOrder, c.LightFlow = WakeSimGrid, 65536 },
	}
	for field, mutate := range bad {
		c := cm
		mutate(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: Validate() = %v, want an error naming it", field, err)
		}
	}
}

func TestNewWorldErrors(t *testing.T) {
	cfg, _ := Preset("cm02")
	topo := newCrossbar(2, 1e9, 1e-6)
	if _, err := NewWorld(cfg, topo, []int{0, 2}, 1); err == nil || !strings.Contains(err.Error(), "rank 1") {
		t.Errorf("host out of range: %v", err)
	}
	if _, err := NewWorld(cfg, topo, nil, 1); err == nil {
		t.Error("empty placement accepted")
	}
	if _, err := NewWorld(cfg, nil, []int{0}, 1); err == nil {
		t.Error("nil topology accepted")
	}
	cfg.TCPGamma = -1
	if _, err := NewWorld(cfg, topo, []int{0}, 1); err == nil {
		t.Error("bad config accepted")
	}
}

// FuzzParseTable: any input either fails cleanly or gives a table that
// prints back to an equivalent table (same values at every probed size).
func FuzzParseTable(f *testing.F) {
	for _, s := range []string{SMPILatFactor, SMPIBwFactor, "1.5", "0:1e-6:1e-9", "", "1:2;;", "x:1", "5:NaN"} {
		f.Add(s, 100)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		tb, err := ParseTable(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on several lines: %q", err)
			}
			return
		}
		again, err := ParseTable(tb.String())
		if err != nil {
			t.Fatalf("ParseTable(%q) → %q does not parse: %v", s, tb.String(), err)
		}
		for _, n := range []int{size, 0, 1, 1 << 20} {
			if a, b := tb.Value(n, 1), again.Value(n, 1); a != b {
				t.Fatalf("%q at %d: %v, reparsed %v", s, n, a, b)
			}
		}
	})
}

// TestOverheadCostAtFirstBound: SimGrid 3.32 reads an overhead table
// (smpi_host.cpp's orecv, osend, oisend) starting from its first section's
// value, so a size at or below the first bound costs that section's
// offset + perbyte·size, not 0; a factor table keeps its default there
// (network_smpi.cpp starts from 1). Hand-evaluated on "0:1e-6:1e-9;100:2e-6".
func TestOverheadCostAtFirstBound(t *testing.T) {
	tb := MustParseTable("0:1e-6:1e-9;100:2e-6")
	for _, tc := range []struct {
		size int
		cost float64
	}{{0, 1e-6}, {50, 1e-6 + 50e-9}, {100, 1e-6 + 100e-9}, {101, 2e-6}, {1 << 20, 2e-6}} {
		if got := tb.Cost(tc.size); math.Abs(got-tc.cost) > 1e-21 {
			t.Errorf("Cost(%d) = %g, want %g", tc.size, got, tc.cost)
		}
	}
	if got := MustParseTable("10:2").Value(0, 1); got != 1 {
		t.Errorf("a factor table at 0 bytes: %g, want its default 1", got)
	}
	if got := (Table{}).Cost(0); got != 0 {
		t.Errorf("the zero Table costs %g, want 0", got)
	}
}

// TestOverheadForm: the World's form of an overhead table gives Cost
// through Value(size, 0) at every size around its bounds.
func TestOverheadForm(t *testing.T) {
	for _, s := range []string{"0:1e-6:1e-9;100:2e-6", "64:3e-6;65536:1e-5:1e-10", "2e-6"} {
		tb := MustParseTable(s)
		f := tb.overheadForm()
		if g := f.overheadForm(); len(g.chunks) != len(tb.chunks) || len(tb.chunks) > 0 && tb.chunks[0].bound < 0 {
			t.Errorf("%s: overheadForm changed the table's chunks or the table itself", s)
		}
		for _, size := range []int{0, 1, 63, 64, 65, 99, 100, 101, 65536, 65537, 1 << 30} {
			if got, want := f.Value(size, 0), tb.Cost(size); got != want {
				t.Errorf("%s at %d bytes: Value %g, Cost %g", s, size, got, want)
			}
		}
	}
}
