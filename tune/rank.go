package tune

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"text/tabwriter"
)

// Rank orders results best first: higher Gflops, then (for apps without a rate) shorter
// simulated time; failed points last; ties by ID so the order is reproducible.
func Rank(rs []Result) []Result {
	out := append([]Result(nil), rs...)
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if (x.Error == "") != (y.Error == "") {
			return x.Error == ""
		}
		if x.Gflops != y.Gflops {
			return x.Gflops > y.Gflops
		}
		if x.SimulatedS != y.SimulatedS {
			return x.SimulatedS < y.SimulatedS
		}
		return x.ID < y.ID
	})
	return out
}

// WriteTable prints ranked results as an aligned table.
func WriteTable(w io.Writer, ranked []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tgflops\ttime_s\tsimulated_s\twall_s\tpoint")
	for i, r := range ranked {
		if r.Error != "" {
			fmt.Fprintf(tw, "%d\t-\t-\t-\t%.2f\t%s  (error: %s)\n", i+1, r.WallS, r.Label, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%d\t%.4g\t%.6g\t%.6g\t%.2f\t%s\n", i+1, r.Gflops, r.TimeS, r.SimulatedS, r.WallS, r.Label)
	}
	return tw.Flush()
}

// WriteCSV writes ranked results with one column per swept key.
func WriteCSV(w io.Writer, ranked []Result) error {
	keys := sweptKeys(ranked)
	cw := csv.NewWriter(w)
	head := append([]string{"rank"}, keys...)
	head = append(head, "gflops", "time_s", "simulated_time_s", "wall_time_s", "error")
	if err := cw.Write(head); err != nil {
		return err
	}
	for i, r := range ranked {
		vals := map[string]string{}
		for _, o := range r.Overrides {
			vals[o.Key] = o.Value
		}
		row := []string{strconv.Itoa(i + 1)}
		for _, k := range keys {
			row = append(row, vals[k])
		}
		row = append(row, g(r.Gflops), g(r.TimeS), g(r.SimulatedS), g(r.WallS), r.Error)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes ranked results as a JSON array.
func WriteJSON(w io.Writer, ranked []Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if ranked == nil {
		ranked = []Result{}
	}
	return enc.Encode(ranked)
}

func sweptKeys(rs []Result) []string {
	seen := map[string]bool{}
	var keys []string
	for _, r := range rs {
		for _, o := range r.Overrides {
			if !seen[o.Key] {
				seen[o.Key] = true
				keys = append(keys, o.Key)
			}
		}
	}
	return keys
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
