package tune

import "github.com/emu-hpc/emu/internal/stats"

// Ensemble is the spread of a point's runs: the figure Rank orders by
// (Gflops, or the time for apps without a rate) over Runs runs.
type Ensemble struct {
	Runs   int           `json:"runs"`
	Gflops stats.Summary `json:"gflops"`
	TimeS  stats.Summary `json:"time_s"`
}

// ranked is the figure a result is ranked on, and its band when it has one.
func (r Result) ranked() (band stats.Summary, ok bool) {
	if r.Ensemble == nil || r.Error != "" {
		return stats.Summary{}, false
	}
	if r.Gflops != 0 {
		return r.Ensemble.Gflops, true
	}
	return r.Ensemble.TimeS, true
}

// Undecided lists the ranks i (0-based) whose result's 90% band overlaps the
// next one's: the runs do not decide the order of ranked[i] and ranked[i+1].
// Results without an ensemble, or failed, are never undecided.
func Undecided(ranked []Result) []int {
	var out []int
	for i := 0; i+1 < len(ranked); i++ {
		a, okA := ranked[i].ranked()
		b, okB := ranked[i+1].ranked()
		if okA && okB && a.Overlaps(b) {
			out = append(out, i)
		}
	}
	return out
}

// hasEnsemble reports whether any result carries an ensemble.
func hasEnsemble(rs []Result) bool {
	for _, r := range rs {
		if r.Ensemble != nil {
			return true
		}
	}
	return false
}
