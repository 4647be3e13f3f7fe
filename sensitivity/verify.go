package sensitivity

import (
	"fmt"
	"math"
)

// Verified sensitivity for codes that adapt to timing. One recorded graph keeps
// one run's order of events; where the application decides by timing (HPL's ring
// broadcasts poll with MPI_Iprobe, and SimGrid's probe cost grows with every
// failed probe), the order changes with the latency and the graph's T(ℓ) departs
// from what re-emulating at ℓ gives: on HPL 4×4 1ringM with 1e-4 s probes the
// graph recorded at 1 µs is 13% under re-emulation from 3.5 µs on, and a graph
// recorded at 11 µs is 44% over at 6 µs (validation TestLLAMPInjection).
//
// Verify re-emulates at K latencies spread over the range, in increasing order.
// Each re-emulation is first predicted from what is known (the nearest lower
// anchor's graph, shifted by its residual); where the prediction departs by more
// than Depart the run's own graph is kept as a new anchor graph, otherwise the
// point joins the graph that predicted it. Between two anchors the verified curve
// is exact at both ends: the shared graph's T(ℓ) with its residual interpolated
// when one graph explains both (the curve keeps that graph's breakpoints), and
// the chord of the two emulated times when the graph departed — measured on the
// 4×4 case above, the chord is closer to re-emulation than either graph's shape
// (RRMSE 1.5% against 1.8% and 2.1% on the 11 points of 1–51 µs), since neither
// graph saw the probing order in between.

// Emulator re-runs the application with the swept latency at l (s) and returns
// its simulated time (s) and the execution graph that run recorded, whose
// Baseline has class 0 at l.
type Emulator func(l float64) (t float64, g *Graph, err error)

// VerifyParams says where and how often Verify re-emulates.
type VerifyParams struct {
	L0, T0     float64 // the recorded run: class-0 latency and simulated time, s
	Lmin, Lmax float64 // the range, s
	Points     int     // curve points over the range (0: 11)
	K          int     // re-emulations, ≥ 1
	// Depart is the relative gap |predicted − emulated|/emulated above which a
	// re-emulation's graph becomes an anchor graph (0: DefaultDepart).
	Depart float64
}

// DefaultDepart is the departure that records a new graph: LLAMP's 1% agreement.
const DefaultDepart = 0.01

// MaxVerify bounds Verify's re-emulations, as emu sensitivity bounds its
// curve's points: each is a whole run, and K latencies were allocated before
// the first (K = 2⁶³−1 panicked: makeslice, qa47).
const MaxVerify = 100_000

// VerifiedPoint is one re-emulation: the prediction made before it, from the
// graphs recorded at lower latencies, and what it gave.
type VerifiedPoint struct {
	L         float64 `json:"L_s"`
	Predicted float64 `json:"predicted_s"`
	Emulated  float64 `json:"emulated_s"`
	Recorded  bool    `json:"recorded"` // its graph was kept: the prediction departed
}

// VerifiedCurvePoint is one sample of the verified T(ℓ).
type VerifiedCurvePoint struct {
	L float64 `json:"L_s"`
	T float64 `json:"runtime_s"`
}

// Verification is the outcome of Verify.
type Verification struct {
	Points     []VerifiedPoint      `json:"verified"`
	Curve      []VerifiedCurvePoint `json:"verified_curve"`
	Graphs     int                  `json:"verify_graphs"`     // graphs the curve uses, the recorded run's included
	Emulations int                  `json:"verify_emulations"` // the recorded run and the re-emulations
}

// anchor is a latency whose time is known by emulation, with the graph that
// explains it and that graph's residual there (emulated − graph), s.
type anchor struct {
	l, t, off float64
	g         *Graph
}

// Verify runs p.K re-emulations of the application through emulate, at
// Lmin + i·(Lmax−Lmin)/K for i = 1..K when the recorded run is at Lmin (else
// K points from Lmin to Lmax), and returns the verified curve and points.
// g0 is the recorded run's graph (class 0 at p.L0, taking p.T0).
func Verify(g0 *Graph, p VerifyParams, emulate Emulator) (*Verification, error) {
	if p.Points == 0 {
		p.Points = 11
	}
	if p.Depart == 0 {
		p.Depart = DefaultDepart
	}
	switch {
	case p.K < 1 || p.K > MaxVerify:
		return nil, fmt.Errorf("sensitivity: %d re-emulations to verify with, want 1 to %d", p.K, MaxVerify)
	case !(p.Lmin >= 0) || !(p.Lmax >= p.Lmin) || math.IsInf(p.Lmax, 1):
		return nil, fmt.Errorf("sensitivity: verify range %v..%v s, want 0 ≤ Lmin ≤ Lmax, finite", p.Lmin, p.Lmax)
	case p.Points < 2 && p.Lmax > p.Lmin:
		return nil, fmt.Errorf("sensitivity: %d curve points, want ≥ 2", p.Points)
	case !(p.Depart > 0):
		return nil, fmt.Errorf("sensitivity: departure %v, want > 0", p.Depart)
	}
	anchors := []anchor{{l: p.L0, t: p.T0, off: p.T0 - scaledRuntime(g0, p.L0), g: g0}}
	v := &Verification{Graphs: 1, Emulations: 1}
	for _, l := range verifyLatencies(p) {
		pred := verified(anchors, l)
		t, g, err := emulate(l)
		if err != nil {
			return nil, fmt.Errorf("sensitivity: re-emulating at %v s: %w", l, err)
		}
		v.Emulations++
		a := anchor{l: l, t: t}
		departed := !(math.Abs(pred-t) <= p.Depart*math.Abs(t))
		if departed && g != nil {
			a.g = g
			v.Graphs++
		} else {
			a.g = nearest(anchors, l).g // the graph that predicted it
		}
		a.off = t - scaledRuntime(a.g, l)
		anchors = insertAnchor(anchors, a)
		v.Points = append(v.Points, VerifiedPoint{L: l, Predicted: pred, Emulated: t, Recorded: a.g == g && g != nil})
	}
	n := p.Points
	if p.Lmax == p.Lmin {
		n = 1
	}
	for i := range n {
		l := p.Lmin
		if n > 1 {
			l = p.Lmin + (p.Lmax-p.Lmin)*float64(i)/float64(n-1)
		}
		if i == n-1 {
			l = p.Lmax
		}
		v.Curve = append(v.Curve, VerifiedCurvePoint{L: l, T: verified(anchors, l)})
	}
	return v, nil
}

// verifyLatencies are the K latencies Verify re-emulates at, increasing.
func verifyLatencies(p VerifyParams) []float64 {
	out := make([]float64, 0, p.K)
	if p.L0 == p.Lmin || p.K == 1 {
		for i := 1; i <= p.K; i++ {
			out = append(out, p.Lmin+(p.Lmax-p.Lmin)*float64(i)/float64(p.K))
		}
		return out
	}
	for i := range p.K {
		out = append(out, p.Lmin+(p.Lmax-p.Lmin)*float64(i)/float64(p.K-1))
	}
	return out
}

// insertAnchor keeps anchors sorted by latency.
func insertAnchor(as []anchor, a anchor) []anchor {
	i := len(as)
	for i > 0 && as[i-1].l > a.l {
		i--
	}
	as = append(as, anchor{})
	copy(as[i+1:], as[i:])
	as[i] = a
	return as
}

// nearest is the anchor whose graph predicts l: the last one at or below it,
// the first one if l lies below all.
func nearest(as []anchor, l float64) anchor {
	k := 0
	for i, a := range as {
		if a.l <= l {
			k = i
		}
	}
	return as[k]
}

// verified is the verified T at l from sorted anchors (see the comment at the
// top of the file): a graph's T shifted by its residual outside the anchors,
// and between two anchors the shared graph with its residual interpolated, or
// the chord of the emulated times when they have different graphs.
func verified(as []anchor, l float64) float64 {
	b := len(as)
	for i, a := range as {
		if a.l > l {
			b = i
			break
		}
	}
	switch {
	case b == 0:
		return scaledRuntime(as[0].g, l) + as[0].off
	case b == len(as):
		a := as[b-1]
		return scaledRuntime(a.g, l) + a.off
	}
	lo, hi := as[b-1], as[b]
	w := (l - lo.l) / (hi.l - lo.l)
	if lo.g == hi.g {
		return scaledRuntime(lo.g, l) + lo.off + w*(hi.off-lo.off)
	}
	return lo.t + w*(hi.t-lo.t)
}

// scaledRuntime is T of g at class-0 latency l with every other class scaled
// with it from g's baseline (ℓ_c·l/ℓ_0: SMPI's latency-factor classes move with
// the link latency as re-emulation moves them); without a baseline, or with
// class 0 at 0, class 0 is l and the others are 0 or held.
func scaledRuntime(g *Graph, l float64) float64 {
	base := g.Baseline()
	if len(base) == 0 {
		return g.Runtime([]float64{l})
	}
	lat := make([]float64, len(base))
	copy(lat, base)
	if base[0] > 0 {
		for c := range lat {
			lat[c] = base[c] * l / base[0]
		}
	}
	lat[0] = l
	return g.Runtime(lat)
}
