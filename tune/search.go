package tune

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Search is successive halving (Jamieson and Talwalkar 2016; one bracket of Hyperband)
// with a cheap fidelity: every point is first evaluated at a low fidelity (for HPL, a few
// panels emulated and the Time extrapolated, `hpl.max_iterations=K`), the best 1/Eta are
// kept and evaluated again at Growth times the fidelity, and so on until at most
// Finalists points remain; those are evaluated whole, and the best whole evaluation is
// the answer. Low-fidelity results only rank points; every figure Search reports for the
// winner comes from a whole evaluation.
//
// A point whose low-fidelity result is already exact (Result.Extrapolated false: the
// fidelity covered the whole run) is not evaluated again: its result stands for every
// later rung.

// SearchOptions steer Search. Zero values take the defaults named on each field.
type SearchOptions struct {
	Options // Jobs, Progress (per rung), Clock, Record; Skip is ignored

	Fidelity  string // key of the fidelity override, e.g. "hpl.max_iterations" (required)
	Whole     string // the fidelity value that evaluates a point whole, e.g. "0" (required)
	Start     int    // fidelity of the first rung; default 8
	Growth    int    // fidelity multiplier from one rung to the next; default 2
	Eta       int    // each rung keeps ⌈n/Eta⌉ of its n points; default 4
	Finalists int    // points evaluated whole at the end; default 3

	// Known returns an earlier result for an evaluation's ID (a resumed search);
	// known evaluations are not run again. May be nil.
	Known func(id string) (Result, bool)
}

// Defaults of SearchOptions.
const (
	DefaultStart     = 8 // panels: the extrapolation's smallest multi-segment sample
	DefaultGrowth    = 2
	DefaultEta       = 4
	DefaultFinalists = 3
)

// Rung is one round of a search: the fidelity its points were evaluated at and their
// results, best first.
type Rung struct {
	Fidelity string   `json:"fidelity"` // value of the fidelity key; Whole for the last rung
	Results  []Result `json:"results"`  // ranked, best first
	Kept     int      `json:"kept"`     // how many of Results went on to the next rung
}

// SearchResult is what a search found and what it cost.
type SearchResult struct {
	Best        Result  `json:"best"`        // the best whole evaluation
	Rungs       []Rung  `json:"rungs"`       // in order, the last one whole
	Evaluations int     `json:"evaluations"` // evaluations run (not taken from Known)
	Whole       int     `json:"whole"`       // of them, whole evaluations
	Panels      int     `json:"panels"`      // units of fidelity spent (HPL: panels emulated), known ones included
	WallS       float64 `json:"wall_s"`      // sum of the evaluations' wall times, s, known ones included
}

// withFidelity is p with the fidelity override appended; its ID names the fidelity, so
// a journal keeps the rungs of one point apart.
func withFidelity(p Point, key, value string) Point {
	q := Point{Index: p.Index, Overrides: append(append([]Override(nil), p.Overrides...), Override{Key: key, Value: value})}
	return q
}

// Search runs successive halving over points (see the comment above SearchOptions).
// Points must not set the fidelity key themselves. Cancelling ctx stops the search
// after the evaluations in flight, returning what was found so far and ctx's error.
func Search(ctx context.Context, r Runner, points []Point, opt SearchOptions) (SearchResult, error) {
	if opt.Fidelity == "" || opt.Whole == "" {
		return SearchResult{}, fmt.Errorf("search: no fidelity key or whole value given")
	}
	start, growth, eta, finalists := opt.Start, opt.Growth, opt.Eta, opt.Finalists
	if start <= 0 {
		start = DefaultStart
	}
	if growth <= 1 {
		growth = DefaultGrowth
	}
	if eta <= 1 {
		eta = DefaultEta
	}
	if finalists <= 0 {
		finalists = DefaultFinalists
	}
	for _, p := range points {
		for _, o := range p.Overrides {
			if o.Key == opt.Fidelity {
				return SearchResult{}, fmt.Errorf("search: point %s sets the fidelity key %s itself", p.Settings(), opt.Fidelity)
			}
		}
		if err := r.Check(withFidelity(p, opt.Fidelity, opt.Whole)); err != nil {
			return SearchResult{}, fmt.Errorf("point %s: %w", p.Settings(), err)
		}
	}
	var out SearchResult
	exact := map[string]Result{} // point ID → a result that covered the whole run
	cost := map[string]float64{} // point ID → wall time of its last evaluation, s
	live := points
	fidelity := start
	for len(live) > 0 {
		whole := len(live) <= finalists
		value := opt.Whole
		if !whole {
			value = strconv.Itoa(fidelity)
		}
		results, err := out.rung(ctx, r, live, value, exact, cost, opt)
		ranked := Rank(results)
		rung := Rung{Fidelity: value, Results: ranked}
		if err != nil {
			out.Rungs = append(out.Rungs, rung)
			return out, err
		}
		if whole {
			out.Rungs = append(out.Rungs, rung)
			if len(ranked) > 0 && ranked[0].Error == "" {
				out.Best = ranked[0]
			}
			break
		}
		keep := max((len(ranked)+eta-1)/eta, finalists)
		byID := make(map[string]Point, len(live))
		for _, p := range live {
			byID[p.ID()] = p
		}
		next := make([]Point, 0, keep)
		for _, res := range ranked[:min(keep, len(ranked))] {
			if res.Error != "" {
				break // failed points rank last and go no further
			}
			next = append(next, byID[res.base])
		}
		rung.Kept = len(next)
		out.Rungs = append(out.Rungs, rung)
		live = next
		if fidelity > math.MaxInt/growth {
			fidelity = math.MaxInt // a huge --growth: every panel, not a wrapped product
		} else {
			fidelity *= growth
		}
	}
	if out.Best.ID == "" {
		return out, fmt.Errorf("search: no point evaluated successfully")
	}
	return out, nil
}

// rung evaluates live at one fidelity value, reusing exact and known results, and
// returns one result per point; each result's base is the point's own ID.
//
// The evaluations are handed out longest first, by their previous rung's wall time
// (cost), so that a long one does not start last and leave the other workers idle.
func (out *SearchResult) rung(ctx context.Context, r Runner, live []Point, value string, exact map[string]Result, cost map[string]float64, opt SearchOptions) ([]Result, error) {
	results := make([]Result, 0, len(live))
	var todo []Point
	base := map[string]string{} // evaluation ID → point ID
	for _, p := range live {
		if res, ok := exact[p.ID()]; ok {
			results = append(results, res)
			continue
		}
		q := withFidelity(p, opt.Fidelity, value)
		base[q.ID()] = p.ID()
		if opt.Known != nil {
			if res, ok := opt.Known(q.ID()); ok {
				results = append(results, out.count(res, p.ID(), exact, value == opt.Whole, false))
				continue
			}
		}
		todo = append(todo, q)
	}
	sort.SliceStable(todo, func(a, b int) bool {
		return cost[base[todo[a].ID()]] > cost[base[todo[b].ID()]]
	})
	sopt := opt.Options
	sopt.Skip = nil
	sopt.Checked = true // Search checked every point
	done, err := Sweep(ctx, r, todo, sopt)
	for _, res := range done {
		cost[base[res.ID]] = res.WallS
		results = append(results, out.count(res, base[res.ID], exact, value == opt.Whole, true))
	}
	return results, err
}

// count books one evaluation's cost and marks whole-run results as exact.
func (out *SearchResult) count(res Result, point string, exact map[string]Result, whole, ran bool) Result {
	res.base = point
	out.Panels += res.Panels
	out.WallS += res.WallS
	if ran {
		out.Evaluations++
		if whole {
			out.Whole++
		}
	}
	if res.Error == "" && !res.Extrapolated {
		exact[point] = res
	}
	return res
}
