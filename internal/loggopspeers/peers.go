package loggopspeers

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/traceformat"
)

// Row is one LogGOPSim run of results.csv.
type Row struct {
	Ranks, GoalOps, Messages int
	Events                   int64   // LogGOPSim's event count: ops + messages
	L, O, Gap, G             float64 // ns, ns, ns, ns/byte
	S                        int64   // bytes
	Runtime                  float64 // predicted_runtime, ns
}

// Results reads dir/results.csv into schedule name → runs sorted by L.
func Results(dir string) (map[string][]Row, error) {
	file := filepath.Join(dir, "results.csv")
	recs, err := readCSV(file)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"schedule", "ranks", "events", "L_ns", "o_ns", "G", "predicted_runtime", "goal_ops", "messages", "g_ns", "S_bytes"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("%s has no column %q", file, h)
		}
	}
	out := map[string][]Row{}
	for line, rec := range recs[1:] {
		var bad error
		num := func(h string) float64 {
			v, err := strconv.ParseFloat(rec[col[h]], 64)
			if err != nil && bad == nil {
				bad = fmt.Errorf("%s:%d: %s: %v", file, line+2, h, err)
			}
			return v
		}
		row := Row{
			Ranks: int(num("ranks")), GoalOps: int(num("goal_ops")), Messages: int(num("messages")),
			Events: int64(num("events")),
			L:      num("L_ns"), O: num("o_ns"), Gap: num("g_ns"), G: num("G"),
			S: int64(num("S_bytes")), Runtime: num("predicted_runtime"),
		}
		if bad != nil {
			return nil, bad
		}
		name := rec[col["schedule"]]
		out[name] = append(out[name], row)
	}
	for _, rows := range out {
		sort.Slice(rows, func(i, j int) bool { return rows[i].L < rows[j].L })
	}
	return out, nil
}

// Schedules lists the GOAL files kept in dir/goal, by name (no .goal).
func Schedules(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "goal", "*.goal"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no GOAL file in %s", filepath.Join(dir, "goal"))
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(filepath.Base(f), ".goal")
	}
	return names, nil
}

// Schedule parses the GOAL file dir/goal/name.goal.
func Schedule(dir, name string) (*traceformat.Schedule, error) {
	f, err := os.Open(filepath.Join(dir, "goal", name+".goal"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return traceformat.Parse(f, name+".goal")
}

// WideCurves reads dir/tl_wide.csv: LogGOPSim's T(L) for L = 3..103 µs in
// 1 µs steps, schedule → (L ns, T ns) sorted by L.
func WideCurves(dir string) (map[string][][2]float64, error) {
	file := filepath.Join(dir, "tl_wide.csv")
	recs, err := readCSV(file)
	if err != nil {
		return nil, err
	}
	if len(recs[0]) != 3 || recs[0][1] != "L_ns" || recs[0][2] != "predicted_runtime_ns" {
		return nil, fmt.Errorf("%s: unexpected header %v", file, recs[0])
	}
	out := map[string][][2]float64{}
	for line, rec := range recs[1:] {
		L, err1 := strconv.ParseFloat(rec[1], 64)
		T, err2 := strconv.ParseFloat(rec[2], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d: bad row %v", file, line+2, rec)
		}
		out[rec[0]] = append(out[rec[0]], [2]float64{L, T})
	}
	for _, c := range out {
		sort.Slice(c, func(i, j int) bool { return c[i][0] < c[j][0] })
	}
	return out, nil
}

func readCSV(file string) ([][]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", file)
	}
	return recs, nil
}
