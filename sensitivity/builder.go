package sensitivity

import (
	"fmt"
	"math"
	"strings"
)

// Builder collects vertices and edges and turns them into an immutable Graph.
// Its methods do not return errors, to keep recorders simple: the first
// problem (bad rank, unknown vertex, non-finite cost, ...) is remembered and
// returned by Build. A Builder is single-use: Build hands its memory over to
// the Graph and leaves the Builder empty.
type Builder struct {
	ranks int
	err   error

	// The vertex and edge arrays are columns, which grow without copying
	// (column.go), and become the Graph's as they are.
	vRank column[int32]
	vPay  column[uint32] // index in vtab
	vtab  vertexTable

	eFrom column[int32]
	ePay  column[uint32] // index in pay
	pay   payTable
	// Recorders add a vertex's in-edges right after the vertex, so the
	// edges arrive grouped by destination: while they do, inDeg[v+1] is
	// v's in-degree (inDeg[0] = 0; summed up it is the Graph's inStart)
	// and eTo is nil. The first edge out of that order writes out eTo,
	// each edge's destination, and drops inDeg.
	inDeg   column[int32]
	lastTo  int32
	grouped bool // eTo not written out yet
	eTo     column[int32]

	multiStart []int32
	multi      []LatTerm
	classes    int
	baseline   []float64
	intern     termLists // multi-term lists already in multi
}

// NewBuilder starts a graph of the given number of ranks.
func NewBuilder(ranks int) *Builder {
	b := &Builder{ranks: ranks, classes: 1, multiStart: []int32{0}, pay: newPayTable(), vtab: newVertexTable(), grouped: true}
	b.inDeg.append(0)
	if ranks <= 0 || ranks > math.MaxInt32 {
		b.err = fmt.Errorf("sensitivity: NewBuilder: %d ranks, want 1..%d", ranks, math.MaxInt32)
	}
	return b
}

// Grow reserves room for about v more vertices and e more edges.
func (b *Builder) Grow(v, e int) {
	b.vRank.reserve(v)
	b.vPay.reserve(v)
	if b.grouped {
		b.inDeg.reserve(v)
	} else {
		b.eTo.reserve(e)
	}
	b.eFrom.reserve(e)
	b.ePay.reserve(e)
}

// SetBaseline records the latency per class (s) the graph's run had, so that
// an analysis of the saved graph can start from it (emu analyze without --L).
func (b *Builder) SetBaseline(lat []float64) {
	if len(lat) > MaxClass+1 {
		b.fail("baseline of %d classes, at most %d", len(lat), MaxClass+1)
		return
	}
	for c, l := range lat {
		if !(l >= 0) || math.IsInf(l, 1) {
			b.fail("baseline latency of class %d: %v s, want finite and ≥ 0", c, l)
			return
		}
	}
	b.baseline = append([]float64(nil), lat...)
}

// Err is the first error met so far, or nil.
func (b *Builder) Err() error { return b.err }

// NumVertices is the number of vertices added so far.
func (b *Builder) NumVertices() int { return b.vRank.len() }

func (b *Builder) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("sensitivity: "+format, args...)
	}
}

// Vertex adds a vertex of a rank with a constant cost (s, finite, ≥ 0).
func (b *Builder) Vertex(rank int, kind Kind, cost float64) VertexID {
	id := VertexID(b.vRank.len())
	if rank < 0 || rank >= b.ranks {
		b.fail("vertex %d: rank %d outside 0..%d", id, rank, b.ranks-1)
		rank = 0
	}
	if kind >= numKinds {
		b.fail("vertex %d: unknown kind %d", id, kind)
	}
	if !(cost >= 0) || math.IsInf(cost, 1) {
		b.fail("vertex %d: cost %v s, want finite and ≥ 0", id, cost)
	}
	if b.vRank.len() == math.MaxInt32 {
		b.fail("more than %d vertices", math.MaxInt32)
		return id - 1
	}
	b.vRank.append(int32(rank))
	b.vPay.append(b.vtab.add(kind, cost))
	if b.grouped {
		b.inDeg.append(0)
	}
	return id
}

// Edge adds an edge whose cost is Σ count·ℓ_class + rest (s): "to" cannot
// start before "from" has finished plus that cost.
func (b *Builder) Edge(from, to VertexID, rest float64, lat ...LatTerm) {
	b.EdgeBytes(from, to, rest, 0, lat...)
}

// EdgeBytes is Edge for a message edge carrying bytes: rest includes the
// bandwidth time bytes·G, and bytes is kept so that λ_G = ∂T/∂G can be
// reported (the bytes on the critical path).
func (b *Builder) EdgeBytes(from, to VertexID, rest, bytes float64, lat ...LatTerm) {
	n := VertexID(b.vRank.len())
	switch {
	case from < 0 || from >= n || to < 0 || to >= n:
		b.fail("edge %d→%d: unknown vertex (have %d)", from, to, n)
		return
	case math.IsNaN(rest) || math.IsInf(rest, 0):
		b.fail("edge %d→%d: rest %v s is not finite", from, to, rest)
		return
	case !(bytes >= 0) || math.IsInf(bytes, 1):
		b.fail("edge %d→%d: bytes %v, want finite and ≥ 0", from, to, bytes)
		return
	}
	word, ok := b.packTerms(from, to, lat)
	if !ok {
		return
	}
	if b.grouped && int32(to) < b.lastTo {
		b.writeOutTo()
	}
	if b.grouped {
		b.inDeg.add(int(to)+1, 1)
		b.lastTo = int32(to)
	} else {
		b.eTo.append(int32(to))
	}
	b.eFrom.append(int32(from))
	b.ePay.append(b.pay.add(rest, bytes, word))
}

// writeOutTo makes eTo from the in-degrees of edges grouped by destination.
func (b *Builder) writeOutTo() {
	if !b.grouped {
		return
	}
	for v := range b.inDeg.len() - 1 {
		for range b.inDeg.at(v + 1) {
			b.eTo.append(int32(v))
		}
	}
	b.inDeg, b.grouped = column[int32]{}, false
}

// packTerms validates lat, merges repeated classes and packs them.
func (b *Builder) packTerms(from, to VertexID, lat []LatTerm) (uint32, bool) {
	var terms [4]LatTerm
	merged := terms[:0]
	for _, t := range lat {
		if t.Class > MaxClass || t.Count < 0 || t.Count > maxTermCount {
			b.fail("edge %d→%d: latency term %+v, want class ≤ %d and 0 ≤ count ≤ %d", from, to, t, MaxClass, maxTermCount)
			return 0, false
		}
		if t.Count == 0 {
			continue
		}
		found := false
		for i := range merged {
			if merged[i].Class == t.Class {
				merged[i].Count += t.Count
				found = merged[i].Count <= maxTermCount
				if !found {
					b.fail("edge %d→%d: more than %d class-%d terms", from, to, maxTermCount, t.Class)
					return 0, false
				}
			}
		}
		if !found {
			merged = append(merged, t)
		}
		if int(t.Class) >= b.classes {
			b.classes = int(t.Class) + 1
		}
	}
	switch len(merged) {
	case 0:
		return 0, true
	case 1:
		return packTerm(merged[0]), true
	}
	k, ok := b.intern.index(merged, &b.multi, &b.multiStart)
	if !ok {
		b.fail("more than %d distinct multi-class term lists", maxTermCount)
		return 0, false
	}
	return multiClass<<24 | uint32(k), true
}

// termLists interns the term lists of multi-term edges: edges with the same
// list (every message of one route shape carries the same per-class counts)
// share one entry of multi, so that a graph with a latency class per link
// class costs no more memory per edge than one with a single class.
type termLists map[string]int32

// index returns the index of terms in multi/multiStart, appending it when
// new; false when the indices run out (they pack into 24 bits).
func (tl *termLists) index(terms []LatTerm, multi *[]LatTerm, multiStart *[]int32) (uint32, bool) {
	if *tl == nil {
		*tl = termLists{}
	}
	var kb [64]byte
	key := kb[:0]
	for _, t := range terms {
		key = append(key, t.Class, byte(t.Count), byte(t.Count>>8), byte(t.Count>>16))
	}
	if k, ok := (*tl)[string(key)]; ok {
		return uint32(k), true
	}
	k := len(*multiStart) - 1
	if k > maxTermCount {
		return 0, false
	}
	*multi = append(*multi, terms...)
	*multiStart = append(*multiStart, int32(len(*multi)))
	(*tl)[string(key)] = int32(k)
	return uint32(k), true
}

// CycleError reports that the edges do not form a DAG.
type CycleError struct {
	Cycle []VertexID // builder IDs along one cycle, in edge order (at most 16 shown)
	Ranks []int      // rank of each vertex in Cycle
	Kinds []Kind
	Stuck int // vertices that could not be ordered
}

func (e *CycleError) Error() string {
	var s strings.Builder
	fmt.Fprintf(&s, "sensitivity: the graph has a cycle (%d vertices cannot be ordered): ", e.Stuck)
	for i, v := range e.Cycle {
		if i > 0 {
			s.WriteString(" → ")
		}
		fmt.Fprintf(&s, "%d (rank %d %s)", v, e.Ranks[i], e.Kinds[i])
	}
	return s.String()
}

// Graph is Build for recorders whose graphs are acyclic by construction
// (edges go forward in simulated time): it panics on an error, which then
// is a bug of the recorder. Parsers of outside data must call Build.
func (b *Builder) Graph() *Graph {
	g, err := b.Build()
	if err != nil {
		panic(err)
	}
	return g
}

// Build orders the vertices topologically and packs the edges by
// destination. It returns the first recorded error or a *CycleError.
func (b *Builder) Build() (*Graph, error) {
	if b.err != nil {
		return nil, b.err
	}
	g := &Graph{ranks: b.ranks, classes: b.classes, multiStart: b.multiStart, multi: b.multi, baseline: b.baseline, pay: b.pay.payloads, vtab: b.vtab.vertexPayloads}
	nv := b.vRank.len()
	if b.grouped && b.groupedInOrder() {
		// Edges grouped by destination in creation order, every source
		// before its destination (recorders: observe's, goal's): the
		// arrays become the graph's as they are, with no copy of any.
		g.vRank, g.vPay = b.vRank, b.vPay
		g.inStart = b.inDeg
		for v := range nv {
			g.inStart.add(v+1, g.inStart.at(v))
		}
		g.eFrom, g.ePay = b.eFrom, b.ePay
		*b = Builder{ranks: b.ranks, err: fmt.Errorf("sensitivity: Builder used after Build")}
		return g, nil
	}
	b.writeOutTo()
	order, err := b.topoOrder()
	if err != nil {
		return nil, err
	}
	if order == nil {
		g.vRank, g.vPay = b.vRank, b.vPay
	} else {
		g.newID = make([]int32, nv)
		for newV, old := range order {
			g.newID[old] = int32(newV)
		}
		g.vRank = permute(&b.vRank, order)
		g.vPay = permute(&b.vPay, order)
		for i := range b.eFrom.len() {
			b.eFrom.set(i, g.newID[b.eFrom.at(i)])
			b.eTo.set(i, g.newID[b.eTo.at(i)])
		}
	}
	// Counting sort of the edges by destination, stable in insertion order.
	g.inStart = makeColumn[int32](nv + 1)
	ne := b.eFrom.len()
	for i := range ne {
		g.inStart.add(int(b.eTo.at(i))+1, 1)
	}
	for v := 0; v < nv; v++ {
		g.inStart.add(v+1, g.inStart.at(v))
	}
	pos := make([]int32, ne)
	next := make([]int32, nv)
	for v := range next {
		next[v] = g.inStart.at(v)
	}
	for i := range ne {
		t := b.eTo.at(i)
		pos[i] = next[t]
		next[t]++
	}
	next, b.eTo = nil, column[int32]{}
	g.eFrom = scatter(&b.eFrom, pos)
	b.eFrom = column[int32]{}
	g.ePay = scatter(&b.ePay, pos)
	g.renumberPayloads()
	*b = Builder{ranks: b.ranks, err: fmt.Errorf("sensitivity: Builder used after Build")}
	return g, nil
}

// groupedInOrder reports, for edges grouped by destination (eTo nil),
// whether each edge's source was created before its destination.
func (b *Builder) groupedInOrder() bool {
	e := 0
	for v := range b.inDeg.len() - 1 {
		for range b.inDeg.at(v + 1) {
			if int(b.eFrom.at(e)) >= v {
				return false
			}
			e++
		}
	}
	return true
}

// renumberPayloads numbers the payloads in the order of their first edge,
// as a graph read from a file has them, so that what follows the edges
// (Merge's term lists) comes out as it would from the file.
func (g *Graph) renumberPayloads() {
	old := g.pay
	newK := make([]uint32, len(old.rest)) // 0: not met yet (entry 0 stays 0)
	g.pay = payloads{rest: old.rest[:1:1], bytes: old.bytes[:1:1], lat: old.lat[:1:1]}
	for e := range g.ePay.len() {
		k := g.ePay.at(e)
		if k == 0 {
			continue
		}
		if newK[k] == 0 {
			newK[k] = uint32(len(g.pay.rest))
			g.pay.rest = append(g.pay.rest, old.rest[k])
			g.pay.bytes = append(g.pay.bytes, old.bytes[k])
			g.pay.lat = append(g.pay.lat, old.lat[k])
		}
		g.ePay.set(e, newK[k])
	}
}

func permute[T ~int32 | ~uint32](s *column[T], order []int32) column[T] {
	t := makeColumn[T](s.len())
	for i, old := range order {
		t.set(i, s.at(int(old)))
	}
	return t
}

func scatter[T ~int32 | ~uint32](s *column[T], pos []int32) column[T] {
	t := makeColumn[T](s.len())
	for i, p := range pos {
		t.set(int(p), s.at(i))
	}
	return t
}

// topoOrder returns nil if the creation order is already topological, else
// a topological order (Kahn's algorithm, FIFO, so ties keep creation order).
func (b *Builder) topoOrder() ([]int32, error) {
	ne := b.eFrom.len()
	sorted := true
	for i := range ne {
		if b.eFrom.at(i) >= b.eTo.at(i) {
			sorted = false
			break
		}
	}
	if sorted {
		return nil, nil
	}
	nv := b.vRank.len()
	outStart := make([]int32, nv+1)
	indeg := make([]int32, nv)
	for i := range ne {
		outStart[b.eFrom.at(i)+1]++
		indeg[b.eTo.at(i)]++
	}
	for v := 0; v < nv; v++ {
		outStart[v+1] += outStart[v]
	}
	outTo := make([]int32, ne)
	fill := append([]int32(nil), outStart[:nv]...)
	for i := range ne {
		f := b.eFrom.at(i)
		outTo[fill[f]] = b.eTo.at(i)
		fill[f]++
	}
	fill = nil
	order := make([]int32, 0, nv)
	for v := 0; v < nv; v++ {
		if indeg[v] == 0 {
			order = append(order, int32(v))
		}
	}
	for head := 0; head < len(order); head++ {
		u := order[head]
		for _, w := range outTo[outStart[u]:outStart[u+1]] {
			indeg[w]--
			if indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	if len(order) < nv {
		return nil, b.cycleError(indeg, nv-len(order))
	}
	return order, nil
}

// cycleError finds one cycle among the vertices Kahn's algorithm left with
// a positive in-degree: each has a predecessor that is also stuck.
func (b *Builder) cycleError(indeg []int32, stuck int) error {
	pred := make([]int32, len(indeg))
	for i := range pred {
		pred[i] = -1
	}
	start := int32(-1)
	for i := range b.eFrom.len() {
		if f, t := b.eFrom.at(i), b.eTo.at(i); indeg[t] > 0 && indeg[f] > 0 {
			pred[t] = f
			start = t
		}
	}
	seen := map[int32]int{}
	var walk []int32
	for v := start; v >= 0; v = pred[v] {
		if at, ok := seen[v]; ok {
			walk = walk[at:]
			break
		}
		seen[v] = len(walk)
		walk = append(walk, v)
	}
	e := &CycleError{Stuck: stuck}
	// walk follows predecessors; report it in edge order.
	for i := len(walk) - 1; i >= 0 && len(e.Cycle) < 16; i-- {
		v := walk[i]
		e.Cycle = append(e.Cycle, VertexID(v))
		e.Ranks = append(e.Ranks, int(b.vRank.at(int(v))))
		e.Kinds = append(e.Kinds, b.vtab.kind[b.vPay.at(int(v))])
	}
	return e
}
