package hpl

import (
	"bytes"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/ranks"
)

// matrixBytes counts what every rank of the grid allocates for [A | b] and x, as
// solver does: lda·(nq+1) + nq doubles per rank.
func TestMatrixBytes(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Params
		want float64
	}{
		// 1×1, N = 3, NB = 1, align 8: mp = 3 → lda 8, 16 (powers of two) → 24;
		// nq = 3: 24·4 + 3 = 99 doubles.
		{"1x1", Params{N: 3, NB: 1, P: 1, Q: 1, Alignment: 8}, 99 * 8},
		// 2×2, N = 29, NB = 1, align 8: rows own 15 and 14 → lda 16 → 24 both;
		// columns own 15 and 14: per row 24·16+15 + 24·15+14 = 773, two rows.
		{"2x2", Params{N: 29, NB: 1, P: 2, Q: 2, Alignment: 8}, 2 * 773 * 8},
		// N = 0: every rank still holds lda = 24 rows of b: 24·1 + 0.
		{"empty", Params{N: 0, NB: 4, P: 1, Q: 2, Alignment: 8}, 2 * 24 * 8},
	} {
		if got := matrixBytes(c.p); got != c.want {
			t.Errorf("%s: matrixBytes = %g, want %g", c.name, got, c.want)
		}
	}
}

// A real-mode test whose matrices exceed Options.MemoryLimit is skipped as HPL
// skips a test whose malloc fails (HPL_pdtest.c line 173): the warning instead of
// the T/V line, counted as skipped; the other tests run.
func TestMemoryLimitSkips(t *testing.T) {
	d := tinyDat()
	d.Ns = []int{3, 29}
	d.NBs = []int{1}
	d.Grids = []Grid{{2, 2}}
	d.PFacts = []Fact{Right}
	// N = 3 on 2×2: rows own 2 and 1 → lda 24 both; columns own 2 and 1:
	// 8·(48·5 + 2·3) = 1,968 bytes, under 2 KiB; N = 29 needs 12,368 (TestMatrixBytes).
	out := runDatOpt(t, d, kernels.Real, Options{MemoryLimit: 2048})
	warn := "HPL ERROR from process # 0, on line 173 of function HPL_pdtest:\n" +
		">>> [1,1] Memory allocation failed for A, x and b. Skip. <<<\n\n"
	if strings.Count(out, warn) != 1 {
		t.Errorf("want one skip warning %q:\n%s", warn, out)
	}
	for _, want := range []string{
		"WR11C2R2           3     1     2     2",
		"Finished      2 tests with the following results:\n",
		"              1 tests completed and passed residual checks,\n",
		"              1 tests skipped because of illegal input values.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "WR11C2R2          29") {
		t.Errorf("the skipped test printed a T/V line:\n%s", out)
	}
	// model mode allocates nothing: the limit does not apply
	if out := runDatOpt(t, d, kernels.Model, Options{MemoryLimit: 1}); strings.Contains(out, "Skip") {
		t.Errorf("model mode skipped a test:\n%s", out)
	}
}

// runDatOpt runs every test of d on one world with emulation options and
// writes rank 0's report.
func runDatOpt(t *testing.T, d Dat, mode kernels.Mode, opt Options) string {
	t.Helper()
	w := world(t, d.MaxRanks(), 1e-6)
	ms := peerModels(t)
	var buf bytes.Buffer
	err := w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: mode, Models: ms}, r, r.Rand())
		results, err := RunDat(r, d, k, opt)
		if err != nil {
			t.Error(err)
			return
		}
		if r.ID() != 0 {
			return
		}
		out := NewOutput(&buf, d)
		out.Banner(d)
		for _, res := range results {
			out.Test(res)
		}
		out.End()
	})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
