package scenario

import (
	"slices"
	"testing"
)

// TestSplitKeyQuotes: a --set key's parts as TOML reads a dotted key (the
// TOML spec's keys section): bare, "basic" or 'literal'. A literal part was
// refused as "not a dotted key" (qa51), though it is TOML's, and the one a
// shell's double quotes keep: --set "kernels.dgemm.host.'dahu-5/cpu0'.intercept=1e-6".
func TestSplitKeyQuotes(t *testing.T) {
	tests := []struct {
		key  string
		want []string // nil: not a dotted key
	}{
		{`kernels.dgemm.host."n3/cpu0".intercept`, []string{"kernels", "dgemm", "host", "n3/cpu0", "intercept"}},
		{`kernels.dgemm.host.'n3/cpu0'.intercept`, []string{"kernels", "dgemm", "host", "n3/cpu0", "intercept"}},
		{`kernels.host_speed.'dahu-13..16'`, []string{"kernels", "host_speed", "dahu-13..16"}},
		{`a.'b"c'`, []string{"a", `b"c`}},
		{`a.'b\c'`, []string{"a", `b\c`}}, // a literal string takes no escapes
		{`a."b'c"`, []string{"a", "b'c"}},
		{`a.'b`, nil},
		{`a.'b'c`, nil},
		{`a.''`, nil},
		{`a.'b".c`, nil},
	}
	for _, tc := range tests {
		got, ok := splitKey(tc.key)
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("splitKey(%s) = %q, %v; want %q", tc.key, got, ok, tc.want)
		}
	}
}
