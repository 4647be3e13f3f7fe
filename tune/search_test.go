package tune

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fidelityRunner stands in for HPL with hpl.max_iterations: a point's true score is
// the product of its numeric values; it has `panels` panels in all; evaluated at
// fidelity K < panels, it reports the true score times (1 + bias/K) and says the result
// is extrapolated, at K ≥ panels (or K = 0, whole) the true score, exact. Panels spent
// is min(K, panels). Values listed in fail make the run fail.
type fidelityRunner struct {
	panels int
	bias   float64
	fail   string

	mu   sync.Mutex
	runs map[string]int // evaluation ID → times run
}

func (r *fidelityRunner) Check(p Point) error { return nil }

func (r *fidelityRunner) Run(_ context.Context, p Point) (Result, error) {
	r.mu.Lock()
	if r.runs == nil {
		r.runs = map[string]int{}
	}
	r.runs[p.ID()]++
	r.mu.Unlock()
	score, k := 1.0, 0
	for _, o := range p.Overrides {
		if o.Key == "fid" {
			k, _ = strconv.Atoi(o.Value)
			continue
		}
		if o.Value == r.fail {
			return Result{}, fmt.Errorf("bad value %s", o.Value)
		}
		v, err := strconv.ParseFloat(o.Value, 64)
		if err != nil {
			return Result{}, err
		}
		score *= v
	}
	if k == 0 || k >= r.panels {
		return Result{Gflops: score, Panels: r.panels}, nil
	}
	return Result{Gflops: score * (1 + r.bias/float64(k)), Panels: k, Extrapolated: true}, nil
}

// space288 is the space in shape: 8 × 6 × 2 × 3 points.
func space288() []Point {
	return Points([]Axis{
		{"nb", []string{"1", "2", "3", "4", "5", "6", "7", "8"}},
		{"bcast", []string{"1", "2", "3", "4", "5", "6"}},
		{"depth", []string{"1", "2"}},
		{"grid", []string{"1", "2", "3"}},
	}, 0, 0)
}

func TestSearchHalves(t *testing.T) {
	r := &fidelityRunner{panels: 1000, bias: 0.5}
	res, err := Search(context.Background(), r, space288(), SearchOptions{Fidelity: "fid", Whole: "0", Options: Options{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	// With the defaults (start 8, growth 2, Eta 4, 3 finalists):
	// 288 points at 8 panels keep ⌈288/4⌉ = 72; 72 at 16 keep 18; 18 at 32 keep 5;
	// 5 at 64 keep max(⌈5/4⌉, 3) = 3; 3 ≤ 3 finalists are run whole.
	want := []struct {
		fidelity string
		n, kept  int
	}{{"8", 288, 72}, {"16", 72, 18}, {"32", 18, 5}, {"64", 5, 3}, {"0", 3, 0}}
	if len(res.Rungs) != len(want) {
		t.Fatalf("%d rungs, want %d", len(res.Rungs), len(want))
	}
	for i, w := range want {
		g := res.Rungs[i]
		if g.Fidelity != w.fidelity || len(g.Results) != w.n || g.Kept != w.kept {
			t.Errorf("rung %d: fidelity %s, %d points, kept %d; want %s, %d, %d", i, g.Fidelity, len(g.Results), g.Kept, w.fidelity, w.n, w.kept)
		}
	}
	// The bias is a common factor at each fidelity, so ranks are exact and the best
	// point 8·6·2·3 = 288 is found; its score is the whole evaluation's.
	if res.Best.Gflops != 288 || res.Best.Extrapolated {
		t.Errorf("best %+v, want the whole evaluation scoring 288", res.Best)
	}
	// Cost: 288·8 + 72·16 + 18·32 + 5·64 + 3·1000 panels, in 288+72+18+5+3 runs.
	if wantP := 288*8 + 72*16 + 18*32 + 5*64 + 3*1000; res.Panels != wantP {
		t.Errorf("panels %d, want %d", res.Panels, wantP)
	}
	if res.Evaluations != 386 || res.Whole != 3 {
		t.Errorf("%d evaluations (%d whole), want 386 (3)", res.Evaluations, res.Whole)
	}
}

// TestSearchHugeGrowth: a growth whose product passes the largest int
// saturates there (every panel) instead of wrapping: 2⁶² · 4 wrapped to 0
// and 2⁶² + 1 times 4 to 4, fewer panels than the rung before.
func TestSearchHugeGrowth(t *testing.T) {
	r := &fidelityRunner{panels: 1000, bias: 0.5}
	res, err := Search(context.Background(), r, space288()[:8], SearchOptions{Fidelity: "fid", Whole: "0", Start: 4, Growth: 1<<62 + 1, Eta: 2, Finalists: 1, Options: Options{Jobs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// 8 at 4 keep 4; 4 at MaxInt keep 2; 2 at MaxInt keep 1; 1 whole.
	var got []string
	for _, g := range res.Rungs {
		got = append(got, g.Fidelity)
	}
	if want := "4 9223372036854775807 9223372036854775807 0"; strings.Join(got, " ") != want {
		t.Errorf("rungs at %v, want %s", got, want)
	}
}

// TestSearchReusesExact: a point whose low-fidelity run covered it whole (K ≥ its
// panels) is never run again, and later rungs rank it by that exact result.
func TestSearchReusesExact(t *testing.T) {
	r := &fidelityRunner{panels: 12, bias: -0.5}
	pts := Points([]Axis{{"a", []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}}}, 0, 0)
	res, err := Search(context.Background(), r, pts, SearchOptions{Fidelity: "fid", Whole: "0", Eta: 3, Finalists: 2})
	if err != nil {
		t.Fatal(err)
	}
	// 9 at 8 panels (extrapolated) keep 3; 3 at 16 ≥ 12 panels: exact, keep 2;
	// 2 ≤ 2 finalists: already exact, nothing runs whole.
	if len(res.Rungs) != 3 || res.Evaluations != 12 || res.Whole != 0 {
		t.Fatalf("%d rungs, %d evaluations (%d whole); want 3, 12, 0", len(res.Rungs), res.Evaluations, res.Whole)
	}
	if res.Best.Gflops != 9 || res.Best.Extrapolated || !strings.Contains(res.Best.ID, "fid=16") {
		t.Errorf("best %+v, want a=9 from its exact 16-panel run", res.Best)
	}
	for id, n := range r.runs {
		if n != 1 {
			t.Errorf("%s ran %d times", id, n)
		}
	}
}

// TestSearchResumes: a second search given the first one's results runs nothing and
// finds the same point.
func TestSearchResumes(t *testing.T) {
	r := &fidelityRunner{panels: 100, bias: 1}
	pts := Points([]Axis{{"a", []string{"1", "2", "3"}}, {"b", []string{"1", "2", "3", "4"}}}, 0, 0)
	known := map[string]Result{}
	opt := SearchOptions{Fidelity: "fid", Whole: "0", Options: Options{Record: func(res Result) error {
		known[res.ID] = res
		return nil
	}}}
	first, err := Search(context.Background(), r, pts, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Record = nil
	opt.Known = func(id string) (Result, bool) { res, ok := known[id]; return res, ok }
	again, err := Search(context.Background(), r, pts, opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Evaluations != 0 || again.Best.ID != first.Best.ID || again.Panels != first.Panels {
		t.Errorf("resumed: %d evaluations, best %s (first %s), panels %d (first %d)",
			again.Evaluations, again.Best.ID, first.Best.ID, again.Panels, first.Panels)
	}
}

func TestSearchErrors(t *testing.T) {
	r := &fidelityRunner{panels: 100, fail: "2"}
	pts := Points([]Axis{{"a", []string{"1", "2"}}}, 0, 0)
	// Failed points rank last and are not kept: a=1 alone reaches the whole rung.
	res, err := Search(context.Background(), r, pts, SearchOptions{Fidelity: "fid", Whole: "0", Finalists: 1})
	if err != nil || res.Best.Gflops != 1 {
		t.Errorf("best %+v, err %v; want a=1", res.Best, err)
	}
	all := &fidelityRunner{panels: 100, fail: "1"}
	if _, err := Search(context.Background(), all, pts[:1], SearchOptions{Fidelity: "fid", Whole: "0"}); err == nil || !strings.Contains(err.Error(), "no point evaluated successfully") {
		t.Errorf("all failing: %v", err)
	}
	own := Points([]Axis{{"fid", []string{"4"}}}, 0, 0)
	if _, err := Search(context.Background(), r, own, SearchOptions{Fidelity: "fid", Whole: "0"}); err == nil || !strings.Contains(err.Error(), "sets the fidelity key") {
		t.Errorf("point setting the fidelity: %v", err)
	}
	if _, err := Search(context.Background(), r, pts, SearchOptions{}); err == nil {
		t.Error("no fidelity key: no error")
	}
}
