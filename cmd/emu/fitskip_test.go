package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kernel that cannot be fitted (here 2 daxpy samples, fewer than a fit needs)
// is skipped with a warning; the others are fitted and written. Only when no
// kernel can be fitted does fit fail.
func TestFitSkipsKernelsItCannotFit(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "s.csv")
	// dgemm: T = 1e-9·m·n·k exactly (m = 10, 20, ... 50)
	rows := "kernel,host,m,n,k,seconds\n" +
		"dgemm,a,10,10,10,1e-6\ndgemm,a,20,10,10,2e-6\ndgemm,a,30,10,10,3e-6\ndgemm,a,40,10,10,4e-6\ndgemm,a,50,10,10,5e-6\n" +
		"daxpy,a,0,100,0,1e-7\ndaxpy,a,0,200,0,2e-7\n"
	if err := os.WriteFile(csv, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.toml")
	code, _, stderr := runCLI(t, "fit", csv, "--family", "M1-N0", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "emu: kernel daxpy: 2 samples, need at least 3 (skipped)\n") {
		t.Errorf("stderr %q: want a warning naming daxpy", stderr)
	}
	m := string(mustRead(t, out))
	if !strings.Contains(m, "[kernels.dgemm]") || strings.Contains(m, "daxpy") {
		t.Errorf("models:\n%s\nwant dgemm and no daxpy", m)
	}
	only := filepath.Join(dir, "daxpy.csv")
	if err := os.WriteFile(only, []byte("kernel,host,m,n,k,seconds\ndaxpy,a,0,100,0,1e-7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "fit", only); code != exitInput || !strings.Contains(stderr, "need at least 3") {
		t.Errorf("only unfittable kernels: exit %d, stderr %q", code, stderr)
	}
}

// -o and --plot are checked before fitting; -o is written whole or not at all.
func TestFitRefusesUnwritableOutputs(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "fit", "../../calibration/testdata/does-not-matter.csv", "-o", dir)
	if want := "emu: -o " + dir + ": is a folder"; code != exitInput || !strings.HasPrefix(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q, want %q...", code, stdout, stderr, want)
	}
}
