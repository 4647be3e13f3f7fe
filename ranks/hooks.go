package ranks

import "github.com/emu-hpc/emu/fluid"

// EventKind says what happened in an Event.
type EventKind uint8

// The events a World emits to its hooks, in simulation order.
const (
	ComputeStart EventKind = iota // a rank starts charging compute time
	ComputeEnd                    // ... and is done
	SendPost                      // a send is posted (after its overhead)
	RecvPost                      // a receive is posted
	Match                         // a send and a receive are paired (emitted for the receiver)
	SendDone                      // the send side completes (detached: at post; rendezvous: at arrival)
	RecvDone                      // the last byte has arrived at the receiver
	Finished                      // the rank's main has returned (its last overheads included)
	CallStart                     // the rank enters an MPI call (Kernel names it, e.g. "MPI_Send")
	CallEnd                       // ... and returns from it
	// Stack: the rank starts Seconds of MPI-stack time inside an MPI call (a
	// send, isend or receive overhead — Bytes the message's payload,
	// Kernel "Send", "Isend", "Recv" — or a probe or test cost, Kernel
	// "Iprobe", "Test", ..., Bytes 0): CPU time of the MPI layer, seed 002's
	// "MPI stack".
	Stack
)

var kindNames = [...]string{"ComputeStart", "ComputeEnd", "SendPost", "RecvPost", "Match", "SendDone", "RecvDone", "Finished", "CallStart", "CallEnd", "Stack"}

func (k EventKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "EventKind(?)"
}

// Event is one thing that happened to one rank. Hooks receive a pointer to
// an Event owned by the World and valid only during the call: copy what you
// keep.
type Event struct {
	Kind       EventKind
	Time       float64 // s
	Rank       int     // world rank the event belongs to
	Peer       int     // world rank of the other side (messages); AnySource for a wildcard receive not yet matched
	Tag        int
	Bytes      int     // payload bytes
	MsgID      uint64  // same on the send and the receive side of one message; 0 for compute
	RecvID     uint64  // on RecvPost, Match and RecvDone: the receive's identity, so a listener need not redo MPI matching
	Kernel     string  // compute events: the kernel; call events: the MPI call
	Seconds    float64 // compute duration, s
	Rendezvous bool
	Hops       int     // switches crossed by the message's route (Match, SendDone, RecvDone)
	Latency    float64 // latency part of the transfer time: route latency × latency factor, s
	Transfer   float64 // on RecvDone (and rendezvous SendDone): network time, first byte sent → last byte in, s
	// Classes: the route's cables per link class (fluid.RouteClasses) where
	// Hops is set; shared by every message of the route, read-only.
	Classes []fluid.ClassCount
}

// Hook listens to a World's events.
type Hook func(*Event)

// KindSet is a set of event kinds, one bit per EventKind.
type KindSet uint16

// AllKinds holds every EventKind.
const AllKinds = KindSet(1<<(Stack+1) - 1)

// KindsOf returns the set of kinds.
func KindsOf(kinds ...EventKind) KindSet {
	var s KindSet
	for _, k := range kinds {
		s |= 1 << k
	}
	return s
}

// Has reports whether k is in s.
func (s KindSet) Has(k EventKind) bool { return s&(1<<k) != 0 }

// Listener is a Hook and the kinds of events it is called for.
//
// Why kinds: at Stampede's scale a message makes some ten events, and
// building each one reads the message's route out of the cache; a listener
// that wants one kind (a message counter, a progress line) should not make
// the World build the nine others.
type Listener struct {
	Kinds KindSet
	Hook  Hook
	// LateStack: the hook may hear a dormant probe's failed polls (Stack
	// events, Time each poll's look) late: all of a rank's before its next
	// event, or when it wakes, in its order, but after other ranks' events
	// and after its own at the same instant. Right for a hook whose state is
	// per rank and to which a second event at an instant adds nothing (the
	// time split Breakdown); such listeners of Stack let the polls go
	// dormant (ranks/dormant.go).
	LateStack bool
}

// AddHook registers h for every kind of event: AddListener(Listener{AllKinds, h}).
func (w *World) AddHook(h Hook) { w.AddListener(Listener{Kinds: AllKinds, Hook: h}) }

// AddListener registers l; listeners are called in registration order, each
// for the kinds it names. Add them before Run. An event no listener wants
// costs one bit test.
func (w *World) AddListener(l Listener) {
	w.listeners = append(w.listeners, l)
	w.heard |= l.Kinds
	w.strictStack = w.strictStack || l.Kinds.Has(Stack) && !l.LateStack
	w.lateStack = w.hears(Stack) && !w.strictStack
	w.callEnds = w.callEnds || w.hears(CallEnd)
}

// The kinds whose events carry a receive's RecvID, and those that carry a
// route's Hops and Classes: receives are numbered, and routes' classes
// counted, only when one of them is heard.
const (
	recvKinds  = KindSet(1<<RecvPost | 1<<Match | 1<<RecvDone)
	routeKinds = KindSet(1<<Match | 1<<SendDone | 1<<RecvDone)
)

// hears reports whether some listener wants events of kind k.
func (w *World) hears(k EventKind) bool { return w.heard.Has(k) }

// event clears the World's scratch event and starts it: kind, the current
// time, rank and peer. The caller fills in the rest of what it tells, then
// calls emit.
//
// Why in place: emit(Event{...}) built the event on the stack and copied it
// into the scratch, and the copy's 16-byte loads stalled on the literal's
// narrower stores (no store forwarding) — 4% of the CPU at Stampede scale,
// where every message emits some ten events to the one hook that listens.
// Clearing the scratch and storing the fields into it loads nothing back.
func (w *World) event(kind EventKind, rank, peer int) *Event {
	ev := &w.scratch
	*ev = Event{}
	ev.Kind, ev.Time, ev.Rank, ev.Peer = kind, w.eng.Now(), rank, peer
	return ev
}

// emit passes the scratch event that event started to every listener that
// wants its kind.
func (w *World) emit() {
	if w.lateStack {
		w.tellDormant()
	}
	for _, l := range w.listeners {
		if l.Kinds.Has(w.scratch.Kind) {
			l.Hook(&w.scratch)
		}
	}
}

// stack charges d seconds of MPI-stack time to r (an overhead of a
// message of bytes payload bytes, or a poll's cost) and tells the hooks.
func (r *Rank) stack(d float64, call string, bytes int) {
	r.taskStack(d, call, bytes)
	r.sleep(d, call)
}

// mpiEnter marks the start of the MPI call named name on r and returns the
// name for mpiExit (defer r.mpiExit(r.mpiEnter("MPI_Send"))). Only the
// outermost call is told to the listeners: a collective's own sends are part
// of it. Without a listener of calls it is a counter.
//
// A rank that owes no sleep, in a call already told or unheard, only
// counts it; the rest is enterCall's.
func (r *Rank) mpiEnter(name string) string {
	if r.due != 0 || r.callDepth == 0 && r.w.hears(CallStart) {
		r.enterCall(name)
	} else {
		r.callDepth++
	}
	return name
}

// enterCall is mpiEnter for a rank that owes a sleep or starts a call that
// a listener hears.
func (r *Rank) enterCall(name string) {
	r.settle()
	if r.callDepth++; r.callDepth == 1 && r.w.hears(CallStart) {
		r.tellCall(CallStart, name)
	}
}

// tellCall tells the listeners that the outermost MPI call name starts or
// ends (kind CallStart or CallEnd), unless the run is over. Out of line, so
// that mpiExit inlines.
func (r *Rank) tellCall(kind EventKind, name string) {
	if !r.w.over {
		r.w.event(kind, r.id, 0).Kernel = name
		r.w.emit()
	}
}

// mpiExit marks the end of the call mpiEnter started. Under
// Config.ProbeAfterProgress the end of an outermost call is the rank's
// progress: the messages waiting in its mailbox become visible to its
// next Iprobe.
//
// It inlines: the end of an outermost call does something only under
// ProbeAfterProgress or for a listener of CallEnd (callEnded).
func (r *Rank) mpiExit(name string) {
	if r.callDepth--; r.callDepth == 0 && r.w.callEnds {
		r.callEnded(name)
	}
}

// callEnded is mpiExit's end of an outermost call.
func (r *Rank) callEnded(name string) {
	w := r.w
	if w.cfg.ProbeAfterProgress {
		for s := r.mbox.sends.head; s != nil; s = s.next {
			s.progressed = true
		}
	}
	if w.hears(CallEnd) {
		r.tellCall(CallEnd, name)
	}
}
