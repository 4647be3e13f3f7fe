package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTuneRanksOnEnsembleMeans: `emu tune --seeds 3` on the noisy default
// ranks each point on the mean Gflops of its three seeds, which the runs
// alone give (`emu run --set hpl.nb=NB --set seed=S`, S = 1..3); each point
// carries its band and runs; the table shows the band column; a rerun with
// another --seeds is another sweep's folder, not mixed with this one.
func TestTuneRanksOnEnsembleMeans(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	js := filepath.Join(t.TempDir(), "ranked.json")
	args := withSets([]string{"tune", "-q", "--out", dir, "--sweep", "nb=32,64", "--seeds", "3", "--json", js}, noisySets...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "band (p05–p95)") {
		t.Errorf("no band column:\n%s", out)
	}
	var ranked []struct {
		Overrides []struct{ Key, Value string } `json:"overrides"`
		Gflops    float64                       `json:"gflops"`
		Ensemble  struct {
			Runs   int `json:"runs"`
			Gflops struct{ Mean, Min, Max float64 }
		} `json:"ensemble"`
	}
	if err := json.Unmarshal(mustRead(t, js), &ranked); err != nil {
		t.Fatal(err)
	}
	if len(ranked) != 2 || !(ranked[0].Gflops >= ranked[1].Gflops) {
		t.Fatalf("ranked %+v", ranked)
	}
	for _, r := range ranked {
		var gf []float64
		for s := 1; s <= 3; s++ {
			_, _, doc := runJSON(t, withSets([]string{"run", "-q"}, append(slices.Clone(noisySets), "hpl.nb="+r.Overrides[0].Value, "seed="+strconv.Itoa(s))...)...)
			_, g := hplFigures(t, doc)
			gf = append(gf, g[0])
		}
		mean := (gf[0] + gf[1] + gf[2]) / 3
		if math.Abs(r.Gflops-mean) > 1e-12*mean || r.Ensemble.Gflops.Mean != r.Gflops || r.Ensemble.Runs != 3 ||
			r.Ensemble.Gflops.Min != slices.Min(gf) || r.Ensemble.Gflops.Max != slices.Max(gf) {
			t.Errorf("nb=%s: tune %+v; the runs alone %v (mean %.17g)", r.Overrides[0].Value, r, gf, mean)
		}
	}
	code, _, errOut = runCLI(t, withSets([]string{"tune", "-q", "--out", dir, "--sweep", "nb=32,64", "--seeds", "4"}, noisySets...)...)
	if code != exitInput || !strings.Contains(errOut, "other inputs") {
		t.Errorf("--seeds 4 in --seeds 3's folder: exit %d, %q", code, errOut)
	}
}

func TestTuneEnsembleFlagsAreChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "0"}, "--seeds 0"},
		{[]string{"--perturb", "-1"}, "--perturb -1"},
		{[]string{"--seeds", "2", "--slurm"}, "run locally only"},
	} {
		code, _, errOut := runCLI(t, append([]string{"tune", "-q", "--sweep", "nb=32,64", "--out", t.TempDir()}, c.args...)...)
		if code != exitInput || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want 2 and one line with %q", c.args, code, errOut, c.want)
		}
	}
	// tune's own --jobs (points at once) is not the ensemble's.
	if code, _, errOut := runCLI(t, "tune", "-q", "--sweep", "nb=32", "--jobs", "1", "--out", t.TempDir()); code != exitOK {
		t.Errorf("tune --jobs 1 without an ensemble: exit %d, %q", code, errOut)
	}
}
