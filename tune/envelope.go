package tune

import (
	"sort"
	"strconv"
)

// Envelope is, for one swept key, the best Gflops reached at each of its
// values over all other swept values: what a user tuning that one parameter
// can hope for (emu tune --plot draws it: plots.Tune).
type Envelope struct {
	Key    string
	Values []string  // as the overrides spell them; numeric ones in numeric order, others as they first appear
	Best   []float64 // Gflops, one per value
}

// Envelopes returns the envelope of each swept key, in sweptKeys' order; a
// key none of whose points succeeded is left out, as are failed points.
func Envelopes(results []Result) []Envelope {
	var envs []Envelope
	for _, key := range sweptKeys(results) {
		values, best := envelope(results, key)
		if len(values) == 0 {
			continue
		}
		envs = append(envs, Envelope{Key: key, Values: values, Best: best})
	}
	return envs
}

// envelope returns the values key takes and the best Gflops at each.
func envelope(results []Result, key string) ([]string, []float64) {
	best := map[string]float64{}
	var order []string
	for _, r := range results {
		if r.Error != "" {
			continue
		}
		for _, o := range r.Overrides {
			if o.Key != key {
				continue
			}
			if _, seen := best[o.Value]; !seen {
				order = append(order, o.Value)
				best[o.Value] = r.Gflops
			} else if r.Gflops > best[o.Value] {
				best[o.Value] = r.Gflops
			}
		}
	}
	numeric := true
	for _, v := range order {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
	}
	if numeric {
		sort.Slice(order, func(a, b int) bool {
			x, _ := strconv.ParseFloat(order[a], 64)
			y, _ := strconv.ParseFloat(order[b], 64)
			return x < y
		})
	}
	ys := make([]float64, len(order))
	for i, v := range order {
		ys[i] = best[v]
	}
	return order, ys
}
