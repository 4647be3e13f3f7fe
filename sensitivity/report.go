package sensitivity

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"text/tabwriter"
)

// FormatSeconds prints a time in ns, µs, ms or s, to the picosecond below
// 1 ms (LogGOPSim's resolution) and to the µs above.
func FormatSeconds(s float64) string {
	a := math.Abs(s)
	switch {
	case a == 0:
		return "0 s"
	case a < 1e-6:
		return strconv.FormatFloat(s*1e9, 'f', 3, 64) + " ns"
	case a < 1e-3:
		return strconv.FormatFloat(s*1e6, 'f', 6, 64) + " µs"
	case a < 1:
		return strconv.FormatFloat(s*1e3, 'f', 6, 64) + " ms"
	}
	return strconv.FormatFloat(s, 'f', 6, 64) + " s"
}

// toleranceKeys returns the tolerance percentages in numeric order.
func (r *Report) toleranceKeys() []string {
	keys := make([]string, 0, len(r.Tolerance))
	for k := range r.Tolerance {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.ParseFloat(keys[i], 64)
		b, _ := strconv.ParseFloat(keys[j], 64)
		return a < b
	})
	return keys
}

// WriteTable writes the report as readable text: the metrics at L0, the
// critical latencies, the tolerances, the classes, the curve, and the
// pairwise and MPI-time tables when present.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }
	p("graph: %d ranks, %d vertices, %d edges; swept latency class %d\n", r.Ranks, r.Vertices, r.Edges, r.Class)
	p("at L = %s: T = %s, λ_L = %d", FormatSeconds(r.L), FormatSeconds(r.Runtime), r.LambdaL)
	if r.LambdaLLeft != r.LambdaL {
		p(" (left %d)", r.LambdaLLeft)
	}
	p(", ρ_L = %.4g, λ_G = %.6g bytes", r.RhoL, r.LambdaG)
	if r.RhoG != 0 {
		p(", ρ_G = %.4g", r.RhoG)
	}
	p("\n")
	p("critical latencies in [%s, %s]:", FormatSeconds(r.Lmin), FormatSeconds(r.Lmax))
	writeBreakpoints(p, r.Breakpoints)
	p("\n")
	if keys := r.toleranceKeys(); len(keys) > 0 {
		p("latency tolerance:")
		for i, k := range keys {
			sep := ","
			if i == 0 {
				sep = ""
			}
			if v := r.Tolerance[k]; v != nil {
				p("%s %s%%: %s", sep, k, FormatSeconds(*v))
			} else {
				p("%s %s%%: unbounded", sep, k)
			}
		}
		p("\n")
	}
	switch {
	case len(r.Classes) < 2: // the report's own line says it all
	case named(r.Classes):
		r.writeNamedClasses(p)
	default:
		p("\nclass\tℓ\tλ\tλ left\tρ\n")
		for _, c := range r.Classes {
			p("%d\t%s\t%d\t%d\t%.4g\n", c.Class, FormatSeconds(c.L), c.LambdaRight, c.LambdaLeft, c.Rho)
		}
	}
	p("\nL\tΔL\tT\tλ_L\tρ_L\n")
	for _, c := range r.Curve {
		p("%s\t%s\t%s\t%d\t%.4g\n", FormatSeconds(c.L), FormatSeconds(c.L-r.L), FormatSeconds(c.T), c.LambdaL, c.RhoL)
	}
	if len(r.Pairs) > 0 {
		p("\ncritical messages by rank pair (λ_L(i,j), λ_G(i,j)):\nsrc\tdst\tλ_L\tλ_G bytes\n")
		for _, q := range r.Pairs {
			p("%d\t%d\t%d\t%.6g\n", q.Src, q.Dst, q.Lambda, q.LambdaG)
		}
	}
	if len(r.MPITime) > 0 {
		p("\nrank\tend\tcompute\tMPI stack\tnetwork\tsync\n")
		for _, q := range r.MPITime {
			p("%d\t%s\t%s\t%s\t%s\t%s\n", q.Rank, FormatSeconds(q.End), FormatSeconds(q.Compute),
				FormatSeconds(q.Stack), FormatSeconds(q.Network), FormatSeconds(q.Sync))
		}
	}
	for _, t := range []struct {
		head  string
		parts []MPIPart
	}{{"protocol", r.MPIByProtocol}, {"MPI call", r.MPIByCall}} {
		if len(t.parts) == 0 {
			continue
		}
		p("\n%s\tcalls\tMPI stack\tnetwork\tsync\n", t.head)
		for _, q := range t.parts {
			calls := "-"
			if q.Calls > 0 {
				calls = fmt.Sprint(q.Calls)
			}
			p("%s\t%s\t%s\t%s\t%s\n", q.Name, calls, FormatSeconds(q.Stack), FormatSeconds(q.Network), FormatSeconds(q.Sync))
		}
	}
	return tw.Flush()
}

// shownBreakpoints is how many critical latencies the table lists one by one;
// beyond that it summarises them (count, the first few, the largest jumps of
// λ_L) and the JSON report keeps every one.
const shownBreakpoints = 8

// writeBreakpoints lists the critical latencies, or summarises a long list.
func writeBreakpoints(p func(string, ...any), bps []Breakpoint) {
	if len(bps) == 0 {
		p(" none")
		return
	}
	one := func(b Breakpoint) { p(" %s (λ_L %d→%d)", FormatSeconds(b.L), b.LambdaLeft, b.LambdaRight) }
	if len(bps) <= shownBreakpoints {
		for _, b := range bps {
			one(b)
		}
		return
	}
	p(" %d (all of them in --json); the first %d:", len(bps), shownBreakpoints/2)
	for _, b := range bps[:shownBreakpoints/2] {
		one(b)
	}
	// Where λ_L jumps most: the critical latencies that matter for tuning.
	jumps := make([]Breakpoint, len(bps))
	copy(jumps, bps)
	sort.SliceStable(jumps, func(i, j int) bool {
		return jumps[i].LambdaRight-jumps[i].LambdaLeft > jumps[j].LambdaRight-jumps[j].LambdaLeft
	})
	jumps = jumps[:shownBreakpoints/2]
	sort.Slice(jumps, func(i, j int) bool { return jumps[i].L < jumps[j].L })
	p("; largest jumps:")
	for _, b := range jumps {
		one(b)
	}
}

// named reports whether a recorder named the classes (AnalyzeClasses).
func named(cs []ClassSensitivity) bool {
	for _, c := range cs {
		if c.Name != "" {
			return true
		}
	}
	return false
}

// writeNamedClasses is the class table with names, and for the classes swept
// alone their tolerances and number of critical latencies ("-" for the
// others).
func (r *Report) writeNamedClasses(p func(string, ...any)) {
	keys := r.toleranceKeys()
	p("\nclass\tname\tℓ\tλ\tλ left\tρ")
	for _, k := range keys {
		p("\ttolerance %s%%", k)
	}
	p("\tcritical latencies\n")
	for _, c := range r.Classes {
		p("%d\t%s\t%s\t%d\t%d\t%.4g", c.Class, c.Name, FormatSeconds(c.L), c.LambdaRight, c.LambdaLeft, c.Rho)
		for _, k := range keys {
			switch v, ok := c.Tolerance[k]; {
			case !ok:
				p("\t-")
			case v == nil:
				p("\tunbounded")
			default:
				p("\t%s", FormatSeconds(*v))
			}
		}
		if c.Tolerance == nil {
			p("\t-\n")
		} else {
			p("\t%d\n", len(c.CriticalLatencies))
		}
	}
}
