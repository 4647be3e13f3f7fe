package sensitivity

// Placement (LLAMP Appendix J): the recorded graph evaluated as if the ranks
// sat on other hosts. A message's latency terms are the cables of its route,
// per class; on other hosts its route is another, so each message edge's
// latency part is scaled by the new route's latency over the recorded one's.
// Everything else — compute, transfer time, waits the graph records as
// constants — stays as recorded: the answer is first order, to be checked by
// re-emulating with the placement (emu sensitivity --place does).

// A Placer evaluates T for placements of the ranks of one graph.
type Placer struct {
	g      *Graph
	latSum []float64 // per edge: its latency terms at the recorded latencies, s
	link   []float64 // per edge: their link classes' part (0: no message, or none of its terms is a link)
	src    []int32   // per edge with link > 0: the message's sender and receiver
	dst    []int32
	finish []float64 // per vertex, reused
}

// NewPlacer prepares the evaluation of g at its classes' latencies lat, where
// link[c] says whether class c is a link class (its terms are cables of the
// message's route; the others, latency factors' excess, scale with them).
func NewPlacer(g *Graph, lat []float64, link []bool) *Placer {
	ne := g.NumEdges()
	p := &Placer{g: g, latSum: make([]float64, ne), link: make([]float64, ne),
		src: make([]int32, ne), dst: make([]int32, ne), finish: make([]float64, g.NumVertices())}
	var terms []LatTerm
	for v := range g.NumVertices() {
		for e := g.inStart.at(v); e < g.inStart.at(v+1); e++ {
			terms = g.EdgeLat(int(e), terms[:0])
			var sum, lk float64
			var cl uint8
			for _, t := range terms {
				if int(t.Class) >= len(lat) {
					continue
				}
				x := float64(t.Count) * lat[t.Class]
				sum += x
				if int(t.Class) < len(link) && link[t.Class] {
					lk += x
					cl = t.Class
				}
			}
			p.latSum[e], p.link[e] = sum, lk
			if lk > 0 {
				s, d := g.vRank.at(int(g.eFrom.at(int(e)))), g.vRank.at(int(v))
				if s == d { // the message's ends, as criticalPairs finds them
					si, di := g.messageEnds(int32(v), cl)
					s, d = int32(si), int32(di)
				}
				p.src[e], p.dst[e] = s, d
			}
		}
	}
	return p
}

// Runtime is T with each message from rank i to rank j crossing a route of
// link latency route(i, j) (s) instead of its recorded one.
func (p *Placer) Runtime(route func(src, dst int) float64) float64 {
	g := p.g
	t := 0.0
	for v := range g.NumVertices() {
		start := 0.0
		for e := g.inStart.at(v); e < g.inStart.at(v+1); e++ {
			c := g.pay.rest[g.ePay.at(int(e))] + p.latSum[e]
			if lk := p.link[e]; lk > 0 {
				c += p.latSum[e] * (route(int(p.src[e]), int(p.dst[e]))/lk - 1)
			}
			start = max(start, p.finish[g.eFrom.at(int(e))]+c)
		}
		p.finish[v] = start + g.vtab.cost[g.vPay.at(v)]
		t = max(t, p.finish[v])
	}
	return t
}
