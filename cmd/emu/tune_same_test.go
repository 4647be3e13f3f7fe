package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTuneRunsOneConfigurationOnce: a value that names the configuration an
// earlier value of its axis names (HPL.dat's digit for a name, a unit for
// another) is dropped with a note, so the point runs once; values that
// differ all run. qa46 found bcast=long,4 run twice under two labels.
func TestTuneRunsOneConfigurationOnce(t *testing.T) {
	tests := []struct {
		sweep string
		rows  []string // the point labels the table ranks, in any order
		notes []string // "kept and dropped" pairs the notes name
	}{
		{"hpl.bcast=long,4", []string{"bcast=long"}, []string{"long and 4"}},
		{"bcast=1ring,0,longM,5", []string{"bcast=1ring", "bcast=longM"}, []string{"1ring and 0", "longM and 5"}},
		{"pfact=crout,1,left", []string{"pfact=crout", "pfact=left"}, []string{"crout and 1"}},
		{"rfact=2,right", []string{"rfact=2"}, []string{"2 and right"}},
		{"swap=mix,2,binary-exchange", []string{"swap=mix", "swap=binary-exchange"}, []string{"mix and 2"}},
		{"l1=transposed,0,no-transposed", []string{"l1=transposed", "l1=no-transposed"}, []string{"transposed and 0"}},
		{"pmap=column,1", []string{"pmap=column"}, []string{"column and 1"}},
		{"latency=1us,1000ns,1e-6,2us", []string{"link_latency=1us", "link_latency=2us"}, []string{"1us and 1000ns", "1us and 1e-6"}},
		{"nb=16,32", []string{"nb=16", "nb=32"}, nil},
		// A seed changes nothing where its spread is 0 but does where it is
		// not: values are one configuration only at every value of the other
		// axes (the first version compared them at the others' first values
		// and ran seed 2 never).
		{"kernels.host_spread_seed=1,2 --sweep kernels.host_spread=0,5%,0.05", []string{"host_spread_seed=1 host_spread=0", "host_spread_seed=1 host_spread=5%", "host_spread_seed=2 host_spread=0", "host_spread_seed=2 host_spread=5%"}, []string{"5% and 0.05"}},
		{"bcast=1ring,1ringM,2ring,2ringM,long,longM", []string{"bcast=1ring", "bcast=1ringM", "bcast=2ring", "bcast=2ringM", "bcast=long", "bcast=longM"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.sweep, func(t *testing.T) {
			args := []string{"tune", "--quiet", "--jobs", "1", "--out", filepath.Join(t.TempDir(), "s"), "--set", "hpl.n=200", "--set", "hpl.grids=[[2, 2]]"}
			for _, sw := range strings.Split(tc.sweep, " --sweep ") {
				args = append(args, "--sweep", sw)
			}
			_, out, errOut := runCLIOK(t, args...)
			var rows []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
				f := strings.Fields(line)
				rows = append(rows, strings.Join(f[5:], " "))
			}
			if !sameSet(rows, tc.rows) {
				t.Errorf("ranked %q, want %q\n%s", rows, tc.rows, out)
			}
			if n := strings.Count(errOut, "one configuration"); n != len(tc.notes) {
				t.Errorf("%d notes, want %d: %s", n, len(tc.notes), errOut)
			}
			for _, n := range tc.notes {
				if !strings.Contains(errOut, n+" are one configuration") || !strings.Contains(errOut, `--sweep "`) {
					t.Errorf("no note %q naming the --sweep in %s", n, errOut)
				}
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestTuneSameConfigsBounded: past maxSamePlans plans the axes are not
// compared (every value runs, as before the comparison), so that a large
// sweep run with a small --budget does not build a plan per point first.
func TestTuneSameConfigsBounded(t *testing.T) {
	values := (maxSamePlans / 2) + 1 // with 2 broadcasts: just past the bound
	_, _, errOut := runCLIOK(t, "tune", "--quiet", "--jobs", "1", "--out", filepath.Join(t.TempDir(), "s"), "--budget", "1",
		"--set", "hpl.nb=16", "--sweep", fmt.Sprintf("hpl.n=100..%d", 100+values-1), "--sweep", "bcast=long,4")
	if strings.Contains(errOut, "one configuration") {
		t.Errorf("%d values by 2 broadcasts compared: %s", values, errOut)
	}
}

// TestTuneLatencyAliasWhereTheNetworkKeyIsSet: the short names latency and
// bandwidth sweep network.link_*, which wins over platform.link_* wherever
// both are given. They swept platform.link_latency, so on a scenario setting
// network.link_latency (as the README teaches) every point was one
// configuration: the same Time under each label.
func TestTuneLatencyAliasWhereTheNetworkKeyIsSet(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "net.toml")
	if err := os.WriteFile(scenario, []byte(`app = "hpl"
[platform]
topology = "flat"
hosts = 4
link_bandwidth = "10GBps"
link_latency = "1us"
[network]
link_latency = "2us"
link_bandwidth = "10GBps"
[hpl]
n = 400
nb = 32
grids = [[2, 2]]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sweep := range []string{"latency=1us,50us", "bandwidth=1GBps,10GBps"} {
		t.Run(sweep, func(t *testing.T) {
			_, out, errOut := runCLIOK(t, "tune", scenario, "--quiet", "--jobs", "1", "--out", filepath.Join(t.TempDir(), "s"), "--sweep", sweep)
			if strings.Contains(errOut, "one configuration") {
				t.Errorf("the two values were taken as one configuration: %s", errOut)
			}
			times := map[string]bool{}
			lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
			for _, line := range lines {
				times[strings.Fields(line)[2]] = true
			}
			if len(lines) != 2 || len(times) != 2 {
				t.Errorf("want two points with two Times:\n%s", out)
			}
		})
	}
}
