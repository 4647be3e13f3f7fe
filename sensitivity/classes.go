package sensitivity

import "fmt"

// AnalyzeClasses is the sensitivity to each latency class of g, the others
// held at p.Latencies (LLAMP's per-variable λ): every class's λ (left and
// right) and ρ at the baseline, its name from names (may be short), and for
// the classes with sweep[c] also the critical latencies and the x% tolerances
// (p.Tolerances) of that class alone, over the range p.Lmin..p.Lmax shifted
// to start from the class's own latency (the part below 0 cut off). A class
// at latency 0 (a class of limiter links, say) gets tolerances in absolute
// terms like any other.
//
// Each swept class costs one analysis (one or two parametric passes); the
// others one longest-path pass each.
func AnalyzeClasses(g *Graph, p Params, names []string, sweep []bool) ([]ClassSensitivity, error) {
	n := max(g.Classes(), len(p.Latencies))
	if n > MaxClass+1 {
		return nil, fmt.Errorf("sensitivity: %d classes, at most %d", n, MaxClass+1)
	}
	lat := make([]float64, n)
	copy(lat, p.Latencies)
	q := p
	q.Latencies, q.Class, q.L0 = lat, 0, lat[0]
	q.Lmin, q.Lmax, q.Points, q.Tolerances, q.Pairwise, q.MPITime = lat[0], lat[0], 1, nil, false, false
	all, err := Analyze(g, q)
	if err != nil {
		return nil, err
	}
	out := all.Classes
	for c := range out {
		if c < len(names) {
			out[c].Name = names[c]
		}
		if c >= len(sweep) || !sweep[c] {
			continue
		}
		q := p
		q.Latencies, q.Class, q.L0 = lat, c, lat[c]
		q.Lmin, q.Lmax = max(0, lat[c]+p.Lmin-p.L0), lat[c]+p.Lmax-p.L0
		if !p.RangeSet && p.Lmin == 0 && p.Lmax == 0 {
			q.Lmin, q.Lmax = lat[c], lat[c]
		}
		q.Points, q.Pairwise, q.MPITime, q.noClasses = max(2, p.Points), false, false, true
		r, err := Analyze(g, q)
		if err != nil {
			return nil, fmt.Errorf("class %d: %w", c, err)
		}
		out[c].CriticalLatencies, out[c].Tolerance, out[c].Curve = r.CriticalLatencies, r.Tolerance, r.Curve
	}
	return out, nil
}
