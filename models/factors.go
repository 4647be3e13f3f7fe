package models

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// PingPong is one point-to-point measurement: a message of Bytes payload
// took Seconds one way (half a ping-pong round trip, as osu_latency reports).
type PingPong struct {
	Bytes   int
	Seconds float64
}

// FactorOptions describe the nominal network the factors correct.
type FactorOptions struct {
	Latency   float64 // nominal latency of the measured route, s (sum of its links')
	Bandwidth float64 // nominal bandwidth of its bottleneck link, B/s
	// Envelope is added to each payload before the factor lookup; SMPI sends
	// 16 bytes more than the MPI payload (reference/smpi-model.md §2.6).
	Envelope  int
	MaxPieces int // most size ranges (default 6)
}

// Factors are SMPI-style piecewise latency and bandwidth factors: for a wire
// size s with Bounds[i] < s ≤ Bounds[i+1] (the last range unbounded) the
// transfer time is Latency[i]·L + s / (Bandwidth[i]·B).
type Factors struct {
	Bounds    []int // wire sizes in bytes; Bounds[0] is 0
	Latency   []float64
	Bandwidth []float64
	// Quality is of the fitted times against the measurements; its CVRMSE,
	// CVRel (median) and CVTotal are cross-validated by size: each size's
	// measurements predicted by the factors refitted without that size
	// (without its fold of sizes when there are more than 30).
	Quality Quality
	// CVMean and CVMax are the mean and the largest |predicted / measured −
	// 1| over the held-out measurements; CVHeld is how many were held out,
	// 0 when the sizes are too few to refit without one (then no CV figure
	// is set); CVFolds is how many refits there were, one per size up to 30
	// sizes, else 10.
	CVMean, CVMax   float64
	CVHeld, CVFolds int
}

// LatencyTable is the "size:factor;..." form of network/latency-factor
// (scenario key network.lat_factor).
func (f Factors) LatencyTable() string { return factorTable(f.Bounds, f.Latency) }

// BandwidthTable is the "size:factor;..." form of network/bandwidth-factor.
func (f Factors) BandwidthTable() string { return factorTable(f.Bounds, f.Bandwidth) }

func factorTable(bounds []int, v []float64) string {
	parts := make([]string, len(bounds))
	for i, b := range bounds {
		parts[i] = strconv.Itoa(b) + ":" + strconv.FormatFloat(v[i], 'g', 6, 64)
	}
	return strings.Join(parts, ";")
}

// Time is the modelled one-way time of a payload of the given bytes (s).
func (f Factors) Time(bytes int, opts FactorOptions) float64 {
	s := bytes + opts.Envelope
	i := 0
	for i+1 < len(f.Bounds) && s > f.Bounds[i+1] {
		i++
	}
	return f.Latency[i]*opts.Latency + float64(s)/(f.Bandwidth[i]*opts.Bandwidth)
}

// factorMinPiece is the fewest ping-pong sizes a range of fitted factors
// holds: two points fit any line, the third tests it.
const factorMinPiece = 3

// FitFactors fits T(s) = a + b·s on size ranges found from the data (the
// segmented regression of Mp, BIC choosing the number of ranges), then
// turns each range's a and b into factors of the nominal latency and
// bandwidth: latency factor a/L, bandwidth factor 1/(b·B). A range where the
// time does not grow with size gets bandwidth factor 1 (the size term is
// negligible there); a negative intercept gets latency factor 0. Its
// cross-validation leaves each size out in turn (ten folds of sizes beyond
// 30 sizes), refits (ranges and all) and predicts the sizes left out.
func FitFactors(points []PingPong, opts FactorOptions) (Factors, error) {
	f, err := fitFactorTables(points, opts)
	if err != nil {
		return Factors{}, err
	}
	// Quality of the factor model itself against the points.
	var sse, sum, sum2 float64
	for _, p := range points {
		r := p.Seconds - f.Time(p.Bytes, opts)
		sse += r * r
		sum += p.Seconds
		sum2 += p.Seconds * p.Seconds
	}
	n := float64(len(points))
	f.Quality = Quality{Family: "Mp-N1", N: len(points), Params: 3*len(f.Bounds) - 1, RMSE: math.Sqrt(sse / n)}
	if v := sum2/n - (sum/n)*(sum/n); v > 0 {
		f.Quality.R2 = 1 - sse/n/v
	}
	f.crossValidate(points, opts)
	return f, nil
}

// factorCVSizes is the most sizes cross-validated one by one; beyond it the
// sizes go into factorCVFolds interleaved folds, so that a ping-pong of
// thousands of sizes costs ten refits, not thousands.
const (
	factorCVSizes = 30
	factorCVFolds = 10
)

// crossValidate sets the cross-validation figures: the sizes, sorted, are
// held out one by one (leave-one-size-out; every factorCVFolds-th size
// together when there are more than factorCVSizes), the factors refitted on
// the others (ranges chosen afresh, as a user refitting without them would
// get) predict the held-out measurements. A refit that fails (too few sizes
// left) leaves every CV figure unset.
func (f *Factors) crossValidate(points []PingPong, opts FactorOptions) {
	var sizes []int
	for _, p := range points {
		sizes = append(sizes, p.Bytes)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	folds := len(sizes)
	if folds > factorCVSizes {
		folds = factorCVFolds
	}
	if folds < 2 {
		return
	}
	fold := make(map[int]int, len(sizes)) // size → its fold
	for i, s := range sizes {
		fold[s] = i % folds
	}
	var rel []float64
	var sse, pred, meas float64
	rest := make([]PingPong, 0, len(points))
	for k := range folds {
		rest = rest[:0]
		for _, p := range points {
			if fold[p.Bytes] != k {
				rest = append(rest, p)
			}
		}
		g, err := fitFactorTables(rest, opts)
		if err != nil {
			return
		}
		for _, p := range points {
			if fold[p.Bytes] != k {
				continue
			}
			t := g.Time(p.Bytes, opts)
			sse += (t - p.Seconds) * (t - p.Seconds)
			pred += t
			meas += p.Seconds
			rel = append(rel, math.Abs(t/p.Seconds-1))
		}
	}
	n := float64(len(rel))
	f.Quality.CVRMSE = math.Sqrt(sse / n)
	f.Quality.CVTotal = math.Abs(pred/meas - 1)
	f.CVHeld, f.CVFolds = len(rel), folds
	for _, r := range rel {
		f.CVMean += r / n
		f.CVMax = math.Max(f.CVMax, r)
	}
	slices.Sort(rel)
	f.Quality.CVRel = rel[len(rel)/2]
	if len(rel)%2 == 0 {
		f.Quality.CVRel = (rel[len(rel)/2-1] + rel[len(rel)/2]) / 2
	}
}

// fitFactorTables is FitFactors without the quality figures.
func fitFactorTables(points []PingPong, opts FactorOptions) (Factors, error) {
	if !(opts.Latency > 0) || !(opts.Bandwidth > 0) || !finite(opts.Latency) || !finite(opts.Bandwidth) {
		return Factors{}, fmt.Errorf("models: network factors need the nominal latency (%g s) and bandwidth (%g B/s) to be positive", opts.Latency, opts.Bandwidth)
	}
	if opts.Envelope < 0 {
		return Factors{}, errors.New("models: negative message envelope")
	}
	if opts.MaxPieces <= 0 {
		opts.MaxPieces = 6
	}
	data := make([]Sample, len(points))
	for i, p := range points {
		if p.Bytes < 0 || !(p.Seconds > 0) || !finite(p.Seconds) {
			return Factors{}, fmt.Errorf("models: ping-pong point %d: %d bytes in %g s (want bytes ≥ 0 and a positive finite time)", i, p.Bytes, p.Seconds)
		}
		s := float64(p.Bytes + opts.Envelope)
		data[i] = Sample{Vars: Vars{N: s, W: s}, Seconds: p.Seconds}
	}
	if err := checkSamples(data); err != nil {
		return Factors{}, fmt.Errorf("models: network factors: %w", err)
	}
	// A ping-pong is usually one mean time per size, sizes in powers of two
	// (osu_latency, mpibench): a range of SMPI's table may hold only a few
	// sizes (64 KiB to 4 MiB: 7). A range is a line, so three points are the
	// fewest that show whether it fits; BIC keeps a range only where it pays.
	fc := &fitContext{opts: FitOptions{MaxPieces: opts.MaxPieces}.withDefaults(), product: term{0, 1, 0, 0}, minPiece: factorMinPiece}
	sg, err := fc.segment(data, 1)
	if err != nil {
		return Factors{}, fmt.Errorf("models: network factors: %w", err)
	}
	var f Factors
	bounds := append(append([]int{0}, sg.cuts...), len(data))
	for i := 0; i+1 < len(bounds); i++ {
		seg := make([]Sample, 0, bounds[i+1]-bounds[i])
		w := make([]float64, 0, cap(seg))
		for _, j := range sg.order[bounds[i]:bounds[i+1]] {
			seg = append(seg, data[j])
			w = append(w, 1/(data[j].Seconds*data[j].Seconds))
		}
		p, err := fitPoly(seg, []term{fc.product}, w)
		if err != nil {
			return Factors{}, fmt.Errorf("models: network factors: %w", err)
		}
		a, b := p.intercept, p.coef[0]
		bw := 1.0
		if b > 0 {
			bw = 1 / (b * opts.Bandwidth)
		} else {
			c, err := fitPoly(seg, nil, w) // flat range: latency only
			if err != nil {
				return Factors{}, err
			}
			a = c.intercept - meanSize(seg)/opts.Bandwidth
		}
		bound := 0
		if i > 0 {
			// SMPI's chunk "b:v" applies to sizes > b: b is the largest size
			// of the range below.
			bound = int(data[sg.order[bounds[i]-1]].Vars.N)
		}
		f.Bounds = append(f.Bounds, bound)
		f.Latency = append(f.Latency, math.Max(a, 0)/opts.Latency)
		f.Bandwidth = append(f.Bandwidth, bw)
	}
	return f, nil
}

func meanSize(seg []Sample) float64 {
	s := 0.0
	for _, x := range seg {
		s += x.Vars.N
	}
	return s / float64(len(seg))
}
