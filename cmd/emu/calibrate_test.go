package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
)

func TestCalibrateRunsResumesAndMerges(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	args := []string{"calibrate", "--kernels", "dgemm,dscal", "--samples", "3", "--max-dim", "8", "--seed", "5", "--clock", "cpu"}
	code, out, errOut := runCLI(t, append(args, "--host", "n1", "-o", a)...)
	if code != exitOK || !strings.Contains(out, a+": 6 samples (6 measured now, 0 resumed)") {
		t.Fatalf("calibrate: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, append(args, "--host", "n1", "-o", a)...)
	if code != exitOK || !strings.Contains(out, "(0 measured now, 6 resumed)") {
		t.Fatalf("rerun: exit %d, out %q", code, out)
	}
	if code, _, errOut := runCLI(t, append(args, "--host", "n2", "-o", b)...); code != exitOK {
		t.Fatalf("second node: exit %d: %s", code, errOut)
	}
	all := filepath.Join(dir, "all.csv")
	code, _, errOut = runCLI(t, "calibrate", "merge", a, b, a, "-o", all)
	if code != exitOK || !strings.Contains(errOut, "12 samples from 3 files (6 duplicates dropped)") {
		t.Fatalf("merge: exit %d, %q", code, errOut)
	}
	got, err := calibration.ReadSampleFile(all)
	if err != nil || len(got) != 12 || got[0].Host != "n1" || got[11].Host != "n2" {
		t.Fatalf("merged file: %d rows, %v", len(got), err)
	}
	// Merging onto one of its inputs replaces the file whole (a new file renamed
	// over it, as every output of emu), never truncates it in place: a second
	// name of the old file still reads the old samples.
	old := filepath.Join(dir, "a-old.csv")
	if err := os.Link(a, old); err != nil {
		t.Skip("no hard links here:", err)
	}
	if code, _, errOut := runCLI(t, "calibrate", "merge", a, b, "-o", a); code != exitOK {
		t.Fatalf("merge onto an input: exit %d: %s", code, errOut)
	}
	if kept, err := calibration.ReadSampleFile(old); err != nil || len(kept) != 6 {
		t.Errorf("the old file's other name reads %d samples (%v), want the 6 it had", len(kept), err)
	}
	if merged, err := calibration.ReadSampleFile(a); err != nil || len(merged) != 12 {
		t.Errorf("the merged file reads %d samples (%v), want 12", len(merged), err)
	}
}

func TestCalibrateBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,-4\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "--kernels", "zgemm", "-o", filepath.Join(dir, "x.csv")}, `emu: --kernels: unknown kernel "zgemm"`},
		{[]string{"calibrate", "--samples", "3"}, "emu: --out is required"},
		{[]string{"calibrate", "--backend", "mkl", "-o", filepath.Join(dir, "y.csv")}, `unknown BLAS backend "mkl"`},
		{[]string{"calibrate", "--clock", "sundial", "-o", filepath.Join(dir, "z.csv")}, `emu: --clock: kernels: unknown clock "sundial"`},
		{[]string{"calibrate", "--samples", "0", "-o", filepath.Join(dir, "s.csv")}, "emu: --samples 0: want at least 1 per kernel"},
		{[]string{"calibrate", "--max-dim", "1", "-o", filepath.Join(dir, "m.csv")}, "emu: --max-dim 1: want at least 2"},
		{[]string{"calibrate", "--nb", "64,0", "-o", filepath.Join(dir, "n.csv")}, "emu: --nb 0: want at least 1"},
		{[]string{"calibrate", "--kernels", "dgemm,", "-o", filepath.Join(dir, "k.csv")}, `emu: --kernels: unknown kernel ""`},
		// a kernel listed twice measured its samples twice over (qa57)
		{[]string{"calibrate", "--kernels", "dgemm,dtrsm", "--kernels", "dgemm", "-o", filepath.Join(dir, "k2.csv")}, "emu: --kernels: dgemm given twice: give each kernel once (--samples sets how many calls each gets)"},
		{[]string{"calibrate", "--repeats", "0", "-o", filepath.Join(dir, "r.csv")}, "emu: --repeats 0: want 1 to 10000"},
		// Huge counts: the plan's size overflowed (makeslice panic), a
		// billion workers ran out of memory, a huge --max-dim's operands
		// could not be allocated.
		{[]string{"calibrate", "--samples", "9223372036854775807", "-o", filepath.Join(dir, "h1.csv")}, "emu: --samples 9223372036854775807: want at most 1000000 per kernel"},
		{[]string{"calibrate", "--parallel", "1000000000", "-o", filepath.Join(dir, "h2.csv")}, "emu: --parallel 1000000000: want 1 to 4096"},
		{[]string{"calibrate", "--max-dim", "9223372036854775807", "-o", filepath.Join(dir, "h3.csv")}, "emu: --max-dim 9223372036854775807: want at most 1048576"},
		{[]string{"calibrate", "--repeats", "9223372036854775807", "-o", filepath.Join(dir, "h4.csv")}, "emu: --repeats 9223372036854775807: want 1 to 10000"},
		{[]string{"calibrate", "--clock", "cpu", "--parallel", "2", "-o", filepath.Join(dir, "p.csv")}, "emu: the cpu clock counts every worker's time"},
		{[]string{"calibrate", "--beside", "dgemm", "-o", filepath.Join(dir, "b1.csv")}, "emu: --beside dgemm: needs 2 workers or more"},
		{[]string{"calibrate", "--beside", "dgemm", "--parallel", "2", "--kernels", "dlaswp", "-o", filepath.Join(dir, "b2.csv")}, "emu: timing beside dgemm: the plan has no dgemm call"},
		{[]string{"calibrate", "merge", bad}, bad + ":2: column seconds: negative duration"},
		// A models file keys a host by its name, a CPU as HOST/cpuS: fit could
		// not write such a host's model (it measured, then failed at the end).
		{[]string{"calibrate", "--host", "rack1/n1", "-o", filepath.Join(dir, "sl.csv")}, `emu: --host "rack1/n1": a host name holds no "/"`},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, c.args...)
		if code != exitInput || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	for _, f := range []string{"b1.csv", "b2.csv", "sl.csv", "h1.csv", "h2.csv", "h3.csv", "h4.csv"} { // refused before a row or a probe is written
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written by a refused calibration", f)
		}
	}
}

// TestCalibrateMergeSaysTornRowLeftOut: merge leaves out a sample file's
// torn last row (no newline: an interrupted calibration's) as fit does, and
// says so as fit does, at the row's file:line; the merged file lacks the
// row and the exit status is unchanged. A whole file gets no note.
func TestCalibrateMergeSaysTornRowLeftOut(t *testing.T) {
	dir := t.TempDir()
	rows := []calibration.Sample{
		{Index: 0, Plan: "p", Host: "n1", Kernel: "dscal", N: 5, Seconds: 1e-7},
		{Index: 1, Plan: "p", Host: "n1", Kernel: "dscal", N: 6, Seconds: 2e-7},
		{Index: 0, Plan: "p", Host: "n2", Kernel: "dscal", N: 5, Seconds: 1e-7},
	}
	var b strings.Builder
	if err := calibration.WriteSamples(&b, rows); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.csv")
	torn := filepath.Join(dir, "torn.csv")
	os.WriteFile(whole, []byte(b.String()), 0o644)
	os.WriteFile(torn, []byte(strings.TrimSuffix(b.String(), "\n")), 0o644) // header, rows on lines 2-4
	for _, tc := range []struct {
		name  string
		files []string
		rows  int
		note  string
	}{
		{"whole", []string{whole}, 3, ""},
		{"torn", []string{torn}, 2, "emu: note: " + torn + ":4: a row without its newline (torn by an interrupted write) is left out\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name+"-all.csv")
			code, _, errOut := runCLI(t, append(append([]string{"calibrate", "merge"}, tc.files...), "-o", out)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.Contains(errOut, "torn"); got != (tc.note != "") || !strings.Contains(errOut, tc.note) {
				t.Errorf("stderr %q, want the note %q", errOut, tc.note)
			}
			if got, err := calibration.ReadSampleFile(out); err != nil || len(got) != tc.rows {
				t.Errorf("merged file: %d rows (%v), want %d", len(got), err, tc.rows)
			}
		})
	}
}

// TestCheckCalibrateMemory: one dgemm of 100×200×50 holds A (100·50), B
// (50·200) and C (100·200), 35,000 doubles = 280,000 bytes a worker; two
// workers need 560,000 bytes.
func TestCheckCalibrateMemory(t *testing.T) {
	p := calibration.Plan{Calls: []calibration.Call{{Kernel: "dgemm", M: 100, N: 200, K: 50}}}
	if got := p.WorkerBytes(); got != 280000 {
		t.Fatalf("WorkerBytes = %v, want 280000", got)
	}
	for _, c := range []struct {
		avail uint64
		ok    bool
	}{{560000, true}, {559999, false}, {0, true}} { // 0: unknown, not checked
		err := checkCalibrateMemory(p, 2, c.avail)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "--parallel 2") {
			t.Errorf("%d bytes available: %v, want ok %v", c.avail, err, c.ok)
		}
	}
}

// TestCalibrateMergeOfHeadersAlone: merge of sample files that hold a
// header alone (a calibration that measured nothing) is refused, exit 2,
// no -o written; beside a file with rows it merges those and notes the
// empty one; one file is "1 file". Before, a merge of nothing wrote an
// empty sample file, exit 0 ("0 samples from 1 files"), which emu fit
// then refused.
func TestCalibrateMergeOfHeadersAlone(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	if err := calibration.WriteSamples(&b, []calibration.Sample{{Index: 0, Plan: "p", Host: "n1", Kernel: "dscal", N: 5, Seconds: 1e-7}}); err != nil {
		t.Fatal(err)
	}
	rows, header := filepath.Join(dir, "rows.csv"), filepath.Join(dir, "header.csv")
	os.WriteFile(rows, []byte(b.String()), 0o644)
	os.WriteFile(header, []byte(strings.SplitAfter(b.String(), "\n")[0]), 0o644)

	out := filepath.Join(dir, "none.csv")
	code, _, errOut := runCLI(t, "calibrate", "merge", header, "-o", out)
	if want := header + ": no samples to merge"; code != exitInput || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("merge of a header alone: exit %d, stderr %q; want exit 2 and %q", code, errOut, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("merge of nothing wrote its -o")
	}

	out = filepath.Join(dir, "some.csv")
	code, _, errOut = runCLI(t, "calibrate", "merge", rows, header, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "emu: note: " + header + ": no samples (a header alone), nothing merged from it\n"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	code, _, errOut = runCLI(t, "calibrate", "merge", rows, "-o", filepath.Join(dir, "one.csv"))
	if code != exitOK || !strings.Contains(errOut, "1 samples from 1 file (") {
		t.Errorf("exit %d, stderr %q; want \"from 1 file\"", code, errOut)
	}
}
