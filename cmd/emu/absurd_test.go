package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAbsurdKernelModelRefused: a models file whose dgemm costs 1000 s per
// m·n·k (a typo of units: a real one is about 1e-11 s) charges each call of
// an N = 400 HPL some 1e10 s; at coef 1e9 the run's growing probe costs
// made the engine poll for hours (qa34's leftover). The run stops at the
// first call past kernels.MaxCallSeconds, exit 2, one line naming the
// models file's line, the kernel and the call, with no --json left.
// A call just under the bound runs, as before.
func TestAbsurdKernelModelRefused(t *testing.T) {
	dir := t.TempDir()
	scen := writeIn(t, dir, "s.toml", "app = \"hpl\"\n[platform]\nhosts = 2\ncores_per_host = 1\nlink_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\n"+
		"[kernels]\nmodels = \"big.toml\"\n[hpl]\nn = 400\nnb = 64\ngrids = [\"1x2\"]\n")
	out := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		coef, inline string
		want         string // "" runs
	}{
		// the largest dgemm of this run is m = 336, n = 336, k = 64 (7.2e6 m·n·k)
		{coef: "1e3", want: "big.toml:2: kernels.dgemm: one call"},
		{coef: "1e9", want: "big.toml:2: kernels.dgemm: one call"},
		{coef: "0.1"}, // 4.5e5 s for the largest call (m = 336, n = 208, k = 64): absurd, but under the bound
		// dtrsm's 1e3 s per m·n: 32 × 32 costs 1.02e6 s
		{coef: "1e-11", inline: "[kernels.dtrsm]\nterms = [\"m*n\"]\ncoef = [1e3]\n", want: "s.toml:13: kernels.dtrsm: one call"},
	} {
		writeIn(t, dir, "big.toml", "# a units typo\n[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = ["+tc.coef+"]\n")
		text, _ := os.ReadFile(scen)
		if tc.inline != "" {
			writeIn(t, dir, "s.toml", string(text)+tc.inline)
		}
		code, stdout, stderr := runCLI(t, "run", "-q", scen, "--json", out)
		if tc.inline != "" {
			writeIn(t, dir, "s.toml", string(text))
		}
		if tc.want == "" {
			if code != 0 || !strings.Contains(stdout, "WR11C2R4") {
				t.Errorf("coef %s: exit %d, %q; want a run", tc.coef, code, stderr)
			}
			os.Remove(out)
			continue
		}
		if code != 2 || !strings.Contains(stderr, filepath.Join(dir, tc.want)) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("coef %s: exit %d, %q; want exit 2 and one line %q", tc.coef, code, stderr, tc.want)
		}
		// the call's cost is the model's, worked from the dimensions the line gives
		var m, n, k, cost float64
		at := strings.Index(stderr, "one call (")
		if _, err := fmt.Sscanf(stderr[max(at, 0):], "one call (m = %g, n = %g, k = %g) costs %g s by this model, over emu's bound of 1e+06 s (11.6 days) a call", &m, &n, &k, &cost); err != nil && !strings.Contains(tc.want, "dtrsm") {
			t.Errorf("coef %s: %q: %v", tc.coef, stderr, err)
		} else if c, _ := strconv.ParseFloat(tc.coef, 64); err == nil && tc.inline == "" && math.Abs(cost/(c*m*n*k)-1) > 0.01 {
			t.Errorf("coef %s: %q: want %.2g s", tc.coef, stderr, c*m*n*k)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("coef %s: %s written", tc.coef, out)
			os.Remove(out)
		}
	}
}
