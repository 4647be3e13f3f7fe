package tune

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseSweep(t *testing.T) {
	tests := []struct {
		spec string
		want Axis
	}{
		{"nb=64,128,256", Axis{"hpl.nb", []string{"64", "128", "256"}}},
		{"grid=8x8,4x16", Axis{"hpl.grids", []string{"[[8, 8]]", "[[4, 16]]"}}},
		{"grid=2×4", Axis{"hpl.grids", []string{"[[2, 4]]"}}}, // the sign the docs write
		{"bcast=all", Axis{"hpl.bcast", []string{`"1ring"`, `"1ringM"`, `"2ring"`, `"2ringM"`, `"long"`, `"longM"`}}},
		{"network.link_latency=1us,5us", Axis{"network.link_latency", []string{`"1us"`, `"5us"`}}},
		{"hpl.grids=[[2,2],[4,1]],[[1,4]]", Axis{"hpl.grids", []string{"[[2,2],[4,1]]", "[[1,4]]"}}},
		{"depth=0,1,1", Axis{"hpl.depth", []string{"0", "1"}}}, // duplicates dropped
		// "all" among other values is the whole set too, not a value "all"
		// that only the first evaluation would refuse.
		{"bcast=long,all", Axis{"hpl.bcast", []string{`"long"`, `"1ring"`, `"1ringM"`, `"2ring"`, `"2ringM"`, `"longM"`}}},
		{"swap=all,mix", Axis{"hpl.swap", []string{`"binary-exchange"`, `"spread-roll"`, `"mix"`}}},
		{`kernels.mode="model"`, Axis{"kernels.mode", []string{`"model"`}}},
		// Ranges, start..stop..step as a shell's brace expansion writes them,
		// stop included where a step lands on it; a range is one value of the
		// list, beside others.
		{"nb=32..128..32", Axis{"hpl.nb", []string{"32", "64", "96", "128"}}},
		{"n=1000..4500..1000", Axis{"hpl.n", []string{"1000", "2000", "3000", "4000"}}},
		{"depth=0..2", Axis{"hpl.depth", []string{"0", "1", "2"}}}, // step 1
		{"nb=16,32..64..16,256", Axis{"hpl.nb", []string{"16", "32", "48", "64", "256"}}},
		{"nb=64..64..8", Axis{"hpl.nb", []string{"64"}}},
		// Near the largest int64 the float count takes one step too many
		// (0, 2⁶², 2⁶³): that step would wrap to a negative value.
		{"n=0..9223372036854775807..4611686018427387904", Axis{"hpl.n", []string{"0", "4611686018427387904"}}},
		// Numbers Go reads but TOML does not are written out as numbers, not
		// taken for strings that an integer key refuses.
		{"nb=.5,064,+7", Axis{"hpl.nb", []string{"0.5", "64", "+7"}}},
		// Decimal steps print as typed, not as their float sums (0.30000000000000004).
		{"kernels.speed_ratio=0.1..0.5..0.1", Axis{"kernels.speed_ratio", []string{"0.1", "0.2", "0.3", "0.4", "0.5"}}},
		{"latency=1us..4us..1us", Axis{"network.link_latency", []string{`"1us"`, `"2us"`, `"3us"`, `"4us"`}}},
		{"bandwidth=10GBps..30GBps..10", Axis{"network.link_bandwidth", []string{`"10GBps"`, `"20GBps"`, `"30GBps"`}}},
		// Not ranges: a path and a SimGrid table keep their dots and colons.
		{"kernels.models=../a.toml", Axis{"kernels.models", []string{`"../a.toml"`}}},
		{"network.send_overhead=0:1e-6:1e-9", Axis{"network.send_overhead", []string{`"0:1e-6:1e-9"`}}},
	}
	for _, tt := range tests {
		got, err := ParseSweep(tt.spec)
		if err != nil {
			t.Errorf("ParseSweep(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSweep(%q) = %v, want %v", tt.spec, got, tt.want)
		}
	}
}

func TestParseSweepErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"nb", "want key=value"},
		{"=1,2", "want key=value"},
		{"nb=", "want key=value"},
		{"nb=all", `no known set of values for "all"`},
		{"nb=64,all", `no known set of values for "all"`},
		{"grid=8y8", "want PxQ"},
		{"grid=0x8", "want PxQ"},
		{"nb=64,,128", "empty value"},
		{"nb=256..64..32", `range "256..64..32" is empty`},
		{"nb=64..256..0", `range "64..256..0": want a positive step`},
		{"nb=64..256..-32", `range "64..256..-32": want a positive step`},
		{"latency=1us..4ms..1us", `range "1us..4ms..1us": start, stop and step take one unit`},
		{"n=1..1e9", `range "1..1e9" has 1000000000 values`},
		{"nb=1..2..3..4", `range "1..2..3..4": want start..stop or start..stop..step`},
		{"n=9223372036854775807..9223372036854775806", "is empty"}, // one float apart
	}
	for _, tt := range tests {
		_, err := ParseSweep(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSweep(%q) error = %v, want it to mention %q", tt.spec, err, tt.want)
		}
	}
}

func TestPointsCrossProduct(t *testing.T) {
	axes := []Axis{{"a", []string{"1", "2"}}, {"b", []string{"x", "y", "z"}}}
	pts := Points(axes, 0, 1)
	if len(pts) != 6 {
		t.Fatalf("got %d points, want 2·3 = 6", len(pts))
	}
	// Last axis fastest: index 4 = (1, 1) → a=2, b=y.
	if got := pts[4].Label(); got != "a=2 b=y" {
		t.Errorf("point 4 = %q, want a=2 b=y", got)
	}
	// A quoted key part keeps its dots in the label (a host range).
	q := Point{Overrides: []Override{{Key: `kernels.host_speed."dahu-13..16"`, Value: "0.9"}, {Key: "hpl.nb", Value: "64"}}}
	if got := q.Label(); got != `"dahu-13..16"=0.9 nb=64` {
		t.Errorf("quoted key's label = %q", got)
	}
	ids := map[string]bool{}
	for _, p := range pts {
		ids[p.ID()] = true
	}
	if len(ids) != 6 {
		t.Errorf("IDs not unique: %v", ids)
	}
}

func TestPointsBudget(t *testing.T) {
	axes := []Axis{{"a", make([]string, 100)}, {"b", make([]string, 100)}}
	for i := range axes[0].Values {
		axes[0].Values[i] = string(rune('A'+i%26)) + strings.Repeat("x", i/26)
		axes[1].Values[i] = axes[0].Values[i]
	}
	p1 := Points(axes, 37, 7)
	p2 := Points(axes, 37, 7)
	if !reflect.DeepEqual(p1, p2) {
		t.Fatal("same seed gave different subsets")
	}
	if len(p1) != 37 {
		t.Fatalf("got %d points, want the budget 37", len(p1))
	}
	for i := 1; i < len(p1); i++ {
		if p1[i].Index <= p1[i-1].Index {
			t.Fatalf("indices not strictly increasing (duplicate or unsorted): %d then %d", p1[i-1].Index, p1[i].Index)
		}
	}
	if reflect.DeepEqual(p1, Points(axes, 37, 8)) {
		t.Error("different seeds gave the same subset")
	}
	if got := len(Points(axes, 1e6, 7)); got != 10000 {
		t.Errorf("budget above the product size gave %d points, want all 10000", got)
	}
}

// TestPointLabels: a table's label tells every swept key from the point's
// others. Cut to their last part, jobs.0.start and jobs.1.start both read
// "start" (a tune of two jobs' starts printed "start=1ms start=0" and
// "start=0 start=0.5ms"), as did two kernels' intercepts and the two
// link_latency keys.
func TestPointLabels(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"hpl.nb", "platform.link_latency"}, "nb=v0 link_latency=v1"},
		{[]string{"jobs.0.start", "jobs.1.start"}, "jobs.0.start=v0 jobs.1.start=v1"},
		{[]string{"jobs.0.start", "jobs.1.ring.iterations"}, "start=v0 iterations=v1"},
		{[]string{"kernels.dgemm.intercept", "kernels.dtrsm.intercept", "hpl.nb"}, "dgemm.intercept=v0 dtrsm.intercept=v1 nb=v2"},
		{[]string{"platform.link_latency", "network.link_latency"}, "platform.link_latency=v0 network.link_latency=v1"},
		{[]string{`kernels.host_speed."dahu-1..2"`, `kernels.host_speed."dahu-3"`}, `"dahu-1..2"=v0 "dahu-3"=v1`},
		{[]string{`kernels.dgemm.host."dahu-5/cpu0".intercept`, `kernels.dgemm.host.'dahu-6/cpu0'.intercept`},
			`"dahu-5/cpu0".intercept=v0 'dahu-6/cpu0'.intercept=v1`},
		{[]string{"a.b.c", "b.c", "x"}, "a.b.c=v0 b.c=v1 x=v2"},
	} {
		var p Point
		for i, k := range tc.keys {
			p.Overrides = append(p.Overrides, Override{Key: k, Value: fmt.Sprintf("v%d", i)})
		}
		if got := p.Label(); got != tc.want {
			t.Errorf("Label of %q = %q, want %q", tc.keys, got, tc.want)
		}
	}
}

// TestPointSettings: error messages name a point by its full keys, as the
// --set they become (the scenario's own error names the full key too); the
// short label cut "nosuch.key" to "key".
func TestPointSettings(t *testing.T) {
	for _, tc := range []struct {
		point Point
		want  string
	}{
		{Point{Overrides: []Override{{Key: "nosuch.key", Value: "1"}}}, "nosuch.key=1"},
		{Point{Overrides: []Override{{Key: "hpl.nb", Value: "64"}, {Key: "hpl.bcast", Value: `"long"`}}}, `hpl.nb=64 hpl.bcast="long"`},
		{Point{Overrides: []Override{{Key: `kernels.host_speed."dahu-13..16"`, Value: "0.9"}}}, `kernels.host_speed."dahu-13..16"=0.9`},
	} {
		if got := tc.point.Settings(); got != tc.want {
			t.Errorf("Settings() = %q, want %q", got, tc.want)
		}
	}
	// A point the runner refuses is named so in Sweep's error.
	pts := Points([]Axis{{"a.b", []string{"1"}}, {"nosuch.key", []string{"2"}}}, 0, 0)
	_, err := Sweep(context.Background(), &toyRunner{bad: "nosuch.key"}, pts, Options{})
	if want := "point a.b=1 nosuch.key=2: unknown key nosuch.key"; err == nil || err.Error() != want {
		t.Errorf("Sweep error %v, want %q", err, want)
	}
}

// TestColonRange: start:stop[:step] read as the range it would be written
// start..stop[..step]; anything else (a table with more entries, a word, one
// number) is not.
func TestColonRange(t *testing.T) {
	for _, tc := range []struct {
		value, want string
		ok          bool
	}{
		{`"1000:4000:1000"`, "1000..4000..1000", true},
		{"1000:4000:1000", "1000..4000..1000", true},
		{`"1us:5us:2us"`, "1us..5us..2us", true},
		{`"32:64"`, "32..64", true},
		{`"0:1e-6:1e-9"`, "0..1e-6..1e-9", true}, // a table's form too: callers ask the scenario
		{`"0:1e-6:1e-9;1024:2e-6:0"`, "", false},
		{`"1:2:3:4"`, "", false},
		{`"a:b:c"`, "", false},
		{`"1000"`, "", false},
		{"1000", "", false},
	} {
		got, ok := ColonRange(tc.value)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ColonRange(%s) = %q, %v; want %q, %v", tc.value, got, ok, tc.want, tc.ok)
		}
	}
}
