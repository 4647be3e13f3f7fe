package validation

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/runner"
)

// realGap is the long broadcast's time over 1ringM's, less one, in the real
// runs of testdata/realhpl/vm-2026-11-27/long_vs_1ringM.csv (xhpl 2.3 and
// hpcc alternated): the medians of both tools' runs of each test, by NB.
func realGap(t *testing.T) map[int]float64 {
	t.Helper()
	times := map[string][]float64{}
	for _, r := range readCSV(t, "testdata/realhpl/vm-2026-11-27/long_vs_1ringM.csv") {
		v, err := strconv.ParseFloat(r["time_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		test := r["variant"] + "/" + r["nb"]
		times[test] = append(times[test], v)
	}
	gap := map[int]float64{}
	for _, nb := range []int{64, 128} {
		one, long := times[fmt.Sprintf("WR11C2R4/%d", nb)], times[fmt.Sprintf("WR14C2R4/%d", nb)]
		if len(one) == 0 || len(long) == 0 {
			t.Fatalf("no real runs at NB = %d", nb)
		}
		slices.Sort(one)
		slices.Sort(long)
		gap[nb] = medianOfSorted(long)/medianOfSorted(one) - 1
	}
	return gap
}

// TestProbeVisibilityOnTheRealTests runs TestPredictsRealHPL's four tests
// (testdata/realhpl: the node, its HPL.dat) with the models of the seven
// attempts of testdata/realhpl/vm-2026-11-27, under SMPI's probe semantics
// and Open MPI's (network.probe_visibility = "progressed"). The long
// broadcast never probes: its times must not move. 1ringM's non-root probes
// between chunks of its update and sees the panel one probe later, so the
// root's blocking send waits longer: its times must grow. At NB = 128 the
// real long runs are 2-3% faster than the 1ringM ones where SMPI's semantics
// put them 6% slower; with ob1's, emu's gap must come closer to the real one
// in every attempt (+6.0…+7.8% → +0.3…+3.1%, real −3.0%). At NB = 64 it
// moves the gap away (+3.6…+4.2% → +0.5…+1.7%, real +4.5%): the log states
// it, nothing asserts it.
func TestProbeVisibilityOnTheRealTests(t *testing.T) {
	gap := realGap(t)
	t.Logf("real long/1ringM − 1: NB 64 %+.1f%%, NB 128 %+.1f%%", 100*gap[64], 100*gap[128])
	realMedian := attemptMedians(t)
	var errs [2][]float64 // posted, progressed: signed errors against the attempts' real medians
	models, err := filepath.Glob("testdata/realhpl/vm-2026-11-27/models/*.toml")
	if err != nil || len(models) == 0 {
		t.Fatalf("no models: %v", err)
	}
	for _, m := range models {
		abs, _ := filepath.Abs(m)
		times := map[string]map[string]float64{}
		for _, vis := range []string{"posted", "progressed"} {
			plan := modelNodePlan(t, "testdata/realhpl/node.toml", "testdata/realhpl/hpccinf.txt", abs, "network.probe_visibility="+vis)
			res, err := runner.Run(plan, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			times[vis] = map[string]float64{}
			for _, r := range res.HPL {
				times[vis][fmt.Sprintf("%s/%d", r.Variant, r.NB)] = r.Time // the HPL.dat's three repeats predict alike
			}
		}
		name := filepath.Base(m)
		posted, progressed := times["posted"], times["progressed"]
		attempt := strings.TrimSuffix(name, ".toml")
		for test, med := range realMedian[attempt] {
			errs[0] = append(errs[0], posted[test]/med-1)
			errs[1] = append(errs[1], progressed[test]/med-1)
		}
		for _, nb := range []int{64, 128} {
			one, long := fmt.Sprintf("WR11C2R4/%d", nb), fmt.Sprintf("WR14C2R4/%d", nb)
			if math.Abs(progressed[long]/posted[long]-1) > 1e-9 {
				t.Errorf("%s: the long broadcast moved with the probes' semantics: %.6f → %.6f s", name, posted[long], progressed[long])
			}
			if !(progressed[one] > posted[one]) {
				t.Errorf("%s: 1ringM NB = %d did not wait longer: %.6f → %.6f s", name, nb, posted[one], progressed[one])
			}
			gPosted, gProgressed := posted[long]/posted[one]-1, progressed[long]/progressed[one]-1
			t.Logf("%s NB %d: 1ringM %.4f → %.4f s (%+.1f%%), long/1ringM − 1 %+.1f%% → %+.1f%% (real %+.1f%%)", name, nb,
				posted[one], progressed[one], 100*(progressed[one]/posted[one]-1), 100*gPosted, 100*gProgressed, 100*gap[nb])
			if nb == 128 && !(math.Abs(gProgressed-gap[nb]) < math.Abs(gPosted-gap[nb])) {
				t.Errorf("%s NB 128: ob1's probes put long/1ringM − 1 at %+.1f%%, no closer to the real %+.1f%% than SMPI's %+.1f%%", name, 100*gProgressed, 100*gap[nb], 100*gPosted)
			}
		}
	}
	if len(errs[0]) != 4*len(models) {
		t.Fatalf("%d comparisons with attempts.csv, want %d", len(errs[0]), 4*len(models))
	}
	for i, vis := range []string{"posted", "progressed"} {
		var sum, abs float64
		for _, e := range errs[i] {
			sum, abs = sum+e, abs+math.Abs(e)
		}
		n := float64(len(errs[i]))
		t.Logf("%s: against the attempts' real medians, mean error %+.1f%%, mean |error| %.1f%%", vis, 100*sum/n, 100*abs/n)
	}
}

// attemptMedians reads the real median of each test of each attempt in
// testdata/realhpl/vm-2026-11-27/attempts.csv: attempt → "variant/nb" → s.
func attemptMedians(t *testing.T) map[string]map[string]float64 {
	t.Helper()
	out := map[string]map[string]float64{}
	for _, r := range readCSV(t, "testdata/realhpl/vm-2026-11-27/attempts.csv") {
		if r["fit_on"] != "all3" {
			continue
		}
		v, err := strconv.ParseFloat(r["real_median_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		if out[r["attempt"]] == nil {
			out[r["attempt"]] = map[string]float64{}
		}
		out[r["attempt"]][r["variant"]+"/"+r["nb"]] = v
	}
	return out
}

// medianOfSorted is the median of sorted x: the middle value, or the mean of
// the middle two.
func medianOfSorted(x []float64) float64 {
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// readCSV reads a CSV file of testdata: a row per line after the header,
// each a map from the header's column names to its fields.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	rows := scenariotest.CSVRows(t, path)
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", path)
	}
	return rows
}
