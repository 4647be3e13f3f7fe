package validation

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/stats"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// Seed 003's Figure 10 (issue 32): examples/dahu/dahu.toml with its models
// files a, c, d, e against SMPI's predictions (examples/dahu/data/simulated.csv,
// a copy of shared/peers/dahu). Every comparison made is a row of
// testdata/dahu_smpi.csv, written by hand from `emu run` as its columns say:
//
//	emu run examples/dahu/dahu.toml --set kernels.models=MODELS --set platform.radical=0-31 \
//	    --set hpl.n=N --set seed=SEED --json out.json
//
// (radical 0-31 is SMPI's host naming: its host 0 drew the default dgemm row).
// The mapping column lists the settings a row was run with beyond dahu.toml's,
// separated by ";": radical=0-31 (platform.radical), charge_empty=true
// (kernels.charge_empty: empty kernel calls charged as SMPI's fork did; the
// rows marked false were run before emu could), and copy_l=false (hpl.copy_l)
// for rows recorded before dahu.toml charged the fork's copy of L at each
// broadcast. The emu column names the commit of the binary that made the row,
// or "<3d1f924" for rows made before a negative σ(v) of a half-normal noise
// drew the mirrored half-normal as SMPI's fork does (emu drew no noise there:
// dahu-15 cpu1's dgemm with n ≤ 4); only line e's draws depend on it, and
// docs/evidence/noise.md measures no effect beyond reordering at N = 50,000.
// TestDahuRecorded checks the file against SMPI's CSV; TestDahuReproduced runs
// its deterministic rows again (N = 50,000 with -emu.slow, larger ones with
// EMU_LONG=1 as well: minutes to hours each).
const (
	dahuRecord    = "testdata/dahu_smpi.csv"
	dahuSimulated = "../examples/dahu/data/simulated.csv"
	dahuScenario  = "../examples/dahu/dahu.toml"
)

// dahuTolerance is issue 32's goal for the deterministic lines a, c and d.
const dahuTolerance = 0.02

// dahuLines are Figure 10's lines as SMPI's simulated.csv codes them.
var dahuLines = map[string]string{"a": "A1", "c": "A1_het", "d": "C1_het", "e": "D1_het"}

// smpiFig10 reads SMPI's Figure 10 predictions: time_s by model code and N.
func smpiFig10(t *testing.T) map[string]map[int]map[string]string {
	out := map[string]map[int]map[string]string{}
	for _, r := range readCSV(t, dahuSimulated) {
		if r["dataset"] != "matrix_size_fig10_models" {
			continue
		}
		n, err := strconv.Atoi(r["N"])
		if err != nil {
			t.Fatalf("%s: N %q", dahuSimulated, r["N"])
		}
		if out[r["model_code"]] == nil {
			out[r["model_code"]] = map[int]map[string]string{}
		}
		out[r["model_code"]][n] = r
	}
	return out
}

// dahuPlan is dahu.toml with the sets applied, validated.
func dahuPlan(t *testing.T, sets ...string) *scenario.Plan {
	t.Helper()
	return plantest.Load(t, dahuScenario, sets...)
}

// dahuTime runs dahu.toml with the sets applied and returns HPL's Time.
func dahuTime(t *testing.T, sets ...string) float64 {
	t.Helper()
	res, err := runner.Run(dahuPlan(t, sets...), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.HPL[0].Time
}

// dahuRow is one recorded comparison.
type dahuRow struct {
	line, models    string
	sets            []string // the mapping column as --set assignments
	n               int
	seed            int
	emu, smpi, errP float64
	sigmaClamped    bool // made before 3d1f924 (see the record's emu column)
}

// mappingKeys are the settings the record's mapping column may name, and
// the scenario keys they set.
var mappingKeys = map[string]string{"radical": "platform.radical", "charge_empty": "kernels.charge_empty", "copy_l": "hpl.copy_l"}

// mappingSets reads a mapping cell ("radical=0-31;charge_empty=false") as
// --set assignments.
func mappingSets(cell string) ([]string, error) {
	var out []string
	for _, kv := range strings.Split(cell, ";") {
		k, v, ok := strings.Cut(kv, "=")
		key, known := mappingKeys[k]
		if !ok || !known {
			return nil, fmt.Errorf("mapping %q: %q is not radical=…, charge_empty=… or copy_l=…", cell, kv)
		}
		out = append(out, key+"="+v)
	}
	return out, nil
}

func readDahuRecord(t *testing.T) []dahuRow {
	var out []dahuRow
	num := func(r map[string]string, col string) float64 {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatalf("%s: %s %q: %v", dahuRecord, col, r[col], err)
		}
		return v
	}
	for _, r := range readCSV(t, dahuRecord) {
		sets, err := mappingSets(r["mapping"])
		if err != nil {
			t.Fatalf("%s: %v", dahuRecord, err)
		}
		out = append(out, dahuRow{line: r["line"], models: r["models"], sets: sets, n: int(num(r, "n")), seed: int(num(r, "seed")),
			emu: num(r, "emu_time_s"), smpi: num(r, "smpi_time_s"), errP: num(r, "err_pct"), sigmaClamped: r["emu"] == "<3d1f924"})
	}
	return out
}

// TestDahuRecorded: every recorded row quotes SMPI's CSV exactly and its error
// right; the deterministic lines are within 2% of SMPI; with the current
// settings (SMPI's: currentSMPISettings) a, c and d are recorded at every N of
// SMPI's Figure 10 and line e with at least 3 seeds; and SMPI's one draw of
// line e lies, at all sizes but one at most, where emu's seeds say one more
// run falls 9 times in 10 (stats.Summary.Next: with 3 seeds their min–max
// holds a draw of the same distribution only half the time, so that range is
// logged, not held to).
func TestDahuRecorded(t *testing.T) {
	smpi := smpiFig10(t)
	rows := readDahuRecord(t)
	have := map[string]bool{}
	type draws struct {
		times []float64
		smpi  float64
	}
	type ensKey struct {
		n       int
		mapping string
		clamped bool // drawn before 3d1f924
	}
	ens := map[ensKey]*draws{} // line e's seeds run alike
	type drawKey struct {
		ens  ensKey
		seed int
		time float64
	}
	drawn := map[drawKey]bool{} // a seed redrawn at a later commit to the same bits is the same draw
	for _, r := range rows {
		code, ok := dahuLines[r.line]
		if !ok {
			t.Errorf("line %q: not one of a, c, d, e", r.line)
			continue
		}
		ref, ok := smpi[code][r.n]
		if !ok {
			t.Errorf("%s N=%d: no SMPI row", code, r.n)
			continue
		}
		want, _ := strconv.ParseFloat(ref["time_s"], 64)
		if r.smpi != want {
			t.Errorf("%s N=%d: recorded SMPI time %g, simulated.csv says %g", code, r.n, r.smpi, want)
		}
		e := 100 * (r.emu - want) / want
		if math.Abs(e-r.errP) > 0.005 {
			t.Errorf("%s N=%d: recorded error %.3f%%, the times give %.3f%%", code, r.n, r.errP, e)
		}
		if r.models != r.line+".toml" {
			t.Errorf("%s N=%d: models %q for line %s", code, r.n, r.models, r.line)
		}
		if r.line == "e" {
			key := ensKey{r.n, strings.Join(r.sets, " "), r.sigmaClamped}
			if ens[key] == nil {
				ens[key] = &draws{smpi: want}
			}
			if d := (drawKey{key, r.seed, r.emu}); !drawn[d] {
				drawn[d] = true
				ens[key].times = append(ens[key].times, r.emu)
			}
			continue
		}
		if strings.Join(r.sets, " ") == currentSMPISettings {
			have[fmt.Sprintf("%s %d", r.line, r.n)] = true
		}
		if math.Abs(e) > 100*dahuTolerance {
			t.Errorf("line %s (%s) N=%d: emu %.6g s, SMPI %.6g s: %+.2f%%, beyond ±%g%%", r.line, code, r.n, r.emu, want, e, 100*dahuTolerance)
		}
	}
	var sizes []int
	for n := range smpi["D1_het"] {
		sizes = append(sizes, n)
	}
	sort.Ints(sizes)
	for _, n := range sizes {
		for _, l := range []string{"a", "c", "d"} {
			if !have[fmt.Sprintf("%s %d", l, n)] {
				t.Errorf("line %s at N = %d is not recorded with the current settings (%s)", l, n, currentSMPISettings)
			}
		}
	}
	keys := make([]ensKey, 0, len(ens))
	for k := range ens {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].n != keys[j].n {
			return keys[i].n < keys[j].n
		}
		if keys[i].mapping != keys[j].mapping {
			return keys[i].mapping < keys[j].mapping
		}
		return keys[i].clamped
	})
	inside := map[ensKey]bool{}
	for _, k := range keys {
		d := ens[k]
		sum := stats.Summarize(d.times)
		inside[k] = sum.Next != nil && sum.Next.Contains(d.smpi)
		when := "after 3d1f924"
		if k.clamped {
			when = "before 3d1f924"
		}
		if sum.Next == nil {
			t.Logf("line e N=%d (%s, %s): one seed, %.5g s, SMPI's D1_het %.5g s", k.n, k.mapping, when, sum.Mean, d.smpi)
			continue
		}
		t.Logf("line e N=%d (%s, %s): emu's %d seeds %.5g … %.5g s (next run, 90%%: %.5g … %.5g), SMPI's D1_het %.5g s: inside min–max %v, inside next %v",
			k.n, k.mapping, when, len(d.times), sum.Min, sum.Max, sum.Next.Lo, sum.Next.Hi, d.smpi, sum.Min <= d.smpi && d.smpi <= sum.Max, inside[k])
	}
	// Each size's ensemble is every draw after 3d1f924 with the current
	// settings, pooled across the commits it was drawn at (aade96c, then
	// e920842 after StartAll's threshold moved the rates' last bits: a seed
	// then gives another, unrelated draw of the same model, so the two are
	// one ensemble of 6; a seed that gave the same bits at both, as all
	// three did at N = 450,000, is one draw), where it has 3 seeds, else
	// the one drawn before.
	misses := 0
	for _, n := range sizes {
		k := ensKey{n, currentSMPISettings, false}
		if d := ens[k]; d == nil || len(d.times) < 3 {
			k.clamped = true
		}
		d := ens[k]
		if d == nil || len(d.times) < 3 {
			t.Errorf("line e at N = %d: fewer than 3 seeds recorded with the current settings (%s)", n, currentSMPISettings)
			continue
		}
		if !inside[k] {
			misses++
		}
	}
	if misses > 1 {
		t.Errorf("SMPI's line e is outside emu's next-run interval at %d of %d sizes; the issue allows one", misses, len(sizes))
	}
}

// currentSMPISettings are the record's mapping column for SMPI's own
// settings as dahu.toml now stands (copy_l on): the rows the goals are
// held to.
const currentSMPISettings = "platform.radical=0-31 kernels.charge_empty=true"

// TestDahuReproduced runs the recorded deterministic rows of the current
// settings again: each must give its recorded time (the run is deterministic;
// goldenDrift allows a small modelling change) and stay within 2% of SMPI.
// Rows of earlier settings (charge_empty or copy_l off) are history: each holds
// what the binary named in its emu column gave, before later changes to those
// settings' paths (at N = 75,000 today's code gives copy_l=false rows 0.4-0.5%
// from their record), and the goals are not held on them.
func TestDahuReproduced(t *testing.T) {
	if !*slow {
		t.Skip("each row takes a minute or more of CPU: -emu.slow (N > 50,000: EMU_LONG=1 as well)")
	}
	long := os.Getenv("EMU_LONG") == "1"
	for _, r := range readDahuRecord(t) {
		if r.line == "e" || (r.n > 50000 && !long) || strings.Join(r.sets, " ") != currentSMPISettings {
			continue
		}
		t.Run(fmt.Sprintf("%s_N%d", r.line, r.n), func(t *testing.T) {
			got := dahuTime(t, append([]string{"kernels.models=" + r.models, fmt.Sprintf("hpl.n=%d", r.n), fmt.Sprintf("seed=%d", r.seed)}, r.sets...)...)
			if math.Abs(got-r.emu) > goldenDrift*r.emu {
				t.Errorf("emu %.9g s, recorded %.9g s", got, r.emu)
			}
			if e := (got - r.smpi) / r.smpi; math.Abs(e) > dahuTolerance {
				t.Errorf("emu %.6g s, SMPI %.6g s: %+.2f%%", got, r.smpi, 100*e)
			}
		})
	}
}

// intCell is an integer column of a CSV row and where its value goes.
type intCell struct {
	col string
	v   *int
}

// intCells parses each cell's column of r into it; where names the row
// (file:line) in the failure.
func intCells(t *testing.T, where string, r map[string]string, cells []intCell) {
	t.Helper()
	for _, f := range cells {
		v, err := strconv.Atoi(r[f.col])
		if err != nil {
			t.Fatalf("%s: %s %q", where, f.col, r[f.col])
		}
		*f.v = v
	}
}
