package validation

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
)

// fullNodeRecord holds issue 32 item 8's check of a node full of ranks: two
// calls of validation/nodeloop on a 16-core device node (8 and 16 ranks on
// one host; its README.md), real HPL 2.3 runs before and after each call's
// lockstep calibration, the models and node files, and emu's predictions
// with HPL's phases.
const fullNodeRecord = "testdata/realhpl/device16-2026-11-28"

// TestRecordedFullNode predicts every test of the record again with its
// call's node file and models and checks the prediction and its laswp phase
// against the record's predicted.csv (0.5%), so that the figures of
// docs/evidence/node16.md stay what emu predicts: a change to emu's HPL,
// network or kernel billing that moves them fails here and the record and
// its evidence are redone. It logs each test against the real runs; the bar
// of issue 32 (within 10%) is not met on this node, and the log says by how
// much.
func TestRecordedFullNode(t *testing.T) {
	realRuns := map[string][]map[string]string{} // call/id → runs
	for _, r := range readCSV(t, filepath.Join(fullNodeRecord, "real_runs.csv")) {
		k := r["call"] + "/" + r["id"]
		realRuns[k] = append(realRuns[k], r)
		checkRealOutput(t, r)
	}
	within10, tests := 0, 0
	for _, r := range readCSV(t, filepath.Join(fullNodeRecord, "predicted.csv")) {
		call, id := r["call"], r["id"]
		runs := realRuns[call+"/"+id]
		if len(runs) == 0 {
			t.Fatalf("%s: call %s %s: no real run recorded", fullNodeRecord, call, id)
		}
		models, err := filepath.Abs(filepath.Join(fullNodeRecord, "models-call"+call+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		node := filepath.Join(fullNodeRecord, "node-call"+call+".toml")
		got := predictOnNode(t, node, filepath.Join(fullNodeRecord, "hpl-dat", id+".dat"), models)
		for _, c := range []struct {
			column string
			value  float64
		}{{"predicted_s", got.Time}, {"predicted_laswp_s", got.Phases.Laswp}} {
			want := parseCell(t, r, c.column)
			if math.Abs(c.value-want) > 0.005*want {
				t.Errorf("call %s %s: %s %.4f, recorded %.4f: redo the record and docs/evidence/node16.md", call, id, c.column, c.value, want)
			}
		}
		var times, laswps []float64
		for _, run := range runs {
			times = append(times, parseCell(t, run, "time_s"))
			laswps = append(laswps, parseCell(t, run, "laswp_s"))
		}
		realMedian := midMedian(times)
		errPct := 100 * (got.Time - realMedian) / realMedian
		tests++
		if math.Abs(errPct) <= 10 {
			within10++
		}
		t.Logf("call %s %s %sx%s: emu %.2f s, real %.2f s (%d runs): %+.1f%%; laswp phase emu %.2f s, real %.2f s",
			call, id, r["p"], r["q"], got.Time, realMedian, len(times), errPct, got.Phases.Laswp, midMedian(laswps))
	}
	if tests == 0 {
		t.Fatalf("%s: no test in predicted.csv", fullNodeRecord)
	}
	t.Logf("%d of %d tests within 10%% of the real median (issue 32's bar: all)", within10, tests)
}

// checkRealOutput checks a row of real_runs.csv against the xhpl output it
// was read from (real/callC-ROUND-REPEAT-ID.txt): HPL's Time (the row holds
// it to more digits, recovered from the Gflops) and the six phases.
func checkRealOutput(t *testing.T, r map[string]string) {
	t.Helper()
	name := filepath.Join(fullNodeRecord, "real", fmt.Sprintf("call%s-%s-1-%s.txt", r["call"], r["round"], r["id"]))
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := hpl.ParseOutput(data, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Phases == nil {
		t.Fatalf("%s: %d results, want one with detailed timing", name, len(rows))
	}
	out := rows[0]
	if want := parseCell(t, r, "time_s"); math.Abs(out.Time-want) > 0.006 {
		t.Errorf("%s: Time %.2f, real_runs.csv %.6f", name, out.Time, want)
	}
	for _, ph := range out.Phases.Rows() {
		column := map[string]string{"rfact": "rfact_s", "pfact": "pfact_s", "mxswp": "mxswp_s", "update": "update_s", "laswp": "laswp_s", "up tr sv": "uptrsv_s"}[ph.Name]
		if column == "" {
			t.Fatalf("phase %q has no column in real_runs.csv", ph.Name)
		}
		if want := parseCell(t, r, column); ph.Seconds != want {
			t.Errorf("%s: %s %g, real_runs.csv %g", name, ph.Name, ph.Seconds, want)
		}
	}
}

func parseCell(t *testing.T, row map[string]string, column string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[column], 64)
	if err != nil {
		t.Fatalf("%s: %v", column, err)
	}
	return v
}

// midMedian is the median, the mean of the middle two of an even count.
func midMedian(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
