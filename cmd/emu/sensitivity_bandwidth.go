package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/sensitivity"
)

// bandwidthClass is one link class's bandwidth tolerances (JSON "bandwidth"):
// each found by re-emulation, with the graph's prediction beside it, and every
// re-emulated point of the class with the graph's T there.
type bandwidthClass struct {
	Class     int                              `json:"class"` // in the per-class graph, as in "classes"
	Name      string                           `json:"name"`
	Bandwidth float64                          `json:"bandwidth_Bps"` // the run's
	Tolerance []sensitivity.BandwidthTolerance `json:"tolerance"`
	Emulated  []bandwidthPoint                 `json:"emulated"`
	// The graph's view (bandwidth time of messages crossing the class scaled):
	// dT/dG at the run's bandwidth (bytes) and the bandwidths where its T(G)
	// changes slope, down to b0/1024.
	LambdaG  float64                      `json:"lambda_G"`
	Critical []float64                    `json:"critical_bandwidths_Bps"`
	Pieces   []sensitivity.BandwidthPiece `json:"graph_pieces"` // its T(s), s = b0/b: each piece from its scale on
}

// bandwidthPoint is T at one bandwidth of the class: re-emulated and the graph's.
type bandwidthPoint struct {
	Bandwidth float64 `json:"bandwidth_Bps"`
	G         float64 `json:"G_s_per_B"`
	Emulated  float64 `json:"runtime_s"`
	Predicted float64 `json:"predicted_s"`
}

// bandwidthTolerances searches each link class the run's messages crossed for
// the tolerances pcts by re-emulating with that class's links at other
// bandwidths (runner.Options.ClassBandwidth), and reads the graph's
// answer from the per-class graph (sensitivity.RestScaled).
func bandwidthTolerances(r rerun, res *runner.Result, pcts []float64) ([]bandwidthClass, error) {
	plan, err := r.plan()
	if err != nil {
		return nil, err
	}
	topo, err := plan.Platform.Build()
	if err != nil {
		return nil, err
	}
	names, bws := fluid.ClassBandwidths(topo)
	cg := res.ClassGraph
	if cg == nil {
		return nil, fmt.Errorf("--bandwidth-tolerance: the run recorded no per-class graph")
	}
	lat := cg.Graph.Baseline()
	var out []bandwidthClass
	for i, name := range names {
		c, ok := cg.Class(name)
		if !ok || !(bws[i] > 0) {
			continue // no message crossed it, or it has no bandwidth to lower
		}
		b0 := bws[i]
		bc := bandwidthClass{Class: c, Name: name, Bandwidth: b0}
		// The graph's answer first: it is the search's first guess.
		smax := 1 / sensitivity.DefaultBandwidthFloor
		pieces, err := sensitivity.BandwidthPieces(cg.Graph, lat, c, smax)
		if err != nil {
			return nil, asFailure(fmt.Errorf("class %s: %w", name, err))
		}
		bc.LambdaG, bc.Pieces = pieces[0].Slope*b0, pieces
		for _, pc := range pieces[1:] {
			bc.Critical = append(bc.Critical, b0/pc.Scale)
		}
		guess := func(pct float64) float64 {
			if s := sensitivity.ScaleAtTolerance(pieces, pct, smax); s != nil {
				return b0 / *s
			}
			return 0
		}
		seen := map[float64]float64{b0: res.SimulatedTime}
		tols, _, err := sensitivity.SearchBandwidthTolerances(sensitivity.BandwidthSearch{B0: b0, T0: res.SimulatedTime, Guess: guess}, pcts,
			func(b float64) (float64, error) {
				r.say("--bandwidth-tolerance: re-emulating with the %s links at %s", name, formatBps(&b))
				q, err := r.plan()
				if err != nil {
					return 0, err
				}
				rr, err := runner.Run(q, runner.Options{ClassBandwidth: map[string]float64{name: b}})
				if err != nil {
					return 0, err
				}
				seen[b] = rr.SimulatedTime
				return rr.SimulatedTime, nil
			})
		if err != nil {
			return nil, asFailure(fmt.Errorf("class %s: %w", name, err))
		}
		for k := range tols {
			if b := guess(tols[k].Percent); b > 0 {
				tols[k].Predicted = &b
			}
		}
		bc.Tolerance = tols
		// The graph at the run's own latencies gives T0 only up to the probe
		// time it does not see; its prediction is that T scaled to the run.
		t0 := cg.Graph.Runtime(lat)
		for b, t := range seen {
			p := cg.Graph.RestScaled(c, b0/b).Runtime(lat) * res.SimulatedTime / t0
			bc.Emulated = append(bc.Emulated, bandwidthPoint{Bandwidth: b, G: 1 / b, Emulated: t, Predicted: p})
		}
		sort.Slice(bc.Emulated, func(i, j int) bool { return bc.Emulated[i].Bandwidth > bc.Emulated[j].Bandwidth })
		out = append(out, bc)
	}
	return out, nil
}

// writeBandwidth prints each class's tolerances and re-emulated points.
func writeBandwidth(w io.Writer, classes []bandwidthClass) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "\nbandwidth tolerance per link class (re-emulated, the other classes held; the graph's answer beside):\n")
	fmt.Fprintf(tw, "class\tbandwidth\ttolerance\tleast bandwidth\texceeded at\temulations\tgraph predicts\n")
	var beyond []string // classes with a tolerance not reached above the floor
	for _, bc := range classes {
		reached := true
		for _, t := range bc.Tolerance {
			fmt.Fprintf(tw, "%s\t%s\t%g%%\t%s\t%s\t%d\t%s\n", bc.Name, formatBps(&bc.Bandwidth), t.Percent,
				formatBps(t.Bandwidth), formatBps(t.Exceeded), t.Emulations, formatBps(t.Predicted))
			reached = reached && t.Bandwidth != nil
		}
		if !reached {
			floor := bc.Bandwidth * sensitivity.DefaultBandwidthFloor
			beyond = append(beyond, bc.Name+": "+formatBps(&floor))
		}
	}
	if len(beyond) > 0 {
		fmt.Fprintf(tw, "—: T stays within the tolerance down to the search's floor, 1/%g of the class's bandwidth (%s)\n",
			1/sensitivity.DefaultBandwidthFloor, strings.Join(beyond, ", "))
	}
	for _, bc := range classes {
		floor := bc.Bandwidth * sensitivity.DefaultBandwidthFloor
		fmt.Fprintf(tw, "\n%s: the graph's λ_G = %.6g bytes; %d critical bandwidth(s) down to %s", bc.Name, bc.LambdaG, len(bc.Critical), formatBps(&floor))
		for i, b := range bc.Critical {
			if i == maxPrintedCritical {
				fmt.Fprintf(tw, " … (all in --json)")
				break
			}
			fmt.Fprintf(tw, " %s", formatBps(&b))
		}
		fmt.Fprintf(tw, "\n%s bandwidth\tG\tT (emulated)\tT (graph)\n", bc.Name)
		for _, p := range bc.Emulated {
			fmt.Fprintf(tw, "%s\t%.4g s/B\t%s\t%s\n", formatBps(&p.Bandwidth), p.G,
				sensitivity.FormatSeconds(p.Emulated), sensitivity.FormatSeconds(p.Predicted))
		}
	}
	return tw.Flush()
}

// maxPrintedCritical is how many critical bandwidths the table lists.
const maxPrintedCritical = 4

// formatBps prints a bandwidth in GB/s with 4 significant digits, "—" for none.
func formatBps(b *float64) string {
	if b == nil {
		return "—"
	}
	return fmt.Sprintf("%.4g GB/s", *b/1e9)
}
