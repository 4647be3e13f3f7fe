package hpl

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// Output writes HPL 2.3's report byte for byte (hpl.md §11): banner and parameter
// echo, one block per test, the end summary. Calendar times in the "start time"
// lines are Epoch plus simulated seconds, so the same run prints the same bytes.
type Output struct {
	W     io.Writer
	Epoch time.Time // calendar time of simulated time 0 (default: the Unix epoch, UTC)

	threshold                      float64
	first                          bool
	tests, passed, failed, skipped int
	unchecked                      int
}

const (
	ruleEq   = "================================================================================"
	ruleDash = "--------------------------------------------------------------------------------"
)

// NewOutput starts a report for the parameters of d.
func NewOutput(w io.Writer, d Dat) *Output {
	return &Output{W: w, threshold: d.Threshold, first: true}
}

func intList(b *strings.Builder, label string, vals []int) {
	b.WriteString("\n" + label)
	for i, v := range vals {
		if i > 0 && i%8 == 0 {
			b.WriteString("\n        ")
		}
		fmt.Fprintf(b, "%8d ", v)
	}
}

func wordList(b *strings.Builder, label string, words []string) {
	b.WriteString("\n" + label)
	for i, w := range words {
		if i > 0 && i%8 == 0 {
			b.WriteString("\n        ")
		}
		b.WriteString(w)
	}
}

var (
	factWords  = [...]string{"    Left ", "   Crout ", "   Right "}
	bcastWords = [...]string{"   1ring ", "  1ringM ", "   2ring ", "  2ringM ", "   Blong ", "  BlongM "}
)

// Banner prints HPL's banner and the echo of d's parameters.
func (o *Output) Banner(d Dat) error {
	var b strings.Builder
	b.WriteString(ruleEq + "\n")
	b.WriteString("HPLinpack 2.3  --  High-Performance Linpack benchmark  --   December 2, 2018\n")
	b.WriteString("Written by A. Petitet and R. Clint Whaley,  Innovative Computing Laboratory, UTK\n")
	b.WriteString("Modified by Piotr Luszczek, Innovative Computing Laboratory, UTK\n")
	b.WriteString("Modified by Julien Langou, University of Colorado Denver\n")
	b.WriteString(ruleEq + "\n")
	b.WriteString("\nAn explanation of the input/output parameters follows:\n")
	b.WriteString("T/V    : Wall time / encoded variant.\n")
	b.WriteString("N      : The order of the coefficient matrix A.\n")
	b.WriteString("NB     : The partitioning blocking factor.\n")
	b.WriteString("P      : The number of process rows.\n")
	b.WriteString("Q      : The number of process columns.\n")
	b.WriteString("Time   : Time in seconds to solve the linear system.\n")
	b.WriteString("Gflops : Rate of execution for solving the linear system.\n\n")
	b.WriteString("The following parameter values will be used:\n")
	intList(&b, "N      :", d.Ns)
	intList(&b, "NB     :", d.NBs)
	if d.PMap == ColumnMajor {
		b.WriteString("\nPMAP   : Column-major process mapping")
	} else {
		b.WriteString("\nPMAP   : Row-major process mapping")
	}
	ps, qs := make([]int, len(d.Grids)), make([]int, len(d.Grids))
	for i, g := range d.Grids {
		ps[i], qs[i] = g.P, g.Q
	}
	intList(&b, "P      :", ps)
	intList(&b, "Q      :", qs)
	facts := func(fs []Fact) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = factWords[f%3]
		}
		return out
	}
	wordList(&b, "PFACT  :", facts(d.PFacts))
	intList(&b, "NBMIN  :", d.NBMins)
	intList(&b, "NDIV   :", d.NDivs)
	wordList(&b, "RFACT  :", facts(d.RFacts))
	bc := make([]string, len(d.BCasts))
	for i, x := range d.BCasts {
		bc[i] = bcastWords[x%6]
	}
	wordList(&b, "BCAST  :", bc)
	intList(&b, "DEPTH  :", d.Depths)
	switch d.Swap {
	case BinaryExchange:
		b.WriteString("\nSWAP   : Binary-exchange")
	case SpreadRoll:
		b.WriteString("\nSWAP   : Spread-roll (long)")
	default:
		fmt.Fprintf(&b, "\nSWAP   : Mix (threshold = %d)", d.SwapThreshold)
	}
	form := func(t bool) string {
		if t {
			return " transposed form"
		}
		return " no-transposed form"
	}
	b.WriteString("\nL1     :" + form(d.L1Transposed))
	b.WriteString("\nU      :" + form(d.UTransposed))
	if d.Equilibration {
		b.WriteString("\nEQUIL  : yes")
	} else {
		b.WriteString("\nEQUIL  : no")
	}
	fmt.Fprintf(&b, "\nALIGN  : %d double precision words", d.Alignment)
	b.WriteString("\n\n")
	if d.Threshold > 0 {
		b.WriteString(ruleDash + "\n\n")
		b.WriteString("- The matrix A is randomly generated for each test.\n")
		b.WriteString("- The following scaled residual check will be computed:\n")
		b.WriteString("      ||Ax-b||_oo / ( eps * ( || x ||_oo * || A ||_oo + || b ||_oo ) * N )\n")
		fmt.Fprintf(&b, "%s %21.6e\n", "- The relative machine precision (eps) is taken to be     ", eps)
		fmt.Fprintf(&b, "%s   %11s\n\n", "- Computational tests pass if scaled residuals are less than      ", cFixed1(d.Threshold))
	}
	_, err := io.WriteString(o.W, b.String())
	return err
}

// cFixed1 is C's "%.1f" of v: Go writes an infinite threshold (HPL.dat's
// "inf", which HPL's atof reads) as "+Inf", glibc's printf as "inf".
func cFixed1(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return fmt.Sprintf("%.1f", v)
}

// addSeconds is t + s seconds. A time.Duration holds 292 years: past that
// (a run of absurd kernel models, Time 1.2e10 s) t.Add wrapped to 1677;
// whole seconds are added apart there.
func addSeconds(t time.Time, s float64) time.Time {
	if math.Abs(s) < 9e9 {
		return t.Add(time.Duration(s * float64(time.Second)))
	}
	s = max(min(s, 9e18), -9e18) // an int64 of seconds
	whole := math.Floor(s)
	return time.Unix(t.Unix()+int64(whole), int64(t.Nanosecond())).In(t.Location()).
		Add(time.Duration((s - whole) * float64(time.Second)))
}

// ctime is C's ctime() text of a calendar time, with its newline.
func ctime(t time.Time) string { return t.Format("Mon Jan _2 15:04:05 2006") + "\n" }

// Test prints one test's block and counts it. Results that carry no residual
// (model mode, extrapolated runs) print no check lines and count as completed
// without checking.
func (o *Output) Test(r *Result) error {
	var b strings.Builder
	o.tests++
	if r.Skipped { // HPL_pdtest returns before its T/V line
		b.WriteString("HPL ERROR from process # 0, on line 173 of function HPL_pdtest:\n")
		fmt.Fprintf(&b, ">>> [%d,%d] Memory allocation failed for A, x and b. Skip. <<<\n\n", r.skipRow, r.skipCol)
		o.skipped++
		_, err := io.WriteString(o.W, b.String())
		return err
	}
	if o.first {
		b.WriteString(ruleEq + "\n")
		b.WriteString("T/V                N    NB     P     Q               Time                 Gflops\n")
		b.WriteString(ruleDash + "\n")
		if o.threshold <= 0 {
			o.first = false
		}
	}
	if r.Time > 0 {
		fmt.Fprintf(&b, "%s%12d %5d %5d %5d %18.2f    %19.4e\n", r.Variant, r.N, r.NB, r.P, r.Q, r.Time, r.Gflops)
		epoch := o.Epoch
		if epoch.IsZero() {
			epoch = time.Unix(0, 0).UTC()
		}
		at := func(s float64) time.Time { return addSeconds(epoch, s) }
		b.WriteString("HPL_pdgesv() start time " + ctime(at(r.Start)) + "\n")
		b.WriteString("HPL_pdgesv() end time   " + ctime(at(r.Start+r.Time)) + "\n")
	}
	switch {
	case o.threshold <= 0:
		o.passed++
	case r.Info != 0:
		b.WriteString("HPL ERROR from process # 0, on line 331 of function HPL_pdtest:\n")
		fmt.Fprintf(&b, ">>> Error code returned by solve is %d, skip <<<\n\n", r.Info)
		o.skipped++
	case !r.Checked:
		o.unchecked++
	default:
		verdict := "PASSED"
		if !r.Passed {
			verdict = "FAILED"
		}
		b.WriteString(ruleDash + "\n")
		fmt.Fprintf(&b, "%s%16.8e%s%s\n", "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= ", r.Residual, " ...... ", verdict)
		if r.Passed {
			o.passed++
		} else {
			o.failed++
			n := r.norms
			for _, l := range []struct {
				label string
				v     float64
			}{
				{"||Ax-b||_oo  . . . . . . . . . . . . . . . . . = ", n.rnorm},
				{"||A||_oo . . . . . . . . . . . . . . . . . . . = ", n.anormI},
				{"||A||_1  . . . . . . . . . . . . . . . . . . . = ", n.anorm1},
				{"||x||_oo . . . . . . . . . . . . . . . . . . . = ", n.xnormI},
				{"||x||_1  . . . . . . . . . . . . . . . . . . . = ", n.xnorm1},
				{"||b||_oo . . . . . . . . . . . . . . . . . . . = ", n.bnormI},
			} {
				fmt.Fprintf(&b, "%s%18.6f\n", l.label, l.v)
			}
		}
	}
	_, err := io.WriteString(o.W, b.String())
	return err
}

// End prints the summary. With threshold ≤ 0, or when no test could be checked
// (model mode), it uses HPL's "completed without checking" form.
func (o *Output) End() error {
	var b strings.Builder
	b.WriteString(ruleEq + "\n")
	fmt.Fprintf(&b, "\n%s %6d %s\n", "Finished", o.tests, "tests with the following results:")
	if o.threshold > 0 && o.unchecked == 0 {
		fmt.Fprintf(&b, "         %6d %s\n", o.passed, "tests completed and passed residual checks,")
		fmt.Fprintf(&b, "         %6d %s\n", o.failed, "tests completed and failed residual checks,")
	} else {
		if o.threshold > 0 && o.passed+o.failed > 0 {
			fmt.Fprintf(&b, "         %6d %s\n", o.passed, "tests completed and passed residual checks,")
			fmt.Fprintf(&b, "         %6d %s\n", o.failed, "tests completed and failed residual checks,")
			fmt.Fprintf(&b, "         %6d %s\n", o.unchecked, "tests completed without checking,")
		} else {
			fmt.Fprintf(&b, "         %6d %s\n", o.passed+o.unchecked, "tests completed without checking,")
		}
	}
	fmt.Fprintf(&b, "         %6d %s\n", o.skipped, "tests skipped because of illegal input values.")
	b.WriteString(ruleDash + "\n")
	b.WriteString("\nEnd of Tests.\n")
	b.WriteString(ruleEq + "\n")
	_, err := io.WriteString(o.W, b.String())
	return err
}
