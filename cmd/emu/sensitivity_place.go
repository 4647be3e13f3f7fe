package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// placeBudget is how many placements --place evaluates at most: each is one
// pass over the graph.
const placeBudget = 20000

// placement is what --place found.
type placement struct {
	hosts        []int // host of each rank
	before, best float64
	swaps, evals int
}

// placeRanks searches, on the recorded per-class graph, for a placement of
// the ranks on the hosts they occupy that lowers T (LLAMP Appendix J): swaps
// of two ranks on different hosts, each kept when the graph's T drops, pass
// after pass until a pass keeps none or placeBudget evaluations are spent.
// Swaps keep every host's number of ranks, so the placement fits wherever the
// run's did. A swap's T comes from the graph (each message's latency scaled
// to the route between its ranks' new hosts), a first-order answer that the
// caller checks by re-emulating.
func placeRanks(cg *observe.ClassGraph, plat *platform.Platform, ranks int) (placement, error) {
	topo, err := plat.Build()
	if err != nil {
		return placement{}, err
	}
	hosts := plat.Placement(ranks)
	// Swaps keep the set of hosts, so their route latencies are a dense
	// table over it, and each rank holds its host's place in that set: a
	// placement's evaluation asks a route for every message edge.
	var used []int
	at := make([]int, ranks) // rank → index in used
	index := map[int]int{}
	for r, h := range hosts {
		k, ok := index[h]
		if !ok {
			k = len(used)
			index[h] = k
			used = append(used, h)
		}
		at[r] = k
	}
	nh := len(used)
	lat := make([]float64, nh*nh)
	for a, ha := range used {
		for b, hb := range used {
			lat[a*nh+b] = topo.Route(ha, hb).Latency
		}
	}
	route := func(a, b int) float64 { return lat[at[a]*nh+at[b]] }
	pl := sensitivity.NewPlacer(cg.Graph, cg.Graph.Baseline(), cg.Link)
	p := placement{}
	p.before = pl.Runtime(route)
	p.best, p.evals = p.before, 1
	for improved := true; improved && p.evals < placeBudget; {
		improved = false
		for i := 0; i < ranks && p.evals < placeBudget; i++ {
			for j := i + 1; j < ranks && p.evals < placeBudget; j++ {
				if at[i] == at[j] {
					continue
				}
				at[i], at[j] = at[j], at[i]
				t := pl.Runtime(route)
				p.evals++
				if t < p.best*(1-1e-12) {
					p.best, improved = t, true
					p.swaps++
					continue
				}
				at[i], at[j] = at[j], at[i]
			}
		}
	}
	for r, k := range at {
		hosts[r] = used[k]
	}
	p.hosts = hosts
	return p, nil
}

// hostfile is the placement as an smpirun hostfile: rank r on line r.
func hostfile(plat *platform.Platform, hosts []int) []byte {
	var b strings.Builder
	for _, h := range hosts {
		b.WriteString(plat.HostName(h))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// reportPlacement runs --place: the search, the hostfile (staged in st), and
// a re-emulation with it that says what the placement is worth. The
// re-emulation reads a private copy: the staged file is renamed only when the
// command succeeds, and a --place that is a pipe cannot be read back.
func reportPlacement(out io.Writer, st *staging, path string, sf *scenarioFlags, file string, plan *scenario.Plan, res *runner.Result) error {
	if res.ClassGraph == nil {
		return fmt.Errorf("--place: needs the per-link-class graph of --latency wire")
	}
	p, err := placeRanks(res.ClassGraph, &plan.Platform, res.Ranks)
	if err != nil {
		return err
	}
	text := hostfile(&plan.Platform, p.hosts)
	if err := st.write(path, func(w io.Writer) error {
		_, err := w.Write(text)
		return err
	}); err != nil {
		return outputFailed("--place", path, err)
	}
	cp, err := os.CreateTemp("", "emu-place-*.txt")
	if err != nil {
		return asFailure(err)
	}
	defer os.Remove(cp.Name())
	_, err = cp.Write(text)
	if cerr := cp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return asFailure(err)
	}
	again := *sf
	again.sets = append(append([]string(nil), sf.sets...), "platform.hostfile="+strconv.Quote(cp.Name()), `platform.placement="block"`)
	plan2, err := again.plan(file)
	if err != nil {
		// The run's scenario validated: a placement it refuses is emu's fault.
		return asFailure(fmt.Errorf("--place %s: re-emulating with the placement: %w", path, err))
	}
	res2, err := runner.Run(plan2, runner.Options{})
	if err != nil {
		return runError(inPlatform(err, plan2))
	}
	fmt.Fprintf(out, "\nplacement (--place %s): %d swaps of ranks between hosts in %d graph evaluations; T on the graph %s → %s (%+.2f%%); re-emulated with it: %s (%+.2f%% against the run's %s)\n",
		path, p.swaps, p.evals, sensitivity.FormatSeconds(p.before), sensitivity.FormatSeconds(p.best), 100*(p.best/p.before-1),
		sensitivity.FormatSeconds(res2.SimulatedTime), 100*(res2.SimulatedTime/res.SimulatedTime-1), sensitivity.FormatSeconds(res.SimulatedTime))
	return nil
}
