package sensitivity

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
)

// LPOptions sets the parameters written into an exported LP.
type LPOptions struct {
	// Latencies is the lower bound of each class's latency variable l<c>
	// (s); at the optimum each sits on its bound and its reduced cost is
	// λ for that class.
	Latencies []float64
	// G is the lower bound of the bandwidth variable g (s/byte): the edges'
	// rest is split into bytes·G + other, so g's reduced cost is λ_G.
	G float64
	// Unit is the LP's time unit in seconds (default 1e-9: nanoseconds, as
	// LLAMP writes them; it also keeps glpk's absolute tolerances harmless).
	Unit float64
	// Pairwise writes LLAMP Appendix I's form instead: one latency variable
	// l<c>_<i>_<j> per class and rank pair (bounded below by the class's
	// latency), whose reduced costs form the λ_L(i,j) matrix. Every vertex
	// then gets its own start variable.
	Pairwise bool
}

// WriteLP writes LLAMP's Algorithm 1 for the graph in CPLEX LP format:
//
//   - variables: t (the end time), l<c> per latency class, g, and y<v>, the
//     start time of every vertex with more than one in-edge (or one whose
//     edge could start it before 0); like Algorithm 1, a vertex with a
//     single in-edge gets no variable, its finish time is its predecessor's
//     expression plus edge and vertex costs;
//   - one constraint per in-edge of such a vertex, y_v ≥ finish(u) + Σ count·l + bytes·g + other;
//   - t ≥ finish(v) for every vertex without out-edges;
//   - objective: minimise t; all variables ≥ 0 (start times cannot be negative).
//
// The optimum is the longest path of the Graph at those latencies.
func (g *Graph) WriteLP(w io.Writer, o LPOptions) error {
	unit := o.Unit
	if unit == 0 {
		unit = 1e-9
	}
	if !(unit > 0) || math.IsInf(unit, 0) {
		return fmt.Errorf("sensitivity: LP time unit %v s, want > 0", unit)
	}
	if o.Pairwise {
		return g.writePairwiseLP(w, o, unit)
	}
	k := g.classes
	lw := &lpWriter{w: bufio.NewWriterSize(w, 1<<16)}
	nv := g.NumVertices()
	// The finish expression of every vertex: base variable (or -1) +
	// constant + Σ lat[c]·l<c> + bytes·g, in LP units.
	base := make([]int32, nv)
	konst := make([]float64, nv)
	lat := make([]int64, nv*k)
	bytes := make([]float64, nv)
	hasOut := make([]bool, nv)
	for e := range g.eFrom.len() {
		hasOut[g.eFrom.at(e)] = true
	}
	lw.printf("\\ emu execution graph: %d ranks, %d vertices, %d edges; LLAMP Algorithm 1\n", g.ranks, nv, g.NumEdges())
	lw.printf("\\ time unit %v s; l<c> latency of class c, g per-byte time, y<v> start of vertex v\n", unit)
	lw.printf("Minimize\n obj: t\nSubject To\n")
	var terms []LatTerm
	for v := range nv {
		first, end := g.inStart.at(v), g.inStart.at(v+1)
		single := end-first == 1 && g.pay.rest[g.ePay.at(int(first))]-g.pay.bytes[g.ePay.at(int(first))]*o.G >= 0
		row := lat[v*k : v*k+k]
		switch {
		case first == end: // a starting vertex: starts at 0
			base[v] = -1
		case single: // Algorithm 1, line 10: no variable
			e := int(first)
			u := g.eFrom.at(e)
			base[v], konst[v], bytes[v] = base[u], konst[u]+(g.pay.rest[g.ePay.at(e)]-g.pay.bytes[g.ePay.at(e)]*o.G)/unit, bytes[u]+g.pay.bytes[g.ePay.at(e)]
			copy(row, lat[int(u)*k:int(u)*k+k])
			for _, t := range g.EdgeLat(e, terms[:0]) {
				row[t.Class] += int64(t.Count)
			}
		default: // Algorithm 1, lines 12–21: y_v ≥ every predecessor's finish + edge
			base[v] = int32(v)
			for e := int(first); e < int(end); e++ {
				u := g.eFrom.at(e)
				lw.row(fmt.Sprintf("e%d", e), int32(v), base[u], lat[int(u)*k:int(u)*k+k], g.EdgeLat(e, terms[:0]),
					bytes[u]+g.pay.bytes[g.ePay.at(e)], konst[u]+(g.pay.rest[g.ePay.at(e)]-g.pay.bytes[g.ePay.at(e)]*o.G)/unit)
			}
		}
		konst[v] += g.vtab.cost[g.vPay.at(v)] / unit
		if !hasOut[v] {
			lw.row(fmt.Sprintf("end%d", v), -2, base[v], row, nil, bytes[v], konst[v])
		}
	}
	lw.printf("Bounds\n")
	for c := 0; c < k; c++ {
		var l float64
		if c < len(o.Latencies) {
			l = o.Latencies[c]
		}
		lw.printf(" l%d >= %s\n", c, num(l/unit))
	}
	lw.printf(" g >= %s\nEnd\n", num(o.G/unit))
	if lw.err != nil {
		return lw.err
	}
	return lw.w.Flush()
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

type lpWriter struct {
	w   *bufio.Writer
	err error
}

func (lw *lpWriter) printf(format string, args ...any) {
	if lw.err == nil {
		_, lw.err = fmt.Fprintf(lw.w, format, args...)
	}
}

// row writes "name: lhs − [y_u] − Σ count·l − bytes·g ≥ rhs" where lhs is
// y_v (v ≥ 0) or t (v = −2), u's base variable is skipped when −1, and the
// latency counts are u's plus the edge's terms.
func (lw *lpWriter) row(name string, v, u int32, ulat []int64, edge []LatTerm, bytes, rhs float64) {
	if v == -2 {
		lw.printf(" %s: t", name)
	} else {
		lw.printf(" %s: y%d", name, v)
	}
	if u >= 0 {
		lw.printf(" - y%d", u)
	}
	n := 0
	for c, cnt := range ulat {
		for _, t := range edge {
			if int(t.Class) == c {
				cnt += int64(t.Count)
			}
		}
		if cnt != 0 {
			lw.printf(" - %d l%d", cnt, c)
			if n++; n%8 == 0 {
				lw.printf("\n   ")
			}
		}
	}
	if bytes != 0 {
		lw.printf(" - %s g", num(bytes))
	}
	lw.printf(" >= %s\n", num(rhs))
}
