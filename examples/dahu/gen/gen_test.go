package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/emu-hpc/emu/internal/golden"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/scenario"
)

// TestGenerated: the committed dahu.toml and models files are what gen writes
// from data/ (go test ./examples/dahu/gen -update rewrites them).
func TestGenerated(t *testing.T) {
	files, err := generate(os.DirFS("../data"), "../data")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 {
		t.Errorf("%d files, want dahu.toml and 4 models files", len(files))
	}
	for name, b := range files {
		golden.Check(t, filepath.Join("..", name), b)
	}
}

// TestModelsAgainstTheREADME checks the generated models against the values
// the data's README states in words, and the rules it gives.
func TestModelsAgainstTheREADME(t *testing.T) {
	files, err := generate(os.DirFS("../data"), "../data")
	if err != nil {
		t.Fatal(err)
	}
	set := func(name string) *models.Set {
		s, err := models.ParseSet(files[name], name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	v := models.Vars{M: 1000, N: 900, K: 128, W: 1000 * 900 * 128}
	// "hom_linear: mu = 1e-6 + 6.484604e-11·MNK", on every host and CPU.
	a := set("a.toml")
	want := 1e-6 + 6.484604e-11*1000*900*128
	for _, h := range []string{"dahu-0", "dahu-13"} {
		if got := a.ForCPU("dgemm", h, 1).Mean(v); math.Abs(got-want) > 1e-12*want {
			t.Errorf("a.toml dgemm on %s: %g, want %g", h, got, want)
		}
	}
	// Nodes 13–16 ran about 10% slower (a cooling fault): the per-CPU
	// coefficients show it in c and d, against node 1.
	for _, f := range []string{"c.toml", "d.toml"} {
		s := set(f)
		fast := s.ForCPU("dgemm", "dahu-1", 0).Mean(v)
		for _, h := range []string{"dahu-13", "dahu-14", "dahu-15", "dahu-16"} {
			if r := s.ForCPU("dgemm", h, 0).Mean(v) / fast; r < 1.05 {
				t.Errorf("%s: %s's dgemm only %.3f× node 1's", f, h, r)
			}
		}
		if s.ForCPU("dgemm", "dahu-0", 0) != s.For("dgemm", "") {
			t.Errorf("%s: host dahu-0 (SMPI's shifted mapping) must take the default row", f)
		}
	}
	// Deterministic lines draw their mean; e draws around it and never below 0.
	d, e := set("d.toml"), set("e.toml")
	for _, k := range []string{"dgemm", "dtrsm", "dlaswp02N", "daxpy"} {
		if d.ForCPU(k, "dahu-3", 1).Mean(v) != e.ForCPU(k, "dahu-3", 1).Mean(v) {
			t.Errorf("%s: d and e have different means", k)
		}
		if sp, _ := e.Spec(k); sp.Noise != models.NoiseHalfNormal {
			t.Errorf("e.toml %s: noise %q, want halfnormal", k, sp.Noise)
		}
		if sp, _ := d.Spec(k); sp.Noise != "" {
			t.Errorf("d.toml %s: noise %q, want none", k, sp.Noise)
		}
	}
	// other_kernel_models.csv: dtrsm c = 5.445540e-11 ± 3.093410e-12 per M·M·N
	// (left): the duration's σ is size·coef_sd.
	sp, _ := e.Spec("dtrsm")
	if sp.SigmaCoef[0] != 3.093410e-12 || sp.Coef[0] != 5.445540e-11 || sp.SigmaTerms[0] != "m*n*k" {
		t.Errorf("e.toml dtrsm: %+v", sp)
	}
	for _, k := range []string{"dger", "dswap", "dcopy"} {
		if e.For(k, "") != nil {
			t.Errorf("%s has a model; SMPI's runs charged it nothing", k)
		}
	}
}

// TestScenarioNetwork: dahu.toml as emu reads it carries network_model.csv's
// values (the 8133–15831 B piece of smpi/os, the factors at 100 kB).
func TestScenarioNetwork(t *testing.T) {
	s, err := scenario.Load("../dahu.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	n := p.Network
	if got, want := n.SendOverhead.Value(10000, 0), 4.117386759387727e-06+9.998650637323814e-11*10000; got != want {
		t.Errorf("os(10000) = %g, want %g", got, want)
	}
	if got := n.BwFactor.Value(100000, 1); got != 0.9867951082730274 {
		t.Errorf("bw factor(100 kB) = %g", got)
	}
	if n.EagerThreshold != 64000 || n.AsyncThreshold != 64000 || n.IprobeCost != 2.115437983643232e-07 {
		t.Errorf("thresholds %d, %d, iprobe %g", n.EagerThreshold, n.AsyncThreshold, n.IprobeCost)
	}
	pl := p.Platform
	if pl.Hosts != 32 || pl.CoresPerHost != 32 || pl.HostName(0) != "dahu-1" || pl.HostName(31) != "dahu-32" ||
		pl.SocketsPerHost != 2 || pl.SocketOrder != platform.SocketsCyclic || pl.LinkBandwidth != 12.5e9 || math.Abs(pl.LinkLatency-5e-8) > 1e-20 {
		t.Errorf("platform %+v", pl)
	}
	if len(p.Notes) != 0 {
		t.Errorf("the real mapping uses every per-CPU model, but: %q", p.Notes)
	}
	// SMPI's mapping leaves node 32's two CPUs unused and host 0's two CPUs on
	// the default row (the README of data/), and says both.
	if err := s.Set("platform.radical=0-31"); err != nil {
		t.Fatal(err)
	}
	if p, err = s.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 2 || !strings.Contains(p.Notes[0], "unused: dahu-32/cpu0, dahu-32/cpu1") ||
		!strings.Contains(p.Notes[1], "take the platform-wide model: dahu-0/cpu0, dahu-0/cpu1") {
		t.Errorf("notes %q", p.Notes)
	}
}

// TestBadCSV: what gen refuses, named by file, line and column.
func TestBadCSV(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("../data", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	good := fstest.MapFS{}
	for _, f := range []string{"dgemm_models.csv", "other_kernel_models.csv", "network_model.csv"} {
		good[f] = &fstest.MapFile{Data: []byte(read(f))}
	}
	with := func(file, old, new string) fstest.MapFS {
		fs := fstest.MapFS{}
		for k, v := range good {
			fs[k] = v
		}
		fs[file] = &fstest.MapFile{Data: []byte(strings.Replace(read(file), old, new, 1))}
		return fs
	}
	// without drops the line of file that holds part.
	without := func(file, part string) fstest.MapFS {
		fs := with(file, "", "")
		var kept []string
		for _, l := range strings.SplitAfter(read(file), "\n") {
			if !strings.Contains(l, part) {
				kept = append(kept, l)
			}
		}
		fs[file] = &fstest.MapFile{Data: []byte(strings.Join(kept, ""))}
		return fs
	}
	for _, c := range []struct {
		name string
		fs   fstest.MapFS
		want string
	}{
		// A CPU missing from a per-CPU model would take the default row unseen.
		{"CPU missing", without("dgemm_models.csv", "C1_het;C2_het;D1_het;D2_het;simple,d;e;f,12d05513fab6709625f903a5ea3913ded1b48527,6,dahu-3,0,"),
			"d/dgemm_models.csv: model_id het_poly: no row for dahu-3 CPU 0 (cpu_id 6)"},
		// A kernel's cost per unit of size, and its spread, are never negative.
		{"negative mean", with("other_kernel_models.csv", "1.278804e-09", "-1.278804e-09"), "d/other_kernel_models.csv:3: coef_mean: -1.278804e-09 is negative"},
		{"negative sd", with("other_kernel_models.csv", "1.645759e-11", "-1.645759e-11"), "d/other_kernel_models.csv:3: coef_sd: -1.645759e-11 is negative"},
		{"cpu_id against node", with("dgemm_models.csv", ",2,dahu-1,0,", ",3,dahu-1,0,"), "d/dgemm_models.csv:4: cpu_id: 3, but node 1 CPU 0 is CPU 2"},
		{"unknown kernel", with("other_kernel_models.csv", "dgemv,M*N", "dgemx,M*N"), "d/other_kernel_models.csv:3: kernel: \"dgemx\""},
		{"size changed", with("other_kernel_models.csv", "dgemv,M*N", "dgemv,M*K"), "d/other_kernel_models.csv:3: size_expression: \"M*K\" for dgemv"},
		{"not a number", with("other_kernel_models.csv", "1.278804e-09", "fast"), "d/other_kernel_models.csv:3: coef_mean: \"fast\" is not a finite number"},
		{"missing column", with("dgemm_models.csv", "mu_mnk", "mu_mnq"), "d/dgemm_models.csv:1: no column \"mu_mnk\""},
		// A negative overhead, factor or cost is refused at its CSV line, not by emu at dahu.toml's.
		{"negative overhead", with("network_model.csv", "smpi/os,0,8133,2.965491847282898e-07", "smpi/os,0,8133,-2.965491847282898e-07"), "d/network_model.csv:2: intercept_s: -2.965491847282898e-07 is negative"},
		{"negative factor", with("network_model.csv", ",0.4955575510466301,", ",-0.4955575510466301,"), "d/network_model.csv:17: factor: -0.4955575510466301 is negative"},
		{"negative iprobe", with("network_model.csv", ",2.115437983643232e-07,", ",-2.115437983643232e-07,"), "d/network_model.csv:29: value: -2.115437983643232e-07 is negative"},
		{"gap in a table", with("network_model.csv", "smpi/os,8133,15831", "smpi/os,8200,15831"), "d/network_model.csv:3: size_min_bytes"},
	} {
		_, err := generate(c.fs, "d")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s...", c.name, err, c.want)
		}
	}
}

// TestHPLDat: HPL.dat holds Figure 10's 14 sizes with the scenario's HPL
// parameters (the same variant, WR12R2C4, as dahu.toml's [hpl]).
func TestHPLDat(t *testing.T) {
	s, err := scenario.Load("../dahu.toml")
	if err != nil {
		t.Fatal(err)
	}
	base, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UseHPLDat("../HPL.dat"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	want := []int{50000, 75000, 100000, 125000, 150000, 175000, 200000, 225000, 250000, 300000, 350000, 400000, 450000, 500000}
	if len(p.HPL) != len(want) {
		t.Fatalf("%d tests, want %d", len(p.HPL), len(want))
	}
	for i, h := range p.HPL {
		b := base.HPL[0]
		b.N = want[i]
		if h != b {
			t.Errorf("test %d: %+v\nwant %+v", i, h, b)
		}
	}
}
