package loggops

// Hooks hears the decisions of LogGOPSim's loop, as it takes them, so that
// a listener (sensitivity/goal's graph recorder) can write down why each
// time is what it is, without the engine knowing who listens. Op numbers
// are the Schedule's global indices; c and n number a rank's CPU and NIC
// as the engine does (rank·CPUs + cpu, rank·NICs + nic). A listener may
// read the engine (States, the cost methods) from its calls; it may not
// change anything but the hook words of OpState.
type Hooks interface {
	// Queued: op was released (all its dependencies met) and is queued at
	// its CPU's free time; a receive is posted then.
	Queued(op int32)
	// Started: a calc or a send takes its CPU (a send also its NIC's send
	// side) now.
	Started(op int32)
	// Arrived: sendOp's message begins to be processed at its destination,
	// on the CPU and NIC indices of the send there, whether or not a
	// receive is posted.
	Arrived(sendOp int32)
	// Matched: recvOp takes sendOp's message, at the receive's posting
	// (posted: the message was waiting) or at the message's arrival.
	Matched(recvOp, sendOp int32, posted bool)
	// Freed: the rendezvous send sendOp completes at its match, which
	// frees the sender's CPU c and NIC n no earlier than now.
	Freed(sendOp int32, c, n int)
	// Met: pred's start (start) or completion meets one dependency of succ,
	// whose state st is at hand.
	Met(pred, succ int32, start bool, st *OpState)
}

// States returns every op's state, indexed by op; hooks keep their words
// there (OpState).
func (e *Engine) States() []OpState { return e.st }

// Overhead is o, the CPU overhead per message in ps, and EagerLimit S in
// bytes: with SendCPU, SendNIC, RecvNIC and RecvCPUExtra (engine.go), the
// costs of LogGOPSim's loop for hooks that write them down.
func (e *Engine) Overhead() int64 { return e.o }

// EagerLimit is S, bytes: a message of more is rendezvous.
func (e *Engine) EagerLimit() int64 { return e.S }
