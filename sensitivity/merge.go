package sensitivity

import "fmt"

// Merge returns the graph with its latency classes renamed: class c of g
// becomes class into[c] (classes beyond into keep their number), and terms
// that land in one class add up, in the order of their first term. The
// result is what a recorder would have built had it counted those classes
// as one: a graph recorded with one class per link class (fat-tree levels,
// dragonfly terminal/intra/inter) merged into class 0 is the graph of one
// link latency ℓ, and it evaluates to the same bits, term for term, as long
// as the merged terms are added in the same order. baseline is the merged
// graph's latency per class (s); nil keeps none.
//
// The result shares g's vertices and edges (both are immutable) and has
// its own payloads' latency words, 4 bytes per distinct payload.
func (g *Graph) Merge(into []uint8, baseline []float64) (*Graph, error) {
	for c, to := range into {
		if to > MaxClass {
			return nil, fmt.Errorf("sensitivity: Merge: class %d into %d, want ≤ %d", c, to, MaxClass)
		}
	}
	m := *g
	m.pay.lat = make([]uint32, len(g.pay.lat))
	m.multi, m.multiStart, m.classes = nil, []int32{0}, 1
	m.baseline = append([]float64(nil), baseline...)
	var intern termLists
	var tb [8]LatTerm
	// Payloads are numbered in the order of their first edge, so the
	// merged term lists are numbered as a pass over the edges would.
	for k, w := range g.pay.lat {
		if w == 0 {
			continue
		}
		terms := g.wordTerms(w, tb[:0])
		out := terms[:0] // in place: out never passes the term it reads
		for _, t := range terms {
			if int(t.Class) < len(into) {
				t.Class = into[t.Class]
			}
			m.classes = max(m.classes, int(t.Class)+1)
			i := 0
			for i < len(out) && out[i].Class != t.Class {
				i++
			}
			if i < len(out) {
				if out[i].Count += t.Count; out[i].Count > maxTermCount {
					return nil, fmt.Errorf("sensitivity: Merge: an edge has more than %d class-%d terms", maxTermCount, t.Class)
				}
				continue
			}
			out = append(out, t)
		}
		if len(out) == 1 {
			m.pay.lat[k] = packTerm(out[0])
			continue
		}
		i, ok := intern.index(out, &m.multi, &m.multiStart)
		if !ok {
			return nil, fmt.Errorf("sensitivity: Merge: more than %d distinct multi-class term lists", maxTermCount)
		}
		m.pay.lat[k] = multiClass<<24 | i
	}
	return &m, nil
}
