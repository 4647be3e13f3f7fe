package sensitivity

import (
	"fmt"
	"math"
)

// Kind says what a vertex stands for in a rank's program.
type Kind uint8

const (
	Calc Kind = iota // computation (or any local, non-MPI time)
	Send             // the CPU part of sending a message (LogGP o)
	Recv             // the CPU part of receiving a message (LogGP o)
	numKinds
)

func (k Kind) String() string {
	switch k {
	case Calc:
		return "calc"
	case Send:
		return "send"
	case Recv:
		return "recv"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// VertexID names a vertex. The Builder hands them out in creation order; a
// Graph numbers its vertices in topological order (see Graph.ID).
type VertexID int32

// LatTerm is Count latency terms of one class on an edge: the edge's cost
// grows by Count·ℓ_Class. Class 0 is the end-to-end latency L.
type LatTerm struct {
	Class uint8
	Count int32
}

// MaxClass is the largest usable latency class; 255 marks multi-term edges
// inside the compact encoding.
const MaxClass = 254

// maxTermCount bounds one term's count so that it packs into 24 bits.
const maxTermCount = 1<<24 - 1

// Packed latency word of an edge: 0 = no latency term; class<<24|count = one
// term; multiClass<<24|k = the terms multi[multiStart[k]:multiStart[k+1]].
const multiClass = 0xFF

func packTerm(t LatTerm) uint32 { return uint32(t.Class)<<24 | uint32(t.Count) }

// Graph is an immutable execution graph: vertices in topological order, each
// with its in-edges stored contiguously (CSR by destination). The finish time
// of vertex v is cost(v) + max over in-edges e=(u,v) of finish(u) + cost(e),
// or cost(v) if v has no in-edge; cost(e) = Σ count·ℓ_class + rest.
type Graph struct {
	ranks int

	vRank column[int32]  // rank of each vertex
	vPay  column[uint32] // kind and cost of each vertex: vtab's entry
	vtab  vertexPayloads

	inStart column[int32]  // in-edges of v are inStart[v]..inStart[v+1]-1
	eFrom   column[int32]  // source vertex of each edge (always < destination)
	ePay    column[uint32] // each edge's rest, bytes and latency terms: pay's entry
	pay     payloads

	multiStart []int32 // offsets into multi for multi-term edges
	multi      []LatTerm

	classes int     // 1 + the largest class used (at least 1)
	newID   []int32 // builder ID → graph ID; nil when the identity

	baseline []float64 // ℓ per class of the recorded run, s (nil if unknown)
}

// payloads are the distinct (rest, bytes, latency terms) of a graph's
// edges, which the edges share by index: most edges of a recorded run are
// program order (all three 0, entry 0) and its messages come in a few
// thousand sizes and routes, so a graph keeps 8 bytes per edge where a
// rest, bytes and latency word of its own took 20 (docs/evidence/graphmem.md).
type payloads struct {
	rest  []float64 // non-latency cost, s
	bytes []float64 // bytes carried (for λ_G); 0 for program-order edges
	lat   []uint32  // packed latency terms, see packTerm
}

// vertexPayloads are the distinct (kind, cost) of a graph's vertices, which
// the vertices share by index as edges share theirs: 93% of a recorded
// HPL's vertices are a send, a receive or a join of cost 0.
type vertexPayloads struct {
	kind []Kind
	cost []float64 // constant cost, s
}

// vertexTable hands out vertex payload indices, the same for the same bits.
type vertexTable struct {
	vertexPayloads
	index map[vertexKey]uint32
}

func newVertexTable() vertexTable {
	t := vertexTable{}
	for k := range numKinds {
		t.kind = append(t.kind, k)
		t.cost = append(t.cost, 0)
	}
	return t
}

type vertexKey struct {
	cost uint64
	kind Kind
}

// add returns the index of the vertex payload (kind, cost), adding it if new.
func (t *vertexTable) add(kind Kind, cost float64) uint32 {
	key := vertexKey{math.Float64bits(cost), kind}
	if key.cost == 0 && kind < numKinds {
		return uint32(kind) // entries 0.. are each kind at cost 0 (newVertexTable)
	}
	k, ok := t.index[key]
	if !ok {
		k = uint32(len(t.cost))
		t.kind = append(t.kind, kind)
		t.cost = append(t.cost, cost)
		if t.index == nil {
			t.index = map[vertexKey]uint32{}
		}
		if len(t.index) < maxInterned {
			t.index[key] = k
		}
	}
	return k
}

// payKey is a payload's bits, to find it again.
type payKey struct {
	rest, bytes uint64
	lat         uint32
}

// maxInterned bounds how many payloads a payTable finds again by their
// bits: beyond it (a run whose every message has a rest of its own, say)
// a new payload is only compared with the one before it (the two edges of a
// message), so the index's memory stays a few MB.
const maxInterned = 1 << 16

// payTable hands out payload indices, the same index for the same bits.
type payTable struct {
	payloads
	index map[payKey]uint32
	last  payKey
	lastK uint32
}

func newPayTable() payTable {
	return payTable{payloads: payloads{rest: []float64{0}, bytes: []float64{0}, lat: []uint32{0}}}
}

// add returns the index of the payload (rest, bytes, lat), adding it if new.
func (t *payTable) add(rest, bytes float64, lat uint32) uint32 {
	key := payKey{math.Float64bits(rest), math.Float64bits(bytes), lat}
	switch {
	case key == payKey{}:
		return 0
	case key == t.last:
		return t.lastK
	}
	k, ok := t.index[key]
	if !ok {
		k = uint32(len(t.rest))
		t.rest = append(t.rest, rest)
		t.bytes = append(t.bytes, bytes)
		t.lat = append(t.lat, lat)
		if t.index == nil {
			t.index = map[payKey]uint32{}
		}
		if len(t.index) < maxInterned {
			t.index[key] = k
		}
	}
	t.last, t.lastK = key, k
	return k
}

// Ranks is the number of ranks the graph was built for.
func (g *Graph) Ranks() int { return g.ranks }

// NumVertices is the number of vertices.
func (g *Graph) NumVertices() int { return g.vRank.len() }

// NumEdges is the number of edges.
func (g *Graph) NumEdges() int { return g.eFrom.len() }

// rest, bytes and latWord are edge e's payload.
func (g *Graph) rest(e int) float64   { return g.pay.rest[g.ePay.at(e)] }
func (g *Graph) bytes(e int) float64  { return g.pay.bytes[g.ePay.at(e)] }
func (g *Graph) latWord(e int) uint32 { return g.pay.lat[g.ePay.at(e)] }

// Classes is one more than the largest latency class used by any edge (at least 1).
func (g *Graph) Classes() int { return g.classes }

// Baseline is the latency per class the graph was recorded at (s), as set
// by Builder.SetBaseline and kept in graph files; nil if unknown. Its
// longest path at these latencies is the recorded run's time.
func (g *Graph) Baseline() []float64 { return append([]float64(nil), g.baseline...) }

// ID maps a VertexID returned by the Builder to the vertex's index in the Graph.
func (g *Graph) ID(v VertexID) VertexID {
	if g.newID == nil {
		return v
	}
	return VertexID(g.newID[v])
}

// Rank, Kind and Cost describe vertex v (a Graph index).
func (g *Graph) Rank(v VertexID) int     { return int(g.vRank.at(int(v))) }
func (g *Graph) Kind(v VertexID) Kind    { return g.vtab.kind[g.vPay.at(int(v))] }
func (g *Graph) Cost(v VertexID) float64 { return g.vtab.cost[g.vPay.at(int(v))] }

// InEdges returns the edges into vertex v as the index range [first, end):
// edges are stored grouped by their head, so a vertex's predecessors are
// EdgeFrom(first) … EdgeFrom(end-1).
func (g *Graph) InEdges(v VertexID) (first, end int) {
	return int(g.inStart.at(int(v))), int(g.inStart.at(int(v) + 1))
}

// EdgeFrom, EdgeRest and EdgeBytes describe edge e (an index in [0, NumEdges)).
func (g *Graph) EdgeFrom(e int) VertexID { return VertexID(g.eFrom.at(e)) }
func (g *Graph) EdgeRest(e int) float64  { return g.rest(e) }
func (g *Graph) EdgeBytes(e int) float64 { return g.bytes(e) }

// EdgeLat appends edge e's latency terms to buf and returns it.
func (g *Graph) EdgeLat(e int, buf []LatTerm) []LatTerm { return g.wordTerms(g.latWord(e), buf) }

// wordTerms appends the latency terms of packed word w to buf.
func (g *Graph) wordTerms(w uint32, buf []LatTerm) []LatTerm {
	switch {
	case w == 0:
		return buf
	case w>>24 == multiClass:
		k := w & maxTermCount
		return append(buf, g.multi[g.multiStart[k]:g.multiStart[k+1]]...)
	default:
		return append(buf, LatTerm{Class: uint8(w >> 24), Count: int32(w & maxTermCount)})
	}
}

// latCount is the number of class-c terms on edge e.
func (g *Graph) latCount(e int, c uint8) int32 { return g.latCountWord(g.latWord(e), c) }

// latCountWord is the number of class-c terms in packed word w.
func (g *Graph) latCountWord(w uint32, c uint8) int32 {
	switch {
	case w == 0:
		return 0
	case w>>24 == multiClass:
		k := w & maxTermCount
		var n int32
		for _, t := range g.multi[g.multiStart[k]:g.multiStart[k+1]] {
			if t.Class == c {
				n += t.Count
			}
		}
		return n
	case uint8(w>>24) == c:
		return int32(w & maxTermCount)
	}
	return 0
}

// edgeCost is the cost of edge e for latencies lat (indexed by class; missing classes are 0).
func (g *Graph) edgeCost(e int, lat []float64) float64 { return g.payCost(g.ePay.at(e), lat) }

// payCost is the cost of an edge of payload p for latencies lat.
func (g *Graph) payCost(p uint32, lat []float64) float64 {
	c := g.pay.rest[p]
	w := g.pay.lat[p]
	switch {
	case w == 0:
	case w>>24 == multiClass:
		k := w & maxTermCount
		for _, t := range g.multi[g.multiStart[k]:g.multiStart[k+1]] {
			if int(t.Class) < len(lat) {
				c += float64(t.Count) * lat[t.Class]
			}
		}
	default:
		if cl := int(w >> 24); cl < len(lat) {
			c += float64(w&maxTermCount) * lat[cl]
		}
	}
	return c
}

// payCostCount is payCost and the number of class-cl terms of an edge of
// payload p in one decoding of the packed word, for the evaluators' inner
// loops. An edge without latency terms (program order: most edges) costs
// its rest; run makes that test in its loop and calls latCost for the
// others.
func (g *Graph) payCostCount(p uint32, lat []float64, cl uint8) (float64, int64) {
	if w := g.pay.lat[p]; w != 0 {
		return g.latCost(p, w, lat, cl)
	}
	return g.pay.rest[p], 0
}

// latCost is payCostCount of an edge whose packed word w is not 0.
func (g *Graph) latCost(p, w uint32, lat []float64, cl uint8) (float64, int64) {
	if w>>24 == multiClass {
		return g.payCost(p, lat), int64(g.latCountWord(w, cl))
	}
	n := w & maxTermCount
	c := uint8(w >> 24)
	cost := g.pay.rest[p]
	if int(c) < len(lat) {
		cost += float64(n) * lat[c]
	}
	if c == cl {
		return cost, int64(n)
	}
	return cost, 0
}
