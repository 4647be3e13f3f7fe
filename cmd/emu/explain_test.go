package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/observe"
)

// TestExplainCallsOfEachRun: the two runs of explain need not make the same
// calls (HPL's probing splits its updates by time, so the model run and the
// timed run split them differently). Each row's calls are the model run's,
// beside its seconds, and the timed run's where they differ; the table
// prints "model/timed" there. The figures are made up, so the rows are known.
func TestExplainCallsOfEachRun(t *testing.T) {
	model := explainRun{
		Kernels: []observe.KernelTotal{{Kernel: "dgemm", Calls: 237, Seconds: 2}, {Kernel: "dtrsm", Calls: 5, Seconds: 1}},
		MPI:     []observe.MPICallTotal{{Call: "MPI_Iprobe", Calls: 50, Seconds: 0.5}, {Call: "MPI_Send", Calls: 9, Seconds: 0}},
	}
	timed := explainRun{
		Kernels: []observe.KernelTotal{{Kernel: "dgemm", Calls: 243, Seconds: 4}, {Kernel: "dtrsm", Calls: 5, Seconds: 2}, {Kernel: "idamax", Calls: 4, Seconds: 1}},
		MPI:     []observe.MPICallTotal{{Call: "MPI_Iprobe", Calls: 60, Seconds: 0.7}, {Call: "MPI_Send", Calls: 9, Seconds: 0}},
	}
	for _, tc := range []struct {
		name  string
		timed *explainRun
		calls map[string][2]int // kernel or MPI call: model's calls, timed's (-1: no timed figure)
		cells []string          // a row's name and calls cell in the table
	}{
		{"model and timed", &timed,
			map[string][2]int{"dgemm": {237, 243}, "dtrsm": {5, 5}, "idamax": {0, 4}, "MPI_Iprobe": {50, 60}, "MPI_Send": {9, 9}},
			[]string{"dgemm 237/243", "dtrsm 5", "idamax 0/4", "MPI_Iprobe 50/60", "MPI_Send 9"}},
		{"model alone", nil,
			map[string][2]int{"dgemm": {237, -1}, "dtrsm": {5, -1}, "MPI_Iprobe": {50, -1}, "MPI_Send": {9, -1}},
			[]string{"dgemm 237", "dtrsm 5", "MPI_Iprobe 50", "MPI_Send 9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := &explanation{Model: model, Timed: tc.timed}
			ex.compare()
			got := map[string][2]int{}
			for _, r := range ex.Rows {
				got[r.Kernel] = [2]int{r.Calls, timedCalls(r.TimedCalls)}
			}
			for _, c := range ex.Calls {
				got[c.Call] = [2]int{c.Calls, timedCalls(c.TimedCalls)}
			}
			for k, want := range tc.calls {
				if got[k] != want {
					t.Errorf("%s: calls %v, want %v", k, got[k], want)
				}
			}
			if len(got) != len(tc.calls) {
				t.Errorf("rows %v, want %v", got, tc.calls)
			}
			var b bytes.Buffer
			if err := ex.write(&b); err != nil {
				t.Fatal(err)
			}
			text := " " + strings.Join(strings.Fields(b.String()), " ") + " "
			for _, c := range tc.cells {
				if !strings.Contains(text, " "+c+" ") {
					t.Errorf("table lacks %q:\n%s", c, b.String())
				}
			}
		})
	}
}

func timedCalls(n *int) int {
	if n == nil {
		return -1
	}
	return *n
}

// TestExplainNoKernels: explain compares kernel models with measured kernels;
// a scenario that runs none (a pingpong, a trace replay: their computing is
// charged as given, alike in both modes) printed a table of zeros and two
// identical columns. It is now refused in one line, exit 2, and nothing on
// standard output; an HPL run, which has kernels, is still explained.
func TestExplainNoKernels(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // stderr, "" for none
	}{
		{"pingpong", []string{"../../examples/pingpong.toml"}, exitInput, "emu: this scenario (app pingpong) runs no compute kernels: explain has none to compare; emu run gives its communication and MPI time\n"},
		{"replay", []string{"../../examples/replay.toml"}, exitInput, "emu: this scenario (app replay) runs no compute kernels: explain has none to compare; emu run gives its communication and MPI time\n"},
		{"replay, model alone", []string{"../../examples/replay.toml", "--timed=false", "--real", "../../validation/testdata/realhpl/device16-2026-11-28/real/call2-before-1-d06.txt"}, exitInput, "runs no compute kernels"},
		{"hpl", []string{"--set", "hpl.n=64", "--set", "hpl.nb=16"}, exitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"explain", "-q"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if tc.want == "" {
				if stderr != "" || !strings.Contains(stdout, "dgemm") {
					t.Errorf("stderr %q, stdout %q: want dgemm's row and no word", stderr, stdout)
				}
				return
			}
			if stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stdout %q, stderr %q; want one line with %q", stdout, stderr, tc.want)
			}
		})
	}
}

// TestExplainSeveralTests: on a scenario of several HPL tests the kernel and
// MPI rows sum every test while Time and the phases (and --real) are the
// first test's; explain said nothing of it (32 tests: dgemm summed over all
// 32 beside the first test's Time).
func TestExplainSeveralTests(t *testing.T) {
	const note = "emu: note: the scenario runs 2 HPL tests: kernels and MPI calls are summed over all of them, the application's Time and HPL's phases are its first test's (WR11C2R4 N=64 NB=16 2x2)\n"
	for _, tc := range []struct {
		name string
		n    string
		want string // stderr
	}{
		{"one test", "hpl.n=64", ""},
		{"two tests", "hpl.n=[64,96]", note},
	} {
		code, stdout, stderr := runCLI(t, "explain", "--set", tc.n, "--set", "hpl.nb=16")
		if code != exitOK || stderr != tc.want || !strings.Contains(stdout, "dgemm") {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, stderr, tc.want)
		}
	}
}
