package hpl

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/kernels"
)

// TestScaleFromEnv runs one peer-sized model-mode configuration when
// EMU_HPL_SCALE="P Q N [K [NB]]" is set (for README measurements), with
// EMU_HPL_PIVOT (rule), EMU_HPL_IPROBE (s, default 1e-6), EMU_HPL_BCAST and
// EMU_HPL_DEPTH (HPL.dat codes), EMU_HPL_NET (cm02 | smpi), EMU_HPL_TOPO (flat | fattree);
// skipped otherwise.
func TestScaleFromEnv(t *testing.T) {
	spec := os.Getenv("EMU_HPL_SCALE")
	if spec == "" {
		t.Skip("set EMU_HPL_SCALE=\"P Q N [K]\"")
	}
	var v []int
	for _, f := range splitFields(spec) {
		x, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		v = append(v, x)
	}
	nb := 128
	if len(v) > 4 {
		nb = v[4]
	}
	bc, depth := OneRingM, 1
	if s := os.Getenv("EMU_HPL_BCAST"); s != "" {
		x, _ := strconv.Atoi(s)
		bc = BCastFromCode(x)
	}
	if s := os.Getenv("EMU_HPL_DEPTH"); s != "" {
		depth, _ = strconv.Atoi(s)
	}
	p := peerParams(v[0], v[1], v[2], bc, depth)
	p.NB = nb
	opt := Options{}
	if r := os.Getenv("EMU_HPL_PIVOT"); r != "" {
		rule, err := ParsePivotRule(r)
		if err != nil {
			t.Fatal(err)
		}
		opt.Pivot = rule
	}
	iprobe := 1e-6
	if s := os.Getenv("EMU_HPL_IPROBE"); s != "" {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		iprobe = x
	}
	if len(v) > 3 {
		opt.MaxIterations = v[3]
	}
	var topo fluid.Topology
	var err error
	if os.Getenv("EMU_HPL_TOPO") == "fattree" { // the peer's "2;8,32;1,4;1,1"
		topo, err = fluid.NewFatTree(fluid.FatTreeConfig{Levels: 2, Down: []int{8, 32}, Up: []int{1, 4}, Parallel: []int{1, 1}, Link: peerLink})
	} else {
		topo, err = fluid.NewFlat(fluid.FlatConfig{Hosts: p.P * p.Q, Link: peerLink})
	}
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	net := "cm02"
	if s := os.Getenv("EMU_HPL_NET"); s != "" {
		net = s
	}
	res := runHPLOn(t, worldNet(t, net, topo, p.P*p.Q, iprobe), p, kernels.Model, opt)
	t.Logf("%dx%d N=%d NB=%d K=%d: HPL time %.6f s (extrapolated %v, emulated %.6f s over %d panels), %.1f Gflops, wall %v",
		p.P, p.Q, p.N, p.NB, opt.MaxIterations, res.Time, res.Extrapolated, res.EmulatedTime, res.Panels, res.Gflops, time.Since(t0))
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s + " " {
		if r == ' ' || r == ',' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	return out
}
