package validation

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"testing"

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

// dahuRow is one recorded comparison.
type dahuRow struct {
	line, models    string
	n               int
	seed            int
	emu, smpi, errP float64
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
		out = append(out, dahuRow{line: r["line"], models: r["models"], n: int(num(r, "n")), seed: int(num(r, "seed")),
			emu: num(r, "emu_time_s"), smpi: num(r, "smpi_time_s"), errP: num(r, "err_pct")})
	}
	return out
}

// TestDahuRecorded: every recorded row quotes SMPI's CSV exactly and its error
// right; the deterministic lines are within 2% of SMPI; N = 50,000 is recorded
// for a, c and d; line e's seeds at each N bracket SMPI's figure or not (logged).
func TestDahuRecorded(t *testing.T) {
	smpi := smpiFig10(t)
	rows := readDahuRecord(t)
	have := map[string]bool{}
	type span struct{ lo, hi, smpi float64 }
	ens := map[int]*span{}
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
			s := ens[r.n]
			if s == nil {
				s = &span{lo: r.emu, hi: r.emu, smpi: want}
				ens[r.n] = s
			}
			s.lo, s.hi = min(s.lo, r.emu), max(s.hi, r.emu)
			continue
		}
		have[fmt.Sprintf("%s %d", r.line, r.n)] = true
		if math.Abs(e) > 100*dahuTolerance {
			t.Errorf("line %s (%s) N=%d: emu %.6g s, SMPI %.6g s: %+.2f%%, beyond ±%g%%", r.line, code, r.n, r.emu, want, e, 100*dahuTolerance)
		}
	}
	for _, l := range []string{"a", "c", "d"} {
		if !have[l+" 50000"] {
			t.Errorf("line %s at N = 50,000 is not recorded", l)
		}
	}
	ns := make([]int, 0, len(ens))
	for n := range ens {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		s := ens[n]
		t.Logf("line e N=%d: emu's seeds %.4g … %.4g s, SMPI's D1_het %.4g s: inside %v", n, s.lo, s.hi, s.smpi, s.lo <= s.smpi && s.smpi <= s.hi)
	}
}

// TestDahuReproduced runs the recorded deterministic rows again: each must
// give its recorded time (the run is deterministic; goldenDrift allows a small
// modelling change) and stay within 2% of SMPI.
func TestDahuReproduced(t *testing.T) {
	if !*slow {
		t.Skip("each row takes a minute or more of CPU: -emu.slow (N > 50,000: EMU_LONG=1 as well)")
	}
	long := os.Getenv("EMU_LONG") == "1"
	for _, r := range readDahuRecord(t) {
		if r.line == "e" || (r.n > 50000 && !long) {
			continue
		}
		t.Run(fmt.Sprintf("%s_N%d", r.line, r.n), func(t *testing.T) {
			s, err := scenario.Load(dahuScenario)
			if err != nil {
				t.Fatal(err)
			}
			for _, kv := range []string{"kernels.models=" + r.models, "platform.radical=0-31", fmt.Sprintf("hpl.n=%d", r.n), fmt.Sprintf("seed=%d", r.seed)} {
				if err := s.Set(kv); err != nil {
					t.Fatal(err)
				}
			}
			p, err := s.Validate()
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(p, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := res.HPL[0].Time
			if math.Abs(got-r.emu) > goldenDrift*r.emu {
				t.Errorf("emu %.9g s, recorded %.9g s", got, r.emu)
			}
			if e := (got - r.smpi) / r.smpi; math.Abs(e) > dahuTolerance {
				t.Errorf("emu %.6g s, SMPI %.6g s: %+.2f%%", got, r.smpi, 100*e)
			}
		})
	}
}
