package observe

import (
	"sort"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/sensitivity"
)

// MPISplit splits every rank's time inside MPI calls after seed 002 (Wilke
// et al.), from the ranks' events, which see calls, protocols, posts and
// arrivals exactly:
//
//   - stack: the MPI layer's CPU time inside calls — send, isend and receive
//     overheads, probe and test costs (ranks.Stack events);
//   - synchronisation: waiting because the other side had not posted yet.
//     A wait inside a call that ends with one of the rank's messages
//     completing, from t (the call's start, or the end of what the call
//     did before) to the completion x, holds max(0, T_other − t), capped
//     at x − t, of synchronisation: T_other is the send's post for a
//     receive (eq. (2); eq. (4) when the receive was posted earlier and
//     t is when the rank came to wait for it) and the receive's post for a
//     rendezvous send (eq. (1), (3)); T_Send is the post after the send
//     overhead, T_PostRecv the post before any receive overhead, as the
//     paper defines them. Waiting that no message of the rank's ends (a
//     blocking probe, a wait whose message arrived while the rank was
//     elsewhere) is synchronisation too;
//   - network: the rest of each message-ended wait.
//
// Each part is booked to the MPI call it happens in (a collective is one
// call) and to the protocol of the message: ProtoAsync (below the async
// threshold: sent before the receive is posted), ProtoEager (detached
// below the eager threshold), ProtoRendezvous; probe and test costs and
// message-less waits to ProtoNone. stack + sync + network of a rank is its
// time inside MPI calls. If a message of the rank completes during a wait
// for another one (an Irecv posted earlier, completing inside a Send), the
// wait up to it is booked to it. It is a ranks hook.
type MPISplit struct {
	asyncBelow, eagerBelow int // ranks.Config's AsyncThreshold and EagerThreshold, bytes

	rank     []splitRank
	sendPost map[uint64]float64 // MsgID → the send's post, s (until its receive completes)
	recvPost map[uint64]float64 // RecvID → the receive's post, s (until matched)
	matched  map[uint64]float64 // rendezvous MsgID → its receive's post, s (until the send completes)
	calls    map[string]*sensitivity.MPIPart
	protos   [protoCount]sensitivity.MPIPart
}

type splitRank struct {
	sensitivity.RankTime
	inCall    bool
	call      string
	t         float64 // time up to which the open call is booked, s
	computeAt float64 // start of the open compute interval, s
}

// The protocols of seed 002's split, as ranks runs them.
const (
	ProtoNone = iota // no message: probe and test costs, message-less waits
	ProtoAsync
	ProtoEager
	ProtoRendezvous
	protoCount
)

var protoNames = [protoCount]string{"none", "async-small", "eager", "rendezvous"}

// NewMPISplit returns an empty split for n ranks under the MPI model cfg.
func NewMPISplit(n int, cfg ranks.Config) *MPISplit {
	m := &MPISplit{asyncBelow: cfg.AsyncThreshold, eagerBelow: cfg.EagerThreshold, rank: make([]splitRank, n),
		sendPost: map[uint64]float64{}, recvPost: map[uint64]float64{}, matched: map[uint64]float64{}, calls: map[string]*sensitivity.MPIPart{}}
	for r := range m.rank {
		m.rank[r].Rank = r
	}
	return m
}

// proto is the protocol of a message of bytes payload bytes.
func (m *MPISplit) proto(bytes int) int {
	switch {
	case bytes < m.asyncBelow:
		return ProtoAsync
	case bytes < m.eagerBelow:
		return ProtoEager
	}
	return ProtoRendezvous
}

// The kinds of MPI time book adds to.
const (
	kindStack = iota
	kindSync
	kindNetwork
)

// book adds d seconds of kind to rank r, its open call and protocol p.
func (m *MPISplit) book(r *splitRank, p, kind int, d float64) {
	if d <= 0 {
		return
	}
	c := m.calls[r.call]
	if c == nil {
		c = &sensitivity.MPIPart{Name: r.call}
		m.calls[r.call] = c
	}
	add(&c.Stack, &c.Sync, &c.Network, kind, d)
	add(&m.protos[p].Stack, &m.protos[p].Sync, &m.protos[p].Network, kind, d)
	add(&r.Stack, &r.Sync, &r.Network, kind, d)
}

// add adds d to the one of stack, sync and network that kind names.
func add(stack, sync, network *float64, kind int, d float64) {
	switch kind {
	case kindStack:
		*stack += d
	case kindSync:
		*sync += d
	default:
		*network += d
	}
}

// waitUntil books rank r's wait from r.t to x, ended by a message of
// protocol p whose other side posted at other: synchronisation up to other,
// network after it.
func (m *MPISplit) waitUntil(r *splitRank, x, other float64, p int) {
	if x <= r.t {
		return // the message completed while the rank was in the stack
	}
	wait := x - r.t
	sync := min(wait, max(0, other-r.t))
	m.book(r, p, kindSync, sync)
	m.book(r, p, kindNetwork, wait-sync)
	r.t = x
}

// Hook is the ranks.Hook that feeds the split.
func (m *MPISplit) Hook(ev *ranks.Event) {
	if ev.Rank < 0 || ev.Rank >= len(m.rank) {
		return
	}
	r := &m.rank[ev.Rank]
	r.End = max(r.End, ev.Time)
	switch ev.Kind {
	case ranks.ComputeStart:
		r.computeAt = ev.Time
	case ranks.ComputeEnd:
		r.Compute += ev.Time - r.computeAt
	case ranks.CallStart:
		r.inCall, r.call, r.t = true, ev.Kernel, ev.Time
		if m.calls[ev.Kernel] == nil {
			m.calls[ev.Kernel] = &sensitivity.MPIPart{Name: ev.Kernel}
		}
		m.calls[ev.Kernel].Calls++
	case ranks.CallEnd:
		m.waitUntil(r, ev.Time, ev.Time, ProtoNone) // a message-less wait is synchronisation
		r.inCall = false
	case ranks.Stack:
		if !r.inCall {
			return
		}
		m.waitUntil(r, ev.Time, ev.Time, ProtoNone)
		p := ProtoNone
		if ev.Kernel == "Send" || ev.Kernel == "Isend" || ev.Kernel == "Recv" {
			p = m.proto(ev.Bytes)
		}
		m.book(r, p, kindStack, ev.Seconds)
		r.t = ev.Time + ev.Seconds
	case ranks.SendPost:
		m.sendPost[ev.MsgID] = ev.Time
	case ranks.RecvPost:
		m.recvPost[ev.RecvID] = ev.Time
	case ranks.Match:
		if ev.Rendezvous {
			m.matched[ev.MsgID] = m.recvPost[ev.RecvID]
		}
		delete(m.recvPost, ev.RecvID)
	case ranks.RecvDone:
		other := m.sendPost[ev.MsgID]
		delete(m.sendPost, ev.MsgID)
		if r.inCall {
			m.waitUntil(r, ev.Time, other, m.proto(ev.Bytes))
		}
	case ranks.SendDone:
		if !ev.Rendezvous {
			return // a detached send completes at its post: nothing waited
		}
		other := m.matched[ev.MsgID]
		delete(m.matched, ev.MsgID)
		if r.inCall {
			m.waitUntil(r, ev.Time, other, ProtoRendezvous)
		}
	}
}

// Listener is the split's listener: every kind, and with late its
// ranks.Listener.LateStack, so that a dormant probe's failed polls may be
// told late (all of a rank's before its next event, in its order), which
// lets them go dormant (ranks/dormant.go).
//
// When that keeps the bytes. A rank's own figures hear only its events, in
// its order, as before. The sums shared by the ranks (per call, per
// protocol) take each addition in the order told, and float addition is
// not associative: a rank's polls told after another rank's events change
// them unless every value moved past is the same. A dormant poll adds
// nothing but its cost d = Config.IprobeCost to the stack of its call
// (MPI_Probe, into which only the Iprobe polls of the ranks in it book
// stack) and of protocol none, and nothing to sync and network (its wait
// is 0). Under Config.NoGrowth, which dormancy needs, every other Iprobe
// costs d too, and the only other stack of protocol none is MPI_Test's and
// MPI_Testany's, Config.TestCost: late is exact when the run makes no test
// or TestCost is 0 or d (the caller knows which: runner's HPL, ping-pong,
// ring and congestor make none). Repeated additions of d in another order
// are the same additions. A closed form of k additions, or per-rank
// subtotals summed at the end, would round otherwise (HPL 4×4: the polls'
// 0.125334200001544 s summed per rank then over the ranks gives
// 0.125334199999930 s).
func (m *MPISplit) Listener(late bool) ranks.Listener {
	return ranks.Listener{Kinds: ranks.AllKinds, Hook: m.Hook, LateStack: late}
}

// Ranks returns each rank's split (End: its last event; Compute: its kernels).
func (m *MPISplit) Ranks() []sensitivity.RankTime {
	out := make([]sensitivity.RankTime, len(m.rank))
	for i := range m.rank {
		out[i] = m.rank[i].RankTime
	}
	return out
}

// Protocols returns the split per protocol, in the order none, async-small,
// eager, rendezvous (those with time only).
func (m *MPISplit) Protocols() []sensitivity.MPIPart {
	var out []sensitivity.MPIPart
	for p, part := range m.protos {
		if part.Stack+part.Sync+part.Network > 0 {
			part.Name = protoNames[p]
			out = append(out, part)
		}
	}
	return out
}

// Calls returns the split per MPI call, the most time first (then by name).
func (m *MPISplit) Calls() []sensitivity.MPIPart {
	out := make([]sensitivity.MPIPart, 0, len(m.calls))
	for _, c := range m.calls {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		ti, tj := out[i].Stack+out[i].Sync+out[i].Network, out[j].Stack+out[j].Sync+out[j].Network
		if ti != tj {
			return ti > tj
		}
		return out[i].Name < out[j].Name
	})
	return out
}
