package ranks

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
)

var kindNames = [...]string{"ComputeStart", "ComputeEnd", "SendPost", "RecvPost", "Match", "SendDone", "RecvDone", "Finished"}

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
	Kernel     string  // compute events
	Seconds    float64 // compute duration, s
	Rendezvous bool
	Hops       int     // switches crossed by the message's route (Match, SendDone, RecvDone)
	Latency    float64 // latency part of the transfer time: route latency × latency factor, s
	Transfer   float64 // on RecvDone (and rendezvous SendDone): network time, first byte sent → last byte in, s
}

// Hook listens to a World's events.
type Hook func(*Event)

// AddHook registers h; hooks are called in registration order. Add hooks
// before Run. With no hook, emitting an event costs one length test.
func (w *World) AddHook(h Hook) { w.hooks = append(w.hooks, h) }

// emit fills the World's scratch event and passes it to every hook.
func (w *World) emit(ev Event) {
	w.scratch = ev
	for _, h := range w.hooks {
		h(&w.scratch)
	}
}
