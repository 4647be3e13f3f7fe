package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/emu-hpc/emu/internal/stats"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// --verify with --seeds or --perturb: where a run is chaotic (HPL's probing
// broadcasts under SimGrid's growing probe cost: 8×8 moves by 13% when its
// links move by parts in 10⁹) no curve can be within 1% of single
// re-emulations, since a single run is itself that far from its neighbours.
// Each re-emulation is then an ensemble, and the verified curve is compared
// with its median; the ensemble at L0 gives the noise floor, half its 90% band
// over its median, and a prediction is accepted within the larger of 1% and
// that floor: sensitivity.Verify records a new graph only beyond it.

// verifyEnsemble is the ensembles' part of --verify's JSON.
type verifyEnsemble struct {
	Runs int    `json:"runs"` // runs per latency
	What string `json:"what"` // which runs, in words
	// NoiseFloor is half the p05–p95 band of the simulated time over its
	// median, at L0, relative.
	NoiseFloor float64 `json:"noise_floor"`
	// Accept is the relative gap between prediction and median accepted:
	// max(1%, NoiseFloor).
	Accept float64 `json:"accept"`
	// Points are L0's ensemble, then each re-emulated latency's, in the
	// order run.
	Points []ensemblePoint `json:"points"`
}

// ensemblePoint is one latency's ensemble and what Verify predicted there.
type ensemblePoint struct {
	L         float64       `json:"L_s"`
	T         stats.Summary `json:"runtime_s"`
	Predicted float64       `json:"predicted_s,omitempty"` // 0 at L0
	Within    string        `json:"within,omitempty"`      // "1%", "noise floor" or "departed" (a new graph); "" at L0
}

// verifyEnsembles is --verify with an ensemble at L0 and at each latency.
func (ex *sensitivityExtras) verifyEnsembles(out io.Writer, doc *sensitivityJSON, r rerun, plan *scenario.Plan, res *runner.Result, p sensitivity.Params, spec *ensembleSpec) error {
	var what, same string // same: why L0's runs came out identical ("" if not)
	// at runs the ensemble with the link latency set to lat ("" for the
	// scenario's own: L0 as the run had it, to the bit); member 0 records
	// the graph when graph is set.
	at := func(lat string, graph bool) (stats.Summary, *runner.Result, error) {
		replan := func(extra ...string) (*scenario.Plan, error) {
			if lat != "" {
				extra = append([]string{"network.link_latency=" + lat}, extra...)
			}
			return r.plan(extra...)
		}
		base, err := replan()
		if err != nil {
			return stats.Summary{}, nil, err
		}
		e, err := newEnsemble(spec, base, "", replan)
		if err != nil {
			return stats.Summary{}, nil, err
		}
		opt := runner.Options{}
		if graph {
			opt = runner.Options{Graph: true, GraphLatency: r.mode}
		}
		first, err := e.run(base, opt, nil)
		if err != nil {
			return stats.Summary{}, nil, asFailure(err)
		}
		times := make([]float64, len(e.results))
		for i, rr := range e.results {
			times[i] = rr.SimulatedTime
		}
		what = e.describe()
		if lat == "" {
			same = e.identicalWhy()
		}
		return stats.SummarizeNonNegative(times), first, nil
	}
	r.say("--verify: an ensemble of %d runs at L0 = %s", spec.runs(), sensitivity.FormatSeconds(p.L0))
	s0, _, err := at("", false)
	if err != nil {
		return err
	}
	if same != "" {
		r.say("--verify: the %d runs at L0 are identical, so the noise floor is 0: %s", spec.runs(), same)
	}
	ve := &verifyEnsemble{Runs: spec.runs(), What: what, NoiseFloor: s0.Spread(), Points: []ensemblePoint{{L: p.L0, T: s0}}}
	ve.Accept = math.Max(sensitivity.DefaultDepart, ve.NoiseFloor)
	v, err := sensitivity.Verify(res.Graph, sensitivity.VerifyParams{
		L0: p.L0, T0: s0.Median, Lmin: p.Lmin, Lmax: p.Lmax, Points: p.Points, K: ex.verify, Depart: ve.Accept,
	}, func(l float64) (float64, *sensitivity.Graph, error) {
		r.say("--verify: an ensemble of %d runs at link latency %s", spec.runs(), sensitivity.FormatSeconds(l))
		s, first, err := at(strconv.FormatFloat(l, 'g', -1, 64)+"s", true)
		if err != nil {
			return 0, nil, err
		}
		ve.Points = append(ve.Points, ensemblePoint{L: l, T: s})
		return s.Median, first.Graph, nil
	})
	if err != nil {
		return asFailure(err)
	}
	for i, pt := range v.Points {
		e := &ve.Points[i+1]
		e.Predicted, e.Within = pt.Predicted, withinWhat(pt.Predicted, pt.Emulated, ve.Accept)
	}
	doc.Verification, doc.VerifyEnsemble = v, ve
	return asFailure(writeVerifiedEnsemble(out, v, ve, p.L0))
}

// withinWhat says how close a prediction came to an ensemble's median: within
// 1%, within the noise floor (accept), or neither (Verify kept the run's graph).
func withinWhat(predicted, median, accept float64) string {
	gap := math.Abs(predicted-median) / math.Abs(median)
	switch {
	case gap <= sensitivity.DefaultDepart:
		return "1%"
	case gap <= accept:
		return "noise floor"
	}
	return "departed"
}

// writeVerifiedEnsemble prints the noise floor, each latency's ensemble beside
// its prediction, and the verified curve.
func writeVerifiedEnsemble(w io.Writer, v *sensitivity.Verification, ve *verifyEnsemble, l0 float64) error {
	s0 := ve.Points[0].T
	fmt.Fprintf(w, "\nverified against ensembles of %s at each latency; emulated = the ensemble's median (%d ensembles, %d graph(s))\n",
		ve.What, v.Emulations, v.Graphs)
	fmt.Fprintf(w, "noise floor at L0 = %s: ±%.2f%% (half the p05–p95 band, %s–%s, over the median %s); a prediction is accepted within %.2f%% (the larger of 1%% and the floor)\n",
		sensitivity.FormatSeconds(l0), 100*ve.NoiseFloor, sensitivity.FormatSeconds(s0.P05), sensitivity.FormatSeconds(s0.P95),
		sensitivity.FormatSeconds(s0.Median), 100*ve.Accept)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "L\tpredicted before\temulated (median)\tband (p05–p95)\toff\twithin\tgraph\n")
	for i, pt := range v.Points {
		e := ve.Points[i+1]
		kept := "explained"
		if pt.Recorded {
			kept = "recorded"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s–%s\t%+.2f%%\t%s\t%s\n", sensitivity.FormatSeconds(pt.L), sensitivity.FormatSeconds(pt.Predicted),
			sensitivity.FormatSeconds(pt.Emulated), sensitivity.FormatSeconds(e.T.P05), sensitivity.FormatSeconds(e.T.P95),
			100*(pt.Predicted-pt.Emulated)/pt.Emulated, e.Within, kept)
	}
	fmt.Fprintf(tw, "\nL\tΔL\tT (verified)\n")
	for _, pt := range v.Curve {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sensitivity.FormatSeconds(pt.L), sensitivity.FormatSeconds(pt.L-l0), sensitivity.FormatSeconds(pt.T))
	}
	return tw.Flush()
}
