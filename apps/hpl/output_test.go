package hpl

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
	"github.com/emu-hpc/emu/kernels"
)

// tinyDat is a cut of HPL's shipped HPL.dat: 2 sizes, 2 block sizes, grids 2×2
// and 1×4, the three PFACTs and RFACTs.
func tinyDat() Dat {
	return Dat{OutFile: "HPL.out", Device: 6, Ns: []int{29, 30}, NBs: []int{1, 3},
		PMap: RowMajor, Grids: []Grid{{2, 2}, {1, 4}}, Threshold: 16,
		PFacts: []Fact{Left, Crout, Right}, NBMins: []int{2}, NDivs: []int{2},
		RFacts: []Fact{Crout}, BCasts: []BCast{OneRingM}, Depths: []int{1},
		Swap: Mix, SwapThreshold: 64, L1Transposed: true, UTransposed: true,
		Equilibration: true, Alignment: 8}
}

// runDat runs every test of d on one world and writes rank 0's report.
func runDat(t *testing.T, d Dat, mode kernels.Mode) string {
	t.Helper()
	return runDatOpt(t, d, mode, Options{})
}

func TestOutputGoldenReal(t *testing.T) {
	out := runDat(t, tinyDat(), kernels.Real)
	if strings.Count(out, "PASSED") != 24 {
		t.Errorf("want 24 PASSED lines:\n%s", out)
	}
	golden.Check(t, filepath.Join("testdata", "tiny_real.golden"), []byte(out))
}

func TestOutputGoldenModel(t *testing.T) {
	d := tinyDat()
	d.Ns = []int{2000}
	d.NBs = []int{64}
	d.PFacts = []Fact{Right}
	golden.Check(t, filepath.Join("testdata", "tiny_model.golden"), []byte(runDat(t, d, kernels.Model)))
}

// The first banner lines and a result line follow HPL's format strings
// (hpl.md §11): a WR line is the variant, N in 12 columns, NB, P, Q in 5, Time
// as %18.2f and Gflops as %19.4e after four blanks.
func TestResultLineFormat(t *testing.T) {
	var b bytes.Buffer
	o := NewOutput(&b, Dat{Threshold: 16})
	p := Params{N: 29, NB: 1, P: 2, Q: 2, PFact: Left, RFact: Left, NBMin: 2, NDiv: 2, BCast: OneRing}
	o.Test(&Result{Variant: p.Variant(), N: 29, NB: 1, P: 2, Q: 2, Time: 0.0123, Gflops: 2.1234e-3, Checked: true, Passed: true, Residual: 1.23456789e-2})
	want := "WR00L2L2          29     1     2     2               0.01             2.1234e-03\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("got\n%s\nwant line\n%s", b.String(), want)
	}
	if !strings.Contains(b.String(), "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=   1.23456789e-02 ...... PASSED\n") {
		t.Errorf("residual line:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "HPL_pdgesv() start time Thu Jan  1 00:00:00 1970\n\n") {
		t.Errorf("time line:\n%s", b.String())
	}
}

// TestEndTimeOfLongRuns: the end time line is the epoch plus Time at any
// Time. A run of absurd kernel models (1000 s per m·n·k) took 1.15e10 s and
// printed "Tue Sep 21 00:12:43 1677": a time.Duration wraps past 292 years.
// The dates are Python's datetime(1970, 1, 1) + timedelta(seconds=Time).
func TestEndTimeOfLongRuns(t *testing.T) {
	for _, tc := range []struct {
		time float64
		want string
	}{
		{0.0123, "Thu Jan  1 00:00:00 1970"},
		{8999999999, "Wed Mar 14 15:59:59 2255"},
		{11509504667.56, "Fri Sep 21 20:37:47 2334"},
		{86181513167.79, "Wed Dec 26 05:12:47 4700"},
	} {
		var b bytes.Buffer
		o := NewOutput(&b, Dat{Threshold: 16})
		o.Test(&Result{Variant: "WR00L2L2", N: 29, NB: 1, P: 2, Q: 2, Time: tc.time, Gflops: 1})
		if want := "HPL_pdgesv() end time   " + tc.want + "\n"; !strings.Contains(b.String(), want) {
			t.Errorf("Time %g: got\n%s\nwant the line\n%s", tc.time, b.String(), want)
		}
	}
}

// TestBannerThreshold: the threshold line is HPL's "%11.1f" after three
// blanks, as glibc prints it: an HPL.dat threshold of "inf" (HPL's atof reads
// it; every residual passes) printed "       +Inf", Go's spelling.
func TestBannerThreshold(t *testing.T) {
	const label = "- Computational tests pass if scaled residuals are less than         "
	for _, tc := range []struct {
		threshold float64
		want      string
	}{
		{16, label + "       16.0\n"},
		{0.05, label + "        0.1\n"},
		{123456789.987, label + "123456790.0\n"},
		{math.Inf(1), label + "        inf\n"},
	} {
		var b bytes.Buffer
		d := tinyDat()
		d.Threshold = tc.threshold
		if err := NewOutput(&b, d).Banner(d); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("threshold %g: no line %q in\n%s", tc.threshold, tc.want, b.String())
		}
	}
}
