package sensitivity

import (
	"bufio"
	"fmt"
	"io"
	"sort"
)

// pairVar names the latency variable of class c for messages from rank i to
// rank j (LLAMP Appendix I).
func pairVar(c uint8, i, j int32) string { return fmt.Sprintf("l%d_%d_%d", c, i, j) }

// writePairwiseLP writes Algorithm 1 with per-pair latency variables: every
// vertex v has a start variable y<v> ≥ 0, every edge u→v the constraint
// y_v − y_u − Σ count·l<c>_<rank u>_<rank v> − bytes·g ≥ cost(u) + other,
// and every vertex without out-edges t − y_v ≥ cost(v).
func (g *Graph) writePairwiseLP(w io.Writer, o LPOptions, unit float64) error {
	lw := &lpWriter{w: bufio.NewWriterSize(w, 1<<16)}
	nv := g.NumVertices()
	lw.printf("\\ emu execution graph: %d ranks, %d vertices, %d edges; LLAMP Algorithm 1, per-pair latencies (Appendix I)\n", g.ranks, nv, g.NumEdges())
	lw.printf("\\ time unit %v s; l<c>_<i>_<j> latency of class c from rank i to rank j, g per-byte time, y<v> start of vertex v\n", unit)
	lw.printf("Minimize\n obj: t\nSubject To\n")
	hasOut := make([]bool, nv)
	type pair struct {
		c    uint8
		i, j int32
	}
	used := map[pair]bool{}
	var terms []LatTerm
	for v := range nv {
		ri := g.vRank.at(v)
		for e := g.inStart.at(v); e < g.inStart.at(v+1); e++ {
			u := g.eFrom.at(int(e))
			hasOut[u] = true
			ru := g.vRank.at(int(u))
			lw.printf(" e%d: y%d - y%d", e, v, u)
			for _, t := range g.EdgeLat(int(e), terms[:0]) {
				i, j := ru, ri
				if i == j { // the message's ends, as criticalPairs books them
					si, sj := g.messageEnds(int32(v), t.Class)
					i, j = int32(si), int32(sj)
				}
				lw.printf(" - %d %s", t.Count, pairVar(t.Class, i, j))
				used[pair{t.Class, i, j}] = true
			}
			if b := g.pay.bytes[g.ePay.at(int(e))]; b != 0 {
				lw.printf(" - %s g", num(b))
			}
			lw.printf(" >= %s\n", num((g.vtab.cost[g.vPay.at(int(u))]+g.pay.rest[g.ePay.at(int(e))]-g.pay.bytes[g.ePay.at(int(e))]*o.G)/unit))
		}
	}
	for v := range nv {
		if !hasOut[v] {
			lw.printf(" end%d: t - y%d >= %s\n", v, v, num(g.vtab.cost[g.vPay.at(v)]/unit))
		}
	}
	pairs := make([]pair, 0, len(used))
	for p := range used {
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(a, b int) bool {
		x, y := pairs[a], pairs[b]
		if x.c != y.c {
			return x.c < y.c
		}
		if x.i != y.i {
			return x.i < y.i
		}
		return x.j < y.j
	})
	lw.printf("Bounds\n")
	for _, p := range pairs {
		var l float64
		if int(p.c) < len(o.Latencies) {
			l = o.Latencies[p.c]
		}
		lw.printf(" %s >= %s\n", pairVar(p.c, p.i, p.j), num(l/unit))
	}
	lw.printf(" g >= %s\nEnd\n", num(o.G/unit))
	if lw.err != nil {
		return lw.err
	}
	return lw.w.Flush()
}
