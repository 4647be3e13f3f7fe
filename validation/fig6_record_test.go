package validation

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/atomicfile"
)

// fig6WholePath holds the whole runs of seed 003's Fig. 6 points that have been
// made: BenchmarkFig6 with -update writes its point's row there. They take from a
// minute to hours each, so BenchmarkExtrapolationError checks extrapolations of
// those points against the recorded Time instead of running them whole again, and
// the README's Fig. 6 table is read off this file (TestReadmeFig6Table).
const fig6WholePath = "testdata/fig6_whole.csv"

// fig6Whole is one whole run of a Fig. 6 point.
type fig6Whole struct {
	point          string // the sub-benchmark's name, e.g. fig6_16x32_N500000
	panels         int
	time, gflops   float64 // HPL's Time (s) and Gflops
	cpu, wall      float64 // s, of the emulation
	peakRSSMB      float64
	date, loadNote string
}

var fig6WholeHeader = []string{"point", "panels", "hpl_time_s", "gflops", "cpu_s", "wall_s", "peak_rss_mb", "date", "load"}

// stampedeWholePath holds examples/stampede.toml's whole run (3,785 panels,
// hours), in fig6WholePath's columns: BenchmarkStampedeWhole with -update writes
// it, and BenchmarkExtrapolationError and TestStampedeWholeInsideBar check
// extrapolations against its Time.
const stampedeWholePath = "testdata/stampede_whole.csv"

// stampedeWholeMergedPath holds the same run with merged long-broadcast
// rolls (hpl.roll = "merged"; BenchmarkStampedeWholeMerged -update).
const stampedeWholeMergedPath = "testdata/stampede_whole_merged.csv"

// readFig6Whole reads the recorded whole runs of Fig. 6 points by point; a
// missing file is none.
func readFig6Whole(tb testing.TB) map[string]fig6Whole { return readWholeRuns(tb, fig6WholePath) }

// readWholeRuns reads a file of recorded whole runs (fig6WholeHeader's
// columns) by point; a missing file is none.
func readWholeRuns(tb testing.TB, path string) map[string]fig6Whole {
	tb.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]fig6Whole{}
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	out := map[string]fig6Whole{}
	for i, rec := range recs {
		if i == 0 {
			if strings.Join(rec, ",") != strings.Join(fig6WholeHeader, ",") {
				tb.Fatalf("%s: header %q, want %q", path, rec, fig6WholeHeader)
			}
			continue
		}
		num := func(col int) float64 {
			v, err := strconv.ParseFloat(rec[col], 64)
			if err != nil {
				tb.Fatalf("%s: row %d, %s: %v", path, i+1, fig6WholeHeader[col], err)
			}
			return v
		}
		out[rec[0]] = fig6Whole{point: rec[0], panels: int(num(1)), time: num(2), gflops: num(3),
			cpu: num(4), wall: num(5), peakRSSMB: num(6), date: rec[7], loadNote: rec[8]}
	}
	return out
}

// recordFig6Whole puts w's row in fig6WholePath, replacing the point's earlier
// row, rows sorted in fig6Cases' order.
func recordFig6Whole(tb testing.TB, w fig6Whole) {
	recordWholeRun(tb, fig6WholePath, fig6Cases(),
		"# Whole runs of seed 003's Fig. 6 points (validation BenchmarkFig6 with -update; EMU_LONG=1).\n", w)
}

// recordWholeRun puts w's row in the file at path, replacing the point's
// earlier row, rows sorted in the order of cases; head is the comment a new
// file starts with (an existing file keeps its own).
func recordWholeRun(tb testing.TB, path string, cases []extrapolationCase, head string, w fig6Whole) {
	tb.Helper()
	rows := readWholeRuns(tb, path)
	rows[w.point] = w
	order := map[string]int{}
	for i, c := range cases {
		order[c.name] = i
	}
	var names []string
	for n := range rows {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return order[names[i]] < order[names[j]] })
	var b strings.Builder
	comments := head +
		"# cpu_s is getrusage's user+system time of the run, wall_s its wall time on the shared 2-core VM at the load noted.\n"
	if old, err := os.ReadFile(path); err == nil { // keep the file's own comments
		var kept []string
		for _, line := range strings.SplitAfter(string(old), "\n") {
			if strings.HasPrefix(line, "#") {
				kept = append(kept, line)
			}
		}
		if len(kept) > 0 {
			comments = strings.Join(kept, "")
		}
	}
	b.WriteString(comments)
	cw := csv.NewWriter(&b)
	cw.Write(fig6WholeHeader)
	for _, n := range names {
		r := rows[n]
		cw.Write([]string{r.point, strconv.Itoa(r.panels), strconv.FormatFloat(r.time, 'f', 6, 64),
			strconv.FormatFloat(r.gflops, 'f', 3, 64), strconv.FormatFloat(r.cpu, 'f', 1, 64),
			strconv.FormatFloat(r.wall, 'f', 1, 64), strconv.FormatFloat(r.peakRSSMB, 'f', 0, 64), r.date, r.loadNote})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		tb.Fatal(err)
	}
	if err := atomicfile.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestFig6WholeRecords checks the recorded whole runs against the points they
// name: each is a Fig. 6 point, whole (its panel count is N/NB rounded up), and
// its Gflops is HPL's formula on its Time.
func TestFig6WholeRecords(t *testing.T) {
	points := map[string]int{}
	for _, c := range fig6Cases() {
		var n int
		if _, err := fmt.Sscanf(c.name[strings.LastIndex(c.name, "_N")+2:], "%d", &n); err != nil {
			t.Fatal(err)
		}
		points[c.name] = n
	}
	for name, w := range readFig6Whole(t) {
		n, ok := points[name]
		if !ok {
			t.Errorf("%s: not a Fig. 6 point", name)
			continue
		}
		const nb = 1024 // examples/stampede.toml's NB
		if want := (n + nb - 1) / nb; w.panels != want {
			t.Errorf("%s: %d panels, a whole run has %d", name, w.panels, want)
		}
		fn := float64(n)
		// 1e-3: transcribed rows give Time to 0.1 s
		if g := (2.0/3*fn*fn*fn + 1.5*fn*fn) / w.time / 1e9; math.Abs(g-w.gflops) > 1e-3*w.gflops {
			t.Errorf("%s: %.3f Gflops recorded, %.3f from its Time", name, w.gflops, g)
		}
	}
}
