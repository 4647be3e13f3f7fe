package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/internal/stats"
	"github.com/emu-hpc/emu/runner"
)

// figure is one number a result object carries, named as its JSON field.
type figure struct {
	name  string
	value float64
}

// resultFigures are, for each object of res's "results" in order, a label for
// the text table and the figures an ensemble summarises (none for a null
// result: an HPL test skipped for memory); then the same for "jobs".
func resultFigures(res *runner.Result) (labels []string, figs [][]figure, jobLabels []string, jobFigs [][]figure) {
	add := func(label string, f ...figure) {
		labels, figs = append(labels, label), append(figs, f)
	}
	switch {
	case res.HPL != nil:
		for _, r := range res.HPL {
			if r == nil {
				add("")
				continue
			}
			add(fmt.Sprintf("%s N=%d NB=%d %dx%d", r.Variant, r.N, r.NB, r.P, r.Q), figure{"time_s", r.Time}, figure{"gflops", r.Gflops})
		}
	case res.Pingpong != nil:
		for _, r := range res.Pingpong {
			add(fmt.Sprintf("%d bytes", r.Bytes), figure{"one_way_s", r.OneWay}, figure{"bandwidth_Bps", r.Bandwidth})
		}
	case res.Ring != nil:
		for _, r := range res.Ring {
			add(fmt.Sprintf("%d bytes, %d ranks", r.Bytes, r.Ranks), figure{"lap_s", r.Lap})
		}
	case res.Replay != nil:
		add(res.Replay.File, figure{"time_s", res.Replay.Time})
	case res.Congestor != nil:
		add(res.Congestor.Pattern, figure{"time_s", res.Congestor.Time})
	}
	for _, j := range res.Jobs {
		f := []figure{{"time_s", j.Time}}
		if j.Alone > 0 { // run alone too (not --no-alone): what the others cost it
			f = append(f, figure{"alone_s", j.Alone}, figure{"slowdown", j.Slowdown})
		}
		jobLabels, jobFigs = append(jobLabels, j.Name), append(jobFigs, f)
	}
	return labels, figs, jobLabels, jobFigs
}

// summary is one result object's figures over the ensemble, in the object's
// order of figures.
type summary struct {
	label string
	names []string
	stats []stats.Summary
}

// jobOwnFigures are, for each [[jobs]] entry of res, resultFigures of the
// job's own results (a ring job's lap_s, an HPL job's time_s and gflops).
func jobOwnFigures(res *runner.Result) (labels [][]string, figs [][][]figure) {
	for _, j := range res.Jobs {
		var l []string
		var f [][]figure
		if j.Result != nil {
			l, f, _, _ = resultFigures(j.Result)
		}
		labels, figs = append(labels, l), append(figs, f)
	}
	return labels, figs
}

// summaries summarises the members' figures object by object; members that
// do not give the same objects and figures as member 0 are an error (emu's).
// jobOwn holds, job by job, the summaries of each job's own results.
func (e *ensemble) summaries() (results, jobs []summary, jobOwn [][]summary, sim stats.Summary, err error) {
	n := len(e.results)
	l0, f0, jl0, jf0 := resultFigures(e.results[0])
	ol0, of0 := jobOwnFigures(e.results[0])
	per := make([][][]figure, n) // member → object → figures
	perJob := make([][][]figure, n)
	perOwn := make([][][][]figure, n) // member → job → object → figures
	sims := make([]float64, n)
	for i, r := range e.results {
		_, f, _, jf := resultFigures(r)
		_, of := jobOwnFigures(r)
		same := sameShape(f, f0) && sameShape(jf, jf0) && len(of) == len(of0)
		for k := range of {
			same = same && sameShape(of[k], of0[k])
		}
		if !same {
			return nil, nil, nil, sim, fmt.Errorf("run %d of the ensemble gave other results than run 0 (%d objects, run 0 %d)", i, len(f), len(f0))
		}
		per[i], perJob[i], perOwn[i], sims[i] = f, jf, of, r.SimulatedTime
	}
	collect := func(labels []string, first [][]figure, per [][][]figure) []summary {
		out := make([]summary, len(first))
		for k, figs := range first {
			out[k].label = labels[k]
			for j, f := range figs {
				xs := make([]float64, n)
				for i := range n {
					xs[i] = per[i][k][j].value
				}
				out[k].names = append(out[k].names, f.name)
				out[k].stats = append(out[k].stats, stats.SummarizeNonNegative(xs))
			}
		}
		return out
	}
	for k := range of0 {
		own := make([][][]figure, n)
		for i := range n {
			own[i] = perOwn[i][k]
		}
		jobOwn = append(jobOwn, collect(ol0[k], of0[k], own))
	}
	return collect(l0, f0, per), collect(jl0, jf0, perJob), jobOwn, stats.SummarizeNonNegative(sims), nil
}

// sameShape reports whether two members' figures name the same things.
func sameShape(a, b [][]figure) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if len(a[k]) != len(b[k]) {
			return false
		}
		for j := range a[k] {
			if a[k][j].name != b[k][j].name {
				return false
			}
		}
	}
	return true
}

// describe says in words which runs the ensemble holds.
func (e *ensemble) describe() string {
	s := e.spec
	seeds := fmt.Sprintf("seeds %d to %d", e.seed, e.seed+uint64(s.seeds-1))
	if s.seeds == 1 {
		seeds = fmt.Sprintf("seed %d", e.seed)
	}
	var what string
	switch {
	case s.perturb && s.copies == 1: // --perturb 1: the run as written alone
		what = seeds + ", not perturbed"
	case s.perturb && s.seeds > 1:
		what = fmt.Sprintf("%s, each as written and in %s", seeds, copies(s.copies-1, "perturbed "))
	case s.perturb:
		what = fmt.Sprintf("%s as written and in %s with every link moved by parts in 10⁹", seeds, copies(s.copies-1, ""))
	default:
		what = seeds
	}
	return fmt.Sprintf("%s (%s)", runsWord(s.runs()), what)
}

// runsWord is "1 run" or "n runs".
func runsWord(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// copies is "1 copy" or "n copies", with adj before the noun.
func copies(n int, adj string) string {
	if n == 1 {
		return "1 " + adj + "copy"
	}
	return fmt.Sprintf("%d %scopies", n, adj)
}

// writeTable prints the ensemble's table after the report: one row per figure
// of each result, a row for the simulated time. Rows start with the result's
// number, never with HPL's T/V code, so that scripts reading HPL's report do
// not read them as tests.
func (e *ensemble) writeTable(w io.Writer) error {
	results, jobs, jobOwn, sim, err := e.summaries()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nensemble of %s; the report %s is the first run's.\n", e.describe(), e.report)
	fmt.Fprintf(w, "band: p05–p95 of the runs, interpolated between the sorted runs (not a confidence interval); ±: half the band over the median\n")
	fmt.Fprintf(w, "next run (90%%): where one more run falls 9 times in 10 if runs are normal, mean ∓ t·sd·√(1+1/K); hold a real run against it, not against min–max\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "#\tresult\tfigure\tmean\tp05\tp95\tmin\tmax\t±\tnext run (90%%)\n")
	cut := false
	row := func(num, label string, name string, s stats.Summary) {
		next := "-"
		if s.Next != nil {
			next = fmt.Sprintf("%.6g–%.6g", s.Next.Lo, s.Next.Hi)
			if s.Next.Cut() {
				next = fmt.Sprintf("0*–%.6g", s.Next.Hi)
				cut = true
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.2f%%\t%s\n", num, label, name, s.Mean, s.P05, s.P95, s.Min, s.Max, 100*s.Spread(), next)
	}
	for set, ss := range [][]summary{results, jobs} {
		for k, s := range ss {
			num := strconv.Itoa(k + 1)
			if set == 1 {
				num = "job"
			}
			for j, name := range s.names {
				label := s.label
				if j > 0 {
					label = ""
				}
				row(num, label, name, s.stats[j])
			}
			if set == 1 { // the job's own results, under its rows
				for _, o := range jobOwn[k] {
					for j, name := range o.names {
						label := ""
						if j == 0 {
							label = s.label + ": " + o.label
						}
						row(num, label, name, o.stats[j])
					}
				}
			}
		}
	}
	row("-", "simulated time", "simulated_time_s", sim)
	if err := tw.Flush(); err != nil {
		return err
	}
	if cut {
		_, err = fmt.Fprintf(w, "*: the normal interval reaches below 0 and is cut there, as none of these figures (times, rates, slowdowns) can be negative; --json gives its own lower end as next90.lo_normal\n")
	}
	return err
}

// identical reports whether every run gave every figure bit for bit.
func (e *ensemble) identical() bool {
	results, jobs, jobOwn, sim, err := e.summaries()
	if err != nil || !sim.Identical() {
		return false
	}
	for _, ss := range append([][]summary{results, jobs}, jobOwn...) {
		for _, s := range ss {
			for _, st := range s.stats {
				if !st.Identical() {
					return false
				}
			}
		}
	}
	return true
}

// note says on stderr how the ensemble ran and, when its runs are identical,
// what that means and what to try.
func (e *ensemble) note(w io.Writer) {
	fmt.Fprintf(w, "emu: ensemble of %s, %d at once, in %.3g s of wall time\n", runsWord(e.spec.runs()), e.jobs, e.wall.Seconds())
	if why := e.identicalWhy(); why != "" {
		fmt.Fprintf(w, "emu: the %d runs are identical: %s\n", e.spec.runs(), why)
	}
}

// identicalWhy says what it means that the ensemble's runs came out the same,
// bit for bit, and what to try; "" when they did not (or there is one run).
func (e *ensemble) identicalWhy() string {
	if e.spec.runs() < 2 || !e.identical() {
		return ""
	}
	if e.spec.seeds > 1 {
		return "nothing this scenario draws from its seed moves its results (kernels.noise off or a model without noise, no random placement or delays); for a deterministic run whose order of events may flip, try --perturb K"
	}
	return "this run does not move when its links move by parts in 10⁹ (it is not chaotic at that scale)"
}

// ensembleJSON is the top-level "ensemble" object.
type ensembleJSON struct {
	Runs          int           `json:"runs"`
	Seeds         []uint64      `json:"seeds"`        // the seeds run, the first the report's
	Copies        int           `json:"copies"`       // runs per seed: 1 as written, the others perturbed
	Perturbation  float64       `json:"perturbation"` // --perturb's bound on ε, relative; 0 without
	Band          string        `json:"band"`         // how p05 and p95 are made
	SimulatedTime stats.Summary `json:"simulated_time_s"`
}

// encodeJSON writes res as `emu run --json` does, with "ensemble":
// {"runs", FIGURE: {mean, min, max, p05, p95, median}, ...} added to each
// result object and to each job, and the top-level "ensemble". Every other
// field is member 0's, in its place.
func (e *ensemble) encodeJSON(w io.Writer, res *runner.Result) error {
	results, jobs, jobOwn, sim, err := e.summaries()
	if err != nil {
		return err
	}
	objs, err := rawObjects(res.Results)
	if err != nil {
		return err
	}
	if len(objs) != len(results) {
		return fmt.Errorf("%d result objects, %d summaries", len(objs), len(results))
	}
	for k := range objs {
		if objs[k], err = withEnsemble(objs[k], e.spec.runs(), results[k]); err != nil {
			return err
		}
	}
	top := *res
	top.Results, top.Jobs = objs, nil
	doc, err := jsonout.Marshal(&top)
	if err != nil {
		return err
	}
	if len(res.Jobs) > 0 {
		// Each job's own results get their "ensemble" as a run's do.
		withOwn := make([]runner.JobResult, len(res.Jobs))
		for k, j := range res.Jobs {
			withOwn[k] = *j
			own, err := rawObjects(j.Results)
			if err != nil {
				return err
			}
			if len(own) != len(jobOwn[k]) {
				return fmt.Errorf("job %s: %d result objects, %d summaries", j.Name, len(own), len(jobOwn[k]))
			}
			for o := range own {
				if own[o], err = withEnsemble(own[o], e.spec.runs(), jobOwn[k][o]); err != nil {
					return err
				}
			}
			withOwn[k].Results = own
		}
		jobObjs, err := rawObjects(withOwn)
		if err != nil {
			return err
		}
		for k := range jobObjs {
			if jobObjs[k], err = withEnsemble(jobObjs[k], e.spec.runs(), jobs[k]); err != nil {
				return err
			}
		}
		arr, err := jsonout.Marshal(jobObjs)
		if err != nil {
			return err
		}
		doc = withField(doc, "jobs", arr)
	}
	ej := ensembleJSON{Runs: e.spec.runs(), Copies: e.spec.copies, Band: "p05-p95 over the runs, interpolated between the sorted runs (Hyndman-Fan 7)", SimulatedTime: sim}
	for s := range e.spec.seeds {
		ej.Seeds = append(ej.Seeds, e.seed+uint64(s))
	}
	if e.spec.perturb {
		ej.Perturbation = perturbRel
	}
	top2, err := jsonout.Marshal(ej)
	if err != nil {
		return err
	}
	doc = withField(doc, "ensemble", top2)
	var out bytes.Buffer
	if err := json.Indent(&out, doc, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// rawObjects is a JSON array's elements, each as its own JSON.
func rawObjects(v any) ([]json.RawMessage, error) {
	data, err := jsonout.Marshal(v)
	if err != nil {
		return nil, err
	}
	var objs []json.RawMessage
	if err := json.Unmarshal(data, &objs); err != nil {
		return nil, err
	}
	return objs, nil
}

// withEnsemble adds "ensemble": {"runs", figure: summary, ...} to one result
// object (a null one stays null).
func withEnsemble(obj json.RawMessage, runs int, s summary) (json.RawMessage, error) {
	if string(obj) == "null" {
		return obj, nil
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"runs":%d`, runs)
	for j, name := range s.names {
		v, err := jsonout.Marshal(s.stats[j])
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `,%q:%s`, name, v)
	}
	b.WriteByte('}')
	return withField(obj, "ensemble", b.Bytes()), nil
}

// withField appends "name": value to a compact JSON object, keeping its
// fields and their order.
func withField(obj []byte, name string, value []byte) []byte {
	obj = bytes.TrimRight(obj, " \n")
	out := append([]byte(nil), obj[:len(obj)-1]...)
	if !bytes.Equal(bytes.TrimSpace(out), []byte("{")) {
		out = append(out, ',')
	}
	out = append(out, strconv.Quote(name)...)
	out = append(out, ':')
	out = append(out, value...)
	return append(out, '}')
}
