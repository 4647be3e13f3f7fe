package tune

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"text/tabwriter"

	"github.com/emu-hpc/emu/internal/jsonout"
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

// WriteTable prints ranked results as an aligned table. When results carry an
// ensemble (several runs a point) Gflops and time_s are the means, the table
// adds each one's 90% band (p05–p95) of the ranked figure, marks with "≈" a
// point whose band overlaps the next one's, and says below which neighbours
// the runs leave undecided.
func WriteTable(w io.Writer, ranked []Result) error {
	ens := hasEnsemble(ranked)
	undecided := map[int]bool{}
	for _, i := range Undecided(ranked) {
		undecided[i] = true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if ens {
		fmt.Fprintln(tw, "rank\tgflops\ttime_s\tband (p05–p95)\truns\tsimulated_s\twall_s\tpoint")
	} else {
		fmt.Fprintln(tw, "rank\tgflops\ttime_s\tsimulated_s\twall_s\tpoint")
	}
	for i, r := range ranked {
		if r.Error != "" {
			dash := "-\t-\t-\t"
			if ens {
				dash += "-\t-\t"
			}
			fmt.Fprintf(tw, "%d\t%s%.2f\t%s  (error: %s)\n", i+1, dash, r.WallS, r.Label, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%d\t%.4g\t%.6g\t", i+1, r.Gflops, r.TimeS)
		if ens {
			band, runs := "-", "1"
			if b, ok := r.ranked(); ok {
				band, runs = fmt.Sprintf("%.4g–%.4g", b.P05, b.P95), strconv.Itoa(r.Ensemble.Runs)
				if undecided[i] {
					band += " ≈"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t", band, runs)
		}
		fmt.Fprintf(tw, "%.6g\t%.2f\t%s\n", r.SimulatedS, r.WallS, r.Label)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, i := range Undecided(ranked) {
		if _, err := fmt.Fprintf(w, "≈ ranks %d and %d: their bands overlap, the runs do not decide which is better (%s; %s)\n",
			i+1, i+2, ranked[i].Label, ranked[i+1].Label); err != nil {
			return err
		}
	}
	return nil
}

// csvValue is a swept value as a CSV cell: a TOML string without its quotes
// (bcast "long" is the cell long, not the `"""long"""` a CSV writer makes of it),
// anything else (numbers, grids) as written.
func csvValue(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
	}
	return v
}

// WriteCSV writes ranked results with one column per swept key.
func WriteCSV(w io.Writer, ranked []Result) error {
	keys := sweptKeys(ranked)
	cw := csv.NewWriter(w)
	head := append([]string{"rank"}, keys...)
	head = append(head, "gflops", "time_s", "simulated_time_s", "wall_time_s", "error")
	ens := hasEnsemble(ranked)
	if ens {
		head = append(head, "runs", "band_p05", "band_p95", "undecided_with_next")
	}
	undecided := map[int]bool{}
	for _, i := range Undecided(ranked) {
		undecided[i] = true
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for i, r := range ranked {
		vals := map[string]string{}
		for _, o := range r.Overrides {
			vals[o.Key] = csvValue(o.Value)
		}
		row := []string{strconv.Itoa(i + 1)}
		for _, k := range keys {
			row = append(row, vals[k])
		}
		row = append(row, g(r.Gflops), g(r.TimeS), g(r.SimulatedS), g(r.WallS), r.Error)
		if ens {
			if b, ok := r.ranked(); ok {
				row = append(row, strconv.Itoa(r.Ensemble.Runs), g(b.P05), g(b.P95), strconv.FormatBool(undecided[i]))
			} else {
				row = append(row, "1", "", "", "false")
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes ranked results as a JSON array.
func WriteJSON(w io.Writer, ranked []Result) error {
	return jsonout.Encode(w, ranked)
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
