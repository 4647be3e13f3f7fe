package observe

import (
	"math"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/sensitivity"
)

// GraphRecorder listens to a World's events and builds the run's execution graph for
// the sensitivity analysis (sensitivity package doc, LLAMP Algorithm 1 and Appendix B):
//
//   - each rank starts with a zero-cost Calc vertex, then one vertex per operation in
//     program order: a Calc vertex per compute burst (cost = its seconds), a Send
//     vertex per posted send, joined by program-order edges of rest 0;
//   - a message becomes a Recv vertex on the receiver with a data edge from the Send
//     vertex and one from the receive's posting point (the receiver's vertex before
//     the receive was posted), because SMPI moves a message's data only once both
//     sides have posted. The edges carry the message's latency as ℓ terms (see
//     LatencyMode) and the rest of its network time as a constant; a message within
//     one host has no latency term and rest = its transfer time;
//   - a rendezvous send gets a completion vertex on the sender with the same two
//     edges (LLAMP's rendezvous edge: the send cannot complete before the receive is
//     posted plus a latency).
//
// Completions (Recv vertices, rendezvous send completions) join their rank's program
// order at the rank's next operation, since the events say when a message arrived,
// not when the rank waited for it. Every edge goes from a vertex created earlier to
// one created later, so the graph is acyclic by construction.
//
// Local time the MPI layer charges without a compute event (Iprobe/Test costs,
// overheads, the delay before a polling rank notices a message) becomes a Calc
// vertex before the rank's next operation: the time since the last thing that
// explains the rank's timeline (its previous operation's end, a completion, or the
// envelope that ended a probe, which gets an edge to that vertex). In wire mode the
// graph evaluated at its baseline latencies (Graph.Baseline) gives the run's
// simulated time to the last bit whenever all links have one latency and probes
// are free (tests; with probe costs the waiting ranks' polling is under-counted,
// measured ≤ 0.1%); record_latency.go says what moving ℓ away from the baseline
// means in each LatencyMode.
type GraphRecorder struct {
	b       *sensitivity.Builder
	last    []sensitivity.VertexID   // the rank's latest operation
	pending [][]sensitivity.VertexID // completions to join the rank's next operation
	posts   [][]posted               // receives posted and not matched yet, in posting order
	sendOf  map[uint64]sensitivity.VertexID
	postOf  map[uint64]sensitivity.VertexID
	halfway map[uint64]bool // rendezvous messages with one of their two completions seen
	hostOf  []int           // rank → host, to tell loopback messages; nil = all remote
	lats    latTally        // one link's (end-to-end: one message's) latency of the network messages seen, for BaselineLatency
	mode    LatencyMode
	factor  func(bytes int) float64 // latency factor of a payload size (wire mode); nil = 1
	excess  map[float64]uint8       // wire mode: latency factor > 1 → its class
	factors []float64               // wire mode: the latency factors of the factor classes, in order of first use

	// Wire mode records one latency class per link class (record_classes.go);
	// the classes of link classes and of factors share one numbering, in order
	// of first use.
	classes   []classInfo
	linkClass map[string]uint8 // link class name → its latency class
	// routes: per route (keyed by its shared ClassCount slice) its terms and
	// messages, so that a message costs one pointer lookup; routeOrder in
	// order of first use, for the class baselines.
	routes     map[*fluid.ClassCount]*routeInfo
	routeOrder []*routeInfo
	termBuf    []sensitivity.LatTerm
	perClass   *ClassGraph // built by Graph
	switchLat  float64     // the platform's latency per switch crossed, s
	linkLat    float64     // the platform's link latency, s: wire mode's baseline without network messages
	switchCls  int         // the switches' latency class, −1 before the first switched message

	// Local time the events do not show as compute (Iprobe/Test costs, overheads,
	// the polling delay of a probe loop): busy is the simulated time up to which a
	// rank's timeline is explained (its last operation's end, or the latest event
	// that could wake it); wokeBy the send whose envelope was that event, if any.
	busy   []float64
	wokeBy []sensitivity.VertexID
}

// gapTol is the smallest unexplained local time recorded as a Calc vertex, s: below
// it a gap is rounding in the event times.
const gapTol = 1e-12

type posted struct {
	peer, tag int
	at        sensitivity.VertexID
}

// NewGraphRecorder records a run of n ranks; placement (rank → host, may be nil)
// tells messages within a host, which get no network latency term. Without
// options it records in WireLatency mode with latency factor 1 (cm02).
func NewGraphRecorder(n int, placement []int, opts ...RecordOptions) *GraphRecorder {
	g := &GraphRecorder{
		b: sensitivity.NewBuilder(n), last: make([]sensitivity.VertexID, n),
		pending: make([][]sensitivity.VertexID, n), posts: make([][]posted, n),
		sendOf: map[uint64]sensitivity.VertexID{}, postOf: map[uint64]sensitivity.VertexID{},
		halfway: map[uint64]bool{}, hostOf: placement,
		busy: make([]float64, n), wokeBy: make([]sensitivity.VertexID, n),
		excess: map[float64]uint8{}, linkClass: map[string]uint8{}, routes: map[*fluid.ClassCount]*routeInfo{},
	}
	g.switchCls = -1
	for _, o := range opts {
		g.mode, g.factor, g.switchLat, g.linkLat = o.Latency, o.LatFactor, o.SwitchLatency, o.LinkLatency
	}
	for r := range n {
		g.last[r] = g.b.Vertex(r, sensitivity.Calc, 0)
		g.wokeBy[r] = -1
	}
	return g
}

// Hook is the ranks.Hook to add to the World.
func (g *GraphRecorder) Hook(ev *ranks.Event) {
	r := ev.Rank
	switch ev.Kind {
	case ranks.ComputeStart:
		g.catchUp(r, ev.Time, sensitivity.Recv)
		g.op(r, sensitivity.Calc, ev.Seconds)
	case ranks.ComputeEnd:
		g.busy[r] = math.Max(g.busy[r], ev.Time)
	case ranks.Finished:
		// What the rank did after its last event (a receive's overhead,
		// say) is part of its time too.
		g.catchUp(r, ev.Time, sensitivity.Recv)
	case ranks.SendPost:
		g.catchUp(r, ev.Time, sensitivity.Send)
		v := g.op(r, sensitivity.Send, 0)
		g.sendOf[ev.MsgID] = v
		if p := ev.Peer; p >= 0 && p < len(g.busy) && ev.Time > g.busy[p] {
			// The envelope can end the receiver's wait in a Probe or an Iprobe loop.
			g.busy[p], g.wokeBy[p] = ev.Time, v
		}
	case ranks.RecvPost:
		g.catchUp(r, ev.Time, sensitivity.Recv)
		if len(g.pending[r]) > 0 {
			// Completions the rank waited for come before this post in program order
			// (Wait(A) then Irecv(B)): join them so the posting point depends on them.
			g.op(r, sensitivity.Calc, 0)
		}
		g.posts[r] = append(g.posts[r], posted{peer: ev.Peer, tag: ev.Tag, at: g.last[r]})
	case ranks.Match:
		g.postOf[ev.MsgID] = g.takePost(r, ev.Peer, ev.Tag)
	case ranks.RecvDone:
		v := g.b.Vertex(r, sensitivity.Recv, 0)
		g.dataEdges(ev, v)
		g.pending[r] = append(g.pending[r], v)
		g.woken(r, ev.Time)
		g.forget(ev)
	case ranks.SendDone:
		if ev.Rendezvous {
			v := g.b.Vertex(r, sensitivity.Send, 0)
			g.dataEdges(ev, v)
			g.pending[r] = append(g.pending[r], v)
			g.woken(r, ev.Time)
			g.forget(ev)
		}
	}
}

// woken notes a completion of rank r at time t: waiting up to t is explained by the
// completion's vertex (pending, joined at the rank's next operation).
func (g *GraphRecorder) woken(r int, t float64) {
	if t >= g.busy[r] {
		g.busy[r], g.wokeBy[r] = t, -1
	}
}

// catchUp records the local time rank r spent between what explains its timeline
// and its next operation at time t as a vertex of kind (after the envelope that
// woke it, if one did), so that the graph keeps the run's polling and overhead
// costs. Applications charge their computation with Compute only, so such a gap
// is time inside MPI — a send's or receive's overhead, a probe's or test's cost —
// and is booked as MPI-stack time (seed 002's split): Send before a send, Recv
// otherwise.
// A rank that was waiting is explained by the event that woke it, so only the time
// after that counts: when it is not known what a rank waited for, the gap is under-
// rather than over-counted.
func (g *GraphRecorder) catchUp(r int, t float64, kind sensitivity.Kind) {
	if gap := t - g.busy[r]; gap > gapTol {
		v := g.op(r, kind, gap)
		if w := g.wokeBy[r]; w >= 0 {
			g.b.Edge(w, v, 0)
		}
	}
	g.busy[r], g.wokeBy[r] = math.Max(g.busy[r], t), -1
}

// forget drops a message's bookkeeping once its last completion is recorded: the
// receive for a detached message, the second of receive and send for a rendezvous.
func (g *GraphRecorder) forget(ev *ranks.Event) {
	if ev.Rendezvous && !g.halfway[ev.MsgID] {
		g.halfway[ev.MsgID] = true
		return
	}
	delete(g.halfway, ev.MsgID)
	delete(g.sendOf, ev.MsgID)
	delete(g.postOf, ev.MsgID)
}

// op appends an operation to rank r's program order.
func (g *GraphRecorder) op(r int, kind sensitivity.Kind, cost float64) sensitivity.VertexID {
	v := g.b.Vertex(r, kind, cost)
	g.b.Edge(g.last[r], v, 0)
	for _, p := range g.pending[r] {
		g.b.Edge(p, v, 0)
	}
	g.pending[r] = g.pending[r][:0]
	g.last[r] = v
	return v
}

// takePost finds the receive a message matched: the first posted receive of rank r
// that accepts (peer, tag), as MPI matches. Without one (cannot happen for a
// receive, which posts first) the rank's current vertex stands in.
func (g *GraphRecorder) takePost(r, peer, tag int) sensitivity.VertexID {
	for i, p := range g.posts[r] {
		if (p.peer == ranks.AnySource || p.peer == peer) && (p.tag == ranks.AnyTag || p.tag == tag) {
			g.posts[r] = append(g.posts[r][:i], g.posts[r][i+1:]...)
			return p.at
		}
	}
	return g.last[r]
}

// dataEdges links a message's completion vertex v to its send and to the receive's
// posting point, with the message's latency terms (latencyTerms) and the rest of
// its network time. A message between two ranks of one host (its route crosses no
// switch: the loopback) does not cross the network, so it carries no latency term
// and its whole time is rest.
func (g *GraphRecorder) dataEdges(ev *ranks.Event, v sensitivity.VertexID) {
	lat, rest := g.termBuf[:0], ev.Transfer
	if !g.loopback(ev) {
		var l0 float64
		lat, rest, l0 = g.latencyTerms(ev, g.termBuf[:0])
		g.termBuf = lat[:0]
		if ev.Kind == ranks.RecvDone {
			g.lats.add(l0, 1)
		}
	}
	if s, ok := g.sendOf[ev.MsgID]; ok {
		g.b.EdgeBytes(s, v, rest, float64(ev.Bytes), lat...)
	}
	if p, ok := g.postOf[ev.MsgID]; ok {
		g.b.EdgeBytes(p, v, rest, float64(ev.Bytes), lat...)
	}
}

// loopback reports whether a message stayed on its host.
func (g *GraphRecorder) loopback(ev *ranks.Event) bool {
	return g.hostOf != nil && g.hostOf[ev.Rank] == g.hostOf[ev.Peer]
}

// BaselineLatency is the class-0 latency the graph should be analysed at: the most
// common class-0 latency of the run's network messages, s (the smallest of equally
// common ones) — one link's latency in WireLatency mode, one message's end-to-end
// latency in EndToEndLatency mode. With one link latency (and, end to end, one
// route length and no latency factor) every message has it and the graph evaluated
// there gives the run's time. A run without network messages (one rank, or all on
// one host) has none: wire mode then takes RecordOptions.LinkLatency, the
// platform's, which no edge depends on; end to end it is 0.
func (g *GraphRecorder) BaselineLatency() float64 {
	if len(g.lats.n) == 0 && g.mode == WireLatency {
		return g.linkLat
	}
	return g.lats.mode()
}

// Baseline is the latency per class the graph should be analysed at, s: class 0
// at BaselineLatency, and in wire mode class c ≥ 1 at (f_c − 1) × that, f_c being
// the latency factor whose excess class c carries, or at the switch latency for
// the switches' class, in the order of mergeMap.
// Graph stores it in the graph (sensitivity.Builder.SetBaseline), so emu analyze
// starts there.
func (g *GraphRecorder) Baseline() []float64 {
	l0 := g.BaselineLatency()
	lat := []float64{l0}
	for _, ci := range g.classes {
		switch {
		case ci.factor > 1:
			lat = append(lat, (ci.factor-1)*l0)
		case ci.switches:
			lat = append(lat, g.switchLat)
		}
	}
	return lat
}

// Graph finishes the recording: every pending completion is joined to a final
// zero-cost vertex of its rank, and the graph is built. In WireLatency mode it
// is the graph of one link latency ℓ (class 0, every link class merged into
// it, Baseline) and ClassGraph has the graph it was merged from.
func (g *GraphRecorder) Graph() (*sensitivity.Graph, error) {
	for r := range g.last {
		if len(g.pending[r]) > 0 {
			g.op(r, sensitivity.Calc, 0)
		}
	}
	if g.mode == EndToEndLatency {
		g.b.SetBaseline(g.Baseline())
		if err := g.b.Err(); err != nil {
			return nil, err
		}
		return g.b.Build()
	}
	g.b.SetBaseline(g.classBaseline())
	if err := g.b.Err(); err != nil {
		return nil, err
	}
	pg, err := g.b.Build()
	if err != nil {
		return nil, err
	}
	g.perClass = g.classGraph(pg)
	return pg.Merge(g.mergeMap(), g.Baseline())
}
