package models_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/models/modelstest"
)

// TestFitFactorsRecovers draws one-way times from a known three-range factor
// table (shaped like SMPI's Stampede defaults: latency factor 2 → 3.5 → 11.6,
// bandwidth factor 0.3 → 0.7 → 0.94) with 0.5% relative noise and fits it back.
func TestFitFactorsRecovers(t *testing.T) {
	opts := models.FactorOptions{Latency: 1e-6, Bandwidth: 1.25e10, Envelope: 16}
	truth := models.Factors{
		Bounds:    []int{0, 1024, 65536},
		Latency:   []float64{2.0, 3.5, 11.6},
		Bandwidth: []float64{0.3, 0.7, 0.94},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var pts []models.PingPong
	for range 1500 {
		b := int(modelstest.LogUniformInt(rng, 1, 4<<20))
		sec := truth.Time(b, opts) * (1 + 0.005*rng.NormFloat64())
		pts = append(pts, models.PingPong{Bytes: b, Seconds: sec})
	}
	got, err := models.FitFactors(pts, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lat %s\nbw  %s\n%+v", got.LatencyTable(), got.BandwidthTable(), got.Quality)
	if len(got.Bounds) != len(truth.Bounds) {
		t.Fatalf("%d ranges %v, want %d", len(got.Bounds), got.Bounds, len(truth.Bounds))
	}
	for i := range truth.Bounds {
		if i > 0 && modelstest.RelErr(float64(got.Bounds[i]), float64(truth.Bounds[i])) > breakTol {
			t.Errorf("bound %d = %d, want %d", i, got.Bounds[i], truth.Bounds[i])
		}
		if e := modelstest.RelErr(got.Latency[i], truth.Latency[i]); e > coefTol {
			t.Errorf("latency factor %d = %g, want %g", i, got.Latency[i], truth.Latency[i])
		}
		if e := modelstest.RelErr(got.Bandwidth[i], truth.Bandwidth[i]); e > coefTol {
			t.Errorf("bandwidth factor %d = %g, want %g", i, got.Bandwidth[i], truth.Bandwidth[i])
		}
	}
	if !strings.HasPrefix(got.LatencyTable(), "0:") || strings.Count(got.LatencyTable(), ";") != 2 {
		t.Errorf("latency table %q is not a three-chunk SMPI table", got.LatencyTable())
	}
}

// TestFitFactorsOnePointPerSize fits what osu_latency or mpibench print: one
// mean time per size, sizes in powers of two. A range of SMPI's table then
// holds few sizes (65536 to 4 MiB: six), and the fit must still find it: the
// exact law's times are recovered exactly, bounds and factors.
func TestFitFactorsOnePointPerSize(t *testing.T) {
	const exact = 1e-9 // the times are the law's own: only rounding is left
	cases := []struct {
		name  string
		sizes func() []int
		truth models.Factors
	}{
		{"osu sizes, three ranges", powersOfTwo(0, 22), models.Factors{
			Bounds: []int{0, 1024, 65536}, Latency: []float64{2, 5, 20}, Bandwidth: []float64{0.3, 0.6, 0.95}}},
		{"osu sizes, four ranges", powersOfTwo(0, 24), models.Factors{
			Bounds: []int{0, 256, 8192, 262144}, Latency: []float64{1.5, 3, 8, 15}, Bandwidth: []float64{0.2, 0.5, 0.8, 0.97}}},
		{"osu sizes, one range", powersOfTwo(0, 22), models.Factors{
			Bounds: []int{0}, Latency: []float64{3}, Bandwidth: []float64{0.9}}},
	}
	opts := models.FactorOptions{Latency: 1e-6, Bandwidth: 1e10}
	for _, c := range cases {
		var pts []models.PingPong
		for _, b := range c.sizes() {
			pts = append(pts, models.PingPong{Bytes: b, Seconds: c.truth.Time(b, opts)})
		}
		got, err := models.FitFactors(pts, opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.LatencyTable() != c.truth.LatencyTable() || got.BandwidthTable() != c.truth.BandwidthTable() {
			// The tables print 6 digits: equal tables are the law to 1e-6.
			t.Errorf("%s: fitted %q / %q, want %q / %q (R² %.4f)", c.name, got.LatencyTable(), got.BandwidthTable(),
				c.truth.LatencyTable(), c.truth.BandwidthTable(), got.Quality.R2)
			continue
		}
		for _, p := range pts {
			if e := modelstest.RelErr(got.Time(p.Bytes, opts), p.Seconds); e > exact {
				t.Errorf("%s: %d bytes: %g s, want %g", c.name, p.Bytes, got.Time(p.Bytes, opts), p.Seconds)
			}
		}
	}
}

// powersOfTwo lists 2^lo … 2^hi bytes.
func powersOfTwo(lo, hi int) func() []int {
	return func() []int {
		var out []int
		for e := lo; e <= hi; e++ {
			out = append(out, 1<<e)
		}
		return out
	}
}

func TestFactorsTime(t *testing.T) {
	// SMPI's worked example (reference/smpi-model.md §2.6): 1 MiB payload,
	// L = 100 µs, B = 125 MB/s, factors 11.6436 / 0.940694 above 65472 bytes:
	// T = 11.6436·1e-4 + 1048592/(0.940694·1.25e8) = 0.01008196 s.
	f := models.Factors{Bounds: []int{0, 65472}, Latency: []float64{2.01467, 11.6436}, Bandwidth: []float64{0.812084, 0.940694}}
	opts := models.FactorOptions{Latency: 1e-4, Bandwidth: 1.25e8, Envelope: 16}
	// The worked example is given to 8 decimals (s); the second case is
	// computed here the same way as by Time, up to rounding (s).
	const exampleTol, roundTol = 1e-8, 1e-12
	if got, want := f.Time(1<<20, opts), 0.01008196; math.Abs(got-want) > exampleTol {
		t.Errorf("Time(1 MiB) = %.8f, want %.8f", got, want)
	}
	// 65456 + 16 = 65472 is not above the bound: the first chunk applies.
	if got, want := f.Time(65456, opts), 2.01467e-4+65472/(0.812084*1.25e8); math.Abs(got-want) > roundTol {
		t.Errorf("Time(65456) = %g, want %g", got, want)
	}
}

func TestFitFactorsErrors(t *testing.T) {
	ok := []models.PingPong{{1, 1e-6}, {2, 1e-6}, {3, 1e-6}}
	cases := []struct {
		name string
		pts  []models.PingPong
		opts models.FactorOptions
	}{
		{"no latency", ok, models.FactorOptions{Bandwidth: 1e9}},
		{"no bandwidth", ok, models.FactorOptions{Latency: 1e-6}},
		{"negative bytes", []models.PingPong{{-1, 1e-6}, {2, 1e-6}, {3, 1e-6}}, models.FactorOptions{Latency: 1e-6, Bandwidth: 1e9}},
		{"zero time", []models.PingPong{{1, 0}, {2, 1e-6}, {3, 1e-6}}, models.FactorOptions{Latency: 1e-6, Bandwidth: 1e9}},
		{"too few", ok[:2], models.FactorOptions{Latency: 1e-6, Bandwidth: 1e9}},
	}
	for _, c := range cases {
		if _, err := models.FitFactors(c.pts, c.opts); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// looByHand is qa39's by-hand cross-validation, done apart from FitFactors'
// own: the sizes, sorted, go into folds (size i into fold i mod folds; one
// size a fold is leave-one-size-out), each fold is predicted by refit of the
// rest (any fitting procedure), and the error figures taken.
type looFigures struct {
	held                           int
	mean, median, max, rmse, total float64
}

func looByHand(t *testing.T, pts []models.PingPong, folds int, refit func([]models.PingPong) func(int) float64) looFigures {
	t.Helper()
	var sizes []int
	for _, p := range pts {
		if !slices.Contains(sizes, p.Bytes) {
			sizes = append(sizes, p.Bytes)
		}
	}
	slices.Sort(sizes)
	var rel []float64
	var f looFigures
	var pred, meas float64
	for k := range folds {
		out := func(b int) bool { return slices.Index(sizes, b)%folds == k }
		var rest []models.PingPong
		for _, p := range pts {
			if !out(p.Bytes) {
				rest = append(rest, p)
			}
		}
		at := refit(rest)
		for _, p := range pts {
			if out(p.Bytes) {
				y := at(p.Bytes)
				rel = append(rel, math.Abs(y-p.Seconds)/p.Seconds)
				f.rmse += (y - p.Seconds) * (y - p.Seconds)
				pred, meas = pred+y, meas+p.Seconds
			}
		}
	}
	f.held = len(rel)
	f.rmse = math.Sqrt(f.rmse / float64(len(rel)))
	f.total = math.Abs(pred/meas - 1)
	for _, r := range rel {
		f.mean += r / float64(len(rel))
		f.max = max(f.max, r)
	}
	slices.Sort(rel)
	if n := len(rel); n%2 == 1 {
		f.median = rel[n/2]
	} else {
		f.median = (rel[n/2-1] + rel[n/2]) / 2
	}
	return f
}

// wlsLine is the one-range fit in closed form: T = a + b·s by least squares
// weighted 1/T² (relative errors), on wire sizes s = bytes + envelope.
func wlsLine(pts []models.PingPong, envelope int) func(int) float64 {
	var sw, sx, sy, sxx, sxy float64
	for _, p := range pts {
		w, x, y := 1/(p.Seconds*p.Seconds), float64(p.Bytes+envelope), p.Seconds
		sw, sx, sy, sxx, sxy = sw+w, sx+w*x, sy+w*y, sxx+w*x*x, sxy+w*x*y
	}
	b := (sw*sxy - sx*sy) / (sw*sxx - sx*sx)
	a := (sy - b*sx) / sw
	return func(bytes int) float64 { return a + b*float64(bytes+envelope) }
}

// TestFitFactorsLeaveOneSizeOut: FitFactors' cross-validation is the by-hand
// procedure: drop each size, refit, predict it (beyond 30 sizes, ten folds of
// interleaved sizes: a fit of 1,500 sizes took 200 times as long one by one). With five sizes every refit is
// one range (a second needs three sizes more), so the refits are weighted
// lines in closed form; the size measured twice is left out whole. On a
// three-range law with noise the refits are FitFactors' own, ranges chosen
// afresh each time, as qa39's script did through the CLI. Three sizes leave
// too few to refit: no figure.
func TestFitFactorsLeaveOneSizeOut(t *testing.T) {
	opts := models.FactorOptions{Latency: 1e-6, Bandwidth: 1e10, Envelope: 16}
	line := []models.PingPong{{100, 1.12e-6}, {200, 1.19e-6}, {400, 1.45e-6}, {400, 1.38e-6}, {800, 1.78e-6}, {1600, 2.71e-6}}
	law := models.Factors{Bounds: []int{0, 1024, 65536}, Latency: []float64{2, 3.5, 11.6}, Bandwidth: []float64{0.3, 0.7, 0.94}}
	rng := rand.New(rand.NewPCG(5, 6))
	var ranges, many []models.PingPong
	for s := 1; s <= 4<<20; s *= 2 {
		ranges = append(ranges, models.PingPong{Bytes: s, Seconds: law.Time(s, opts) * (1 + 0.02*rng.NormFloat64())})
	}
	for s := 1.0; s <= 4<<20; s *= 1.4 { // 44 sizes (1 thrice): ten folds of them
		b := int(s)
		many = append(many, models.PingPong{Bytes: b, Seconds: law.Time(b, opts) * (1 + 0.02*rng.NormFloat64())})
	}
	byFitFactors := func(rest []models.PingPong) func(int) float64 {
		g, err := models.FitFactors(rest, opts)
		if err != nil {
			t.Fatal(err)
		}
		return func(b int) float64 { return g.Time(b, opts) }
	}
	for _, tc := range []struct {
		name  string
		pts   []models.PingPong
		folds int
		refit func([]models.PingPong) func(int) float64
	}{
		{"one range, closed form", line, 5, func(rest []models.PingPong) func(int) float64 { return wlsLine(rest, opts.Envelope) }},
		{"three ranges, refitted", ranges, 23, byFitFactors},
		{"44 sizes, ten folds", many, 10, byFitFactors},
		{"three sizes", []models.PingPong{{1, 1e-6}, {2, 1.1e-6}, {4, 1.3e-6}}, 0, nil},
	} {
		f, err := models.FitFactors(tc.pts, opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		q := f.Quality
		if tc.refit == nil {
			if f.CVHeld != 0 || f.CVMean != 0 || q.CVRMSE != 0 || q.CVRel != 0 {
				t.Errorf("%s: CV figures %d %g %g %g, want none", tc.name, f.CVHeld, f.CVMean, q.CVRMSE, q.CVRel)
			}
			continue
		}
		want := looByHand(t, tc.pts, tc.folds, tc.refit)
		got := looFigures{f.CVHeld, f.CVMean, q.CVRel, f.CVMax, q.CVRMSE, q.CVTotal}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
		if got.held != len(tc.pts) || f.CVFolds != tc.folds || !near(got.mean, want.mean) || !near(got.median, want.median) || !near(got.max, want.max) ||
			!near(got.rmse, want.rmse) || !near(got.total, want.total) {
			t.Errorf("%s: %d folds %+v, by hand %d folds %+v", tc.name, f.CVFolds, got, tc.folds, want)
		}
		t.Logf("%s: %d ranges, mean %.2f%% median %.2f%% max %.2f%%", tc.name, len(f.Bounds), 100*got.mean, 100*got.median, 100*got.max)
	}
}
