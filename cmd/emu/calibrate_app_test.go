package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
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

func TestExplainComparesModelAndTimed(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "ex.json")
	code, out, errOut := runCLI(t, "explain", "--set", "hpl.n=256", "--set", "hpl.nb=32", "--json", js)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"dgemm", "all kernels", "application time", "model error"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var ex explanation
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatal(err)
	}
	var dgemm *kernelError
	for i := range ex.Rows {
		if ex.Rows[i].Kernel == "dgemm" {
			dgemm = &ex.Rows[i]
		}
	}
	// The default's dgemm model charges 1.029e-11 s per multiply-add plus
	// 1.981e-12 s per call; timed mode measures real calls, so both are > 0
	// and the error is what the two say.
	if dgemm == nil || dgemm.Calls == 0 || dgemm.ModelS <= 0 || dgemm.TimedS <= 0 {
		t.Fatalf("dgemm row %+v", dgemm)
	}
	if want := pctError(dgemm.ModelS, dgemm.TimedS); dgemm.ErrorPct != want {
		t.Errorf("dgemm error %g%%, want %g%%", dgemm.ErrorPct, want)
	}
}
