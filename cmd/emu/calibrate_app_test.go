package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/scenario"
)

func TestCalibrateMeasuresTheRunsCalls(t *testing.T) {
	// A 1×2 HPL of N=300, NB=32: the calibration emulates it, records the
	// calls of the two ranks of the node and measures at most 4 of each
	// kernel's distinct calls, with 2 workers (one per rank on the node).
	dir := t.TempDir()
	out := filepath.Join(dir, "s.csv")
	code, stdout, errOut := runCLI(t, "calibrate", "--set", "hpl.n=300", "--set", "hpl.nb=32", "--set", "hpl.grids=[[1,2]]",
		"--set", "platform.hosts=1", "--set", "platform.cores_per_host=2", "--samples", "4", "--repeats", "1", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	samples, err := calibration.ReadSampleFile(out)
	if err != nil {
		t.Fatal(err)
	}
	kernels, cores := map[string]int{}, map[int]bool{}
	for _, s := range samples {
		kernels[s.Kernel]++
		cores[s.Core] = true
		if s.Runs < 1 {
			t.Errorf("%+v: no timed run recorded", s)
		}
	}
	// HPL's panel always calls these; dgemm and dtrsm update the trailing matrix.
	for _, k := range []string{"dgemm", "dtrsm", "idamax", "dscal", "dger"} {
		if kernels[k] == 0 || kernels[k] > 4 {
			t.Errorf("%s measured %d times, want 1..4 (kernels %v)", k, kernels[k], kernels)
		}
	}
	// Two workers (the node's ranks) share the calls; on a loaded machine
	// one may take them all, but no third one exists.
	for c := range cores {
		if c < 0 || c > 1 {
			t.Errorf("measured by worker %d, want workers 0 and 1 (the node's two ranks)", c)
		}
	}
	if !strings.Contains(stdout, "measured again") {
		t.Errorf("summary does not say what screening did: %q", stdout)
	}
	models := filepath.Join(dir, "m.toml")
	if code, _, errOut := runCLI(t, "fit", out, "-o", models); code != exitOK {
		t.Fatalf("fit: exit %d: %s", code, errOut)
	}
}

// TestCalibrateKernelsNarrowsTheRun checks that --kernels, given with a
// scenario, measures the run's calls of those kernels only, and refuses a
// kernel the run never calls.
func TestCalibrateKernelsNarrowsTheRun(t *testing.T) {
	dir := t.TempDir()
	run := []string{"calibrate", "--set", "hpl.n=300", "--set", "hpl.nb=32", "--set", "hpl.grids=[[1,2]]",
		"--set", "platform.hosts=1", "--set", "platform.cores_per_host=2", "--samples", "4", "--repeats", "1"}
	out := filepath.Join(dir, "s.csv")
	if code, stdout, errOut := runCLI(t, append(run, "--kernels", "dlaswp,idamax", "-o", out)...); code != exitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	samples, err := calibration.ReadSampleFile(out)
	if err != nil {
		t.Fatal(err)
	}
	measured := map[string]int{}
	for _, s := range samples {
		measured[s.Kernel]++
	}
	if len(measured) != 2 || measured["dlaswp"] == 0 || measured["idamax"] == 0 {
		t.Errorf("measured %v, want dlaswp and idamax only", measured)
	}
	// A 1×2 grid (P = 1) gathers no rows into U: HPL calls no dgather.
	code, _, errOut := runCLI(t, append(run, "--kernels", "dgemm,dgather", "-o", filepath.Join(dir, "g.csv"))...)
	if want := "emu: --kernels: the run makes no dgather call"; code != exitInput || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "g.csv")); err == nil {
		t.Error("a refused calibration left its sample file behind")
	}
}

// explainN256 runs emu explain on the default at N=256, NB=32 with the
// extra flags, checks the printed table holds each of want, and returns the
// table and the --json comparison.
func explainN256(t *testing.T, want []string, extra ...string) (string, explanation) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "ex.json")
	args := append([]string{"explain", "--set", "hpl.n=256", "--set", "hpl.nb=32", "--json", js}, extra...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	var ex explanation
	readJSON(t, js, &ex)
	return out, ex
}

func TestExplainComparesModelAndTimed(t *testing.T) {
	out, ex := explainN256(t, []string{"dgemm", "all kernels", "application time", "model error"})
	var dgemm *kernelError
	for i := range ex.Rows {
		if ex.Rows[i].Kernel == "dgemm" {
			dgemm = &ex.Rows[i]
		}
	}
	// The default's dgemm model charges 1.029e-11 s per multiply-add plus
	// 1.981e-12 s per call; timed mode measures real calls, so both are > 0
	// and the error is what the two say.
	if dgemm == nil || dgemm.Calls == 0 || dgemm.ModelS <= 0 || dgemm.TimedS == nil || *dgemm.TimedS <= 0 || dgemm.ErrorPct == nil {
		t.Fatalf("dgemm row %+v", dgemm)
	}
	if want := pctError(dgemm.ModelS, *dgemm.TimedS); *dgemm.ErrorPct != want {
		t.Errorf("dgemm error %g%%, want %g%%", *dgemm.ErrorPct, want)
	}
	// Per MPI call: both runs' tallies, merged by call.
	byCall := map[string]callRow{}
	for _, c := range ex.Calls {
		byCall[c.Call] = c
	}
	if r := byCall["MPI_Recv"]; r.Calls == 0 || r.ModelS <= 0 || r.TimedS == nil || *r.TimedS <= 0 || len(ex.Calls) != max(len(ex.Model.MPI), len(ex.Timed.MPI)) {
		t.Errorf("per-call rows %+v from %d and %d calls", ex.Calls, len(ex.Model.MPI), len(ex.Timed.MPI))
	}
	if !strings.Contains(out, "MPI call (summed over ranks)") {
		t.Errorf("output lacks the MPI call table:\n%s", out)
	}
}

// writeRealN256 writes into dir the output of a real HPL run of explainN256's
// test (Time 0.02 s, HPL's six detailed timings) and returns its path.
func writeRealN256(t *testing.T, dir string) string {
	t.Helper()
	s := scenario.Default()
	for _, kv := range []string{"hpl.n=256", "hpl.nb=32"} {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	test := p.HPL[0]
	real := filepath.Join(dir, "xhpl.out")
	out := fmt.Sprintf(`HPLinpack 2.3
T/V                N    NB     P     Q               Time                 Gflops
--------------------------------------------------------------------------------
%s  %d  %d  %d  %d  0.02  %.4e
Max aggregated wall time rfact . . . :            0.00500
+ Max aggregated wall time pfact . . :            0.00400
+ Max aggregated wall time mxswp . . :            0.00300
Max aggregated wall time update  . . :            0.01000
+ Max aggregated wall time laswp . . :            0.00200
Max aggregated wall time up tr sv  . :            0.00100
`, test.Variant(), test.N, test.NB, test.P, test.Q, (2.0/3.0*256*256*256+1.5*256*256)/0.02/1e9)
	if err := os.WriteFile(real, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return real
}

// TestExplainAgainstARealRun: --real reads a real HPL's output (detailed
// timing) and puts its phases and Time beside the model's, the error taken
// against the real run; a file without the scenario's test is bad input.
func TestExplainAgainstARealRun(t *testing.T) {
	dir := t.TempDir()
	real := writeRealN256(t, dir)
	_, ex := explainN256(t, []string{"HPL phase", "real s", "laswp", "up tr sv", "model error vs real"}, "--real", real)
	if ex.Real == nil || math.Abs(ex.Real.Time-0.02) > 1e-4*0.02 || ex.Real.Line != 4 {
		t.Fatalf("real run %+v, want Time 0.02 s from line 4", ex.Real)
	}
	if len(ex.Phases) != 6 || ex.Phases[4].Phase != "laswp" || ex.Phases[4].RealS == nil || *ex.Phases[4].RealS != 0.002 {
		t.Fatalf("phases %+v", ex.Phases)
	}
	for _, ph := range ex.Phases {
		if want := pctError(ph.ModelS, *ph.RealS); ph.ErrorPct != want {
			t.Errorf("%s: error %g%%, want %g%% (model against real)", ph.Phase, ph.ErrorPct, want)
		}
	}
	if ex.RealTimeErr == nil || *ex.RealTimeErr != pctError(ex.Model.Time, ex.Real.Time) {
		t.Errorf("time error against real %v", ex.RealTimeErr)
	}

	// Another test's output is refused, naming the file.
	other := filepath.Join(dir, "other.out")
	os.WriteFile(other, []byte("WR00L2L2  512  32  2  2  0.02  8.0e+00\n"), 0o644)
	code, _, errOut := runCLI(t, "explain", "--set", "hpl.n=256", "--set", "hpl.nb=32", "--real", other)
	if code != exitInput || !strings.Contains(errOut, "other.out has no result of the scenario's first test") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("exit %d, %q: want 2 and one line naming the file", code, errOut)
	}
}

// TestExplainWithoutTimedRun: --timed=false compares the model with --real
// alone (a run too large to execute here): the same model and real columns
// and errors as with the timed run, no timed figure anywhere, and without
// --real it is refused.
func TestExplainWithoutTimedRun(t *testing.T) {
	real := writeRealN256(t, t.TempDir())
	_, with := explainN256(t, nil, "--real", real)
	text, without := explainN256(t, []string{"share of model", "model error vs real"}, "--real", real, "--timed=false")
	if without.Timed != nil || without.TimeErr != nil {
		t.Errorf("timed run %+v, error %v: want none", without.Timed, without.TimeErr)
	}
	if without.Model.Time != with.Model.Time || *without.RealTimeErr != *with.RealTimeErr {
		t.Errorf("model Time %g, error %g%%; with the timed run %g, %g%%", without.Model.Time, *without.RealTimeErr, with.Model.Time, *with.RealTimeErr)
	}
	if len(without.Phases) != len(with.Phases) || len(without.Phases) != 6 {
		t.Fatalf("%d phases, with the timed run %d", len(without.Phases), len(with.Phases))
	}
	for i, ph := range without.Phases {
		if ph.TimedS != nil || ph.ModelS != with.Phases[i].ModelS || *ph.RealS != *with.Phases[i].RealS || ph.ErrorPct != with.Phases[i].ErrorPct {
			t.Errorf("phase %+v, with the timed run %+v", ph, with.Phases[i])
		}
	}
	share := 0.0
	for _, r := range without.Rows {
		if r.TimedS != nil || r.ErrorPct != nil {
			t.Errorf("kernel row %+v has a timed figure", r)
		}
		share += r.SharePct
	}
	for _, c := range without.Calls {
		if c.TimedS != nil {
			t.Errorf("MPI call row %+v has a timed figure", c)
		}
	}
	if math.Abs(share-100) > 1e-9 {
		t.Errorf("kernel shares add to %g%%, want 100%%", share)
	}
	if strings.Contains(text, "NaN") || strings.Contains(text, "Inf") {
		t.Errorf("output:\n%s", text)
	}
	code, _, errOut := runCLI(t, "explain", "--set", "hpl.n=256", "--timed=false")
	if want := "emu: --timed=false leaves nothing to compare the model with: give --real"; code != exitInput || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, %q: want 2 and %q", code, errOut, want)
	}
}

// TestCalibrateSeveralHPLDats: --hpl-dat a,b records the calls of a's runs
// and then b's, numbered one after the other as runs of their own (each
// weighs alike in the draw), exactly the calls each file gives alone; an
// empty name in the list is an error.
func TestCalibrateSeveralHPLDats(t *testing.T) {
	dir := t.TempDir()
	shipped := strings.Split(strings.TrimSpace(string(mustRead(t, "../../hpldat/testdata/shipped.dat"))), "\n")
	dat := func(name, n, nb string) string {
		lines := append([]string(nil), shipped...)
		lines[4], lines[5], lines[6], lines[7] = "1 # of N", n+" Ns", "1 # of NBs", nb+" NBs"
		lines[9], lines[10], lines[11] = "1 # of grids", "1 Ps", "2 Qs"
		lines[13], lines[14] = "1 # of panel fact", "2 PFACTs"
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := dat("a.dat", "120", "16"), dat("b.dat", "200", "32")
	calls := func(list string) []calibration.AppCall {
		t.Helper()
		sf := scenarioFlags{hplDat: list}
		c, _, _, err := appCalls(&sf, "")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ca, cb, both := calls(a), calls(b), calls(a+","+b)
	runsOf := func(cs []calibration.AppCall) map[int]int {
		m := map[int]int{}
		for _, c := range cs {
			m[c.Run]++
		}
		return m
	}
	ra, rb := runsOf(ca), runsOf(cb)
	if len(both) != len(ca)+len(cb) {
		t.Fatalf("%d calls from a,b; %d from a and %d from b", len(both), len(ca), len(cb))
	}
	for i, c := range both {
		want := c
		if i < len(ca) {
			want = ca[i]
		} else {
			want = cb[i-len(ca)]
			want.Run += len(ra)
		}
		if c != want {
			t.Fatalf("call %d of a,b: %+v, want %+v", i, c, want)
		}
	}
	if got := runsOf(both); len(got) != len(ra)+len(rb) {
		t.Errorf("runs of a,b: %v; a has %v, b %v", got, ra, rb)
	}
	sf := scenarioFlags{hplDat: a + ",,"}
	if _, _, _, err := appCalls(&sf, ""); err == nil || !strings.Contains(err.Error(), "empty file name") {
		t.Errorf("a,, : %v", err)
	}
}

// TestExplainBadInput: what explain cannot compare is bad input (exit 2, one
// line), as emu run has it: a scenario of [[jobs]], a trace that cannot
// complete.
func TestExplainBadInput(t *testing.T) {
	dir := t.TempDir()
	unmatched := filepath.Join(dir, "u.txt")
	if err := os.WriteFile(unmatched, []byte("0 init\n1 init\n0 send 1 5 100\n0 finalize\n1 finalize\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"../../examples/jobs-congestor.toml"}, "emu: explain compares one application's runs; this scenario has [[jobs]]"},
		{[]string{"--replay", unmatched}, "emu: " + unmatched + ":3: rank 0's send of 100 bytes to rank 1 tag 5 has no matching receive"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"explain", "-q"}, c.args...)...)
		if code != exitInput || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestExplainAgainstAPlainRealRun: the output of a plain xhpl (no detailed
// timing, so no phases) still gives the real Time its row, with and without
// the timed run; the phases' errors are then against the timed run and the
// header says so. With --timed=false the table used to end before the Time
// row: nothing compared the model with the real run.
func TestExplainAgainstAPlainRealRun(t *testing.T) {
	full, err := os.ReadFile(writeRealN256(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "plain.out")
	lines := strings.SplitAfter(string(full), "\n")
	if err := os.WriteFile(plain, []byte(strings.Join(lines[:4], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		extra []string
		want  []string
	}{
		{"without the timed run", []string{"--timed=false"}, []string{"model error vs real", "Time"}},
		{"with the timed run", nil, []string{"model error vs timed (Time: real)", "laswp", "Time"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, ex := explainN256(t, c.want, append([]string{"--real", plain}, c.extra...)...)
			if ex.Real == nil || ex.Real.Phases != nil || math.Abs(ex.Real.Time-0.02) > 1e-4*0.02 {
				t.Fatalf("real run %+v: want Time 0.02 s and no phases", ex.Real)
			}
			row := ""
			for _, l := range strings.Split(out, "\n") {
				if f := strings.Fields(l); len(f) > 0 && f[0] == "Time" {
					row = l
				}
			}
			want := fmt.Sprintf("%+.1f%%", pctError(ex.Model.Time, ex.Real.Time))
			if !strings.Contains(row, "0.02") || !strings.HasSuffix(strings.TrimSpace(row), want) {
				t.Errorf("Time row %q: want the real 0.02 s and the error %s", row, want)
			}
		})
	}
}
