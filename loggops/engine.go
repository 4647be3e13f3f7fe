package loggops

import "github.com/emu-hpc/emu/traceformat"

// event is an entry of the global event queue: an op ready to run
// (0 ≤ op < NumOps), a message's first byte arriving at its destination
// (op = -1-sendOp), or a token standing for the ops and messages parked on
// a busy resource (op = NumOps + resource; see park.go). Events are
// ordered by time, then by ts, the insertion number LogGOPSim gives each
// new entry (a retried entry keeps its ts).
type event struct {
	t  int64 // ps
	ts int64
	op int32
}

// OpState is the replay's state of one op: its unmet dependencies, and
// three words that belong to the Hooks (a graph recorder keeps its
// vertices there). They share one 16-byte record because an op's last
// dependency is met shortly before it runs and is recorded: on the 64×64
// stencil, one cache miss per op instead of two. The engine sets V and
// Aux to -1 and Flags to 0, and never reads them.
type OpState struct {
	pending int32 // unmet dependencies
	V       int32
	Aux     int32
	Flags   uint8
}

// Engine is the replay state: LogGOPSim's per-host "next free" times and
// queues, over integer picoseconds.
type Engine struct {
	s     *traceformat.Schedule
	ops   []traceformat.OpRec // s.Ops()
	hooks Hooks               // nil: nobody listens

	params        Params
	L, o, g, G, O int64 // ps, ps/byte for G and O
	S             int64

	ncpu, nnic   int
	nexto        []int64   // per (rank, cpu): CPU free from
	nextgs       []int64   // per (rank, nic): NIC free to send from
	nextgr       []int64   // per (rank, nic): NIC free to receive from
	st           []OpState // per op: unmet dependencies, and the hooks' words
	q            eventQueue
	ts           int64 // next insertion number
	msgs         int64
	rq, uq       matchQueues
	ready        []int32 // ops released during the current event, in release order
	readyScratch []int32

	nops  int32     // ops in the schedule: token events are numbered from here
	wait  []minHeap // per resource: what waits for it, by ts (park.go)
	tokT  []int64   // per resource: time of its live token
	tokTS []int64   // per resource: ts of its live token, -1 if none

	reference bool // retry through the event queue instead of parking

	// wrapBy holds, per resource whose free time went below 0 (which
	// LogGOPSim's unsigned time wraps to near 2⁶⁴: a 0-byte message's
	// (s−1)·G or (s−1)·O is negative), the op that took it there (a send,
	// or −1−send for its receipt). The replay stops when such a time is
	// read (wrapped, wrapOp): see wrote.
	wrapBy  map[int]int32
	wrapOp  int32
	wrapped bool
}

func newEngine(s *traceformat.Schedule, p Params) *Engine {
	n := s.NumRanks()
	e := &Engine{
		s: s, ops: s.Ops(), L: ps(p.L), o: ps(p.O), g: ps(p.Gap), G: ps(p.G), O: ps(p.OPerByte), S: p.S,
		ncpu: s.CPUs(), nnic: s.NICs(),
	}
	e.nexto = make([]int64, n*e.ncpu)
	e.nextgs = make([]int64, n*e.nnic)
	e.nextgr = make([]int64, n*e.nnic)
	e.st = make([]OpState, s.NumOps())
	for i := range e.st {
		e.st[i] = OpState{pending: s.NumPreds(i), V: -1, Aux: -1}
	}
	e.nops = int32(s.NumOps())
	nres := n * (e.ncpu + 2*e.nnic)
	e.wait = make([]minHeap, nres)
	e.tokT = make([]int64, nres)
	e.tokTS = fill(make([]int64, nres), -1)
	e.rq.init(n)
	e.uq.init(n)
	e.q.init()
	return e
}

// SendCPU, SendNIC and RecvNIC are the times (ps) a message of size bytes
// occupies the sender's CPU and NIC and the receiver's NIC, following
// LogGOPSim's unsigned arithmetic: (size−1) wraps for size 0, which
// LogGOPSim turns into −1·G.
func (e *Engine) SendCPU(size int64) int64 { return e.o + (size-1)*e.O }
func (e *Engine) SendNIC(size int64) int64 { return e.g + (size-1)*e.G }
func (e *Engine) RecvNIC(size int64) int64 { return e.g + (size-1)*e.G }

// RecvCPUExtra is max((s−1)·O, (s−1)·G) compared as unsigned 64-bit
// numbers, as LogGOPSim does: for s = 0 a non-zero term wraps to a huge
// value and wins, which subtracts G (or O) from the time.
func (e *Engine) RecvCPUExtra(size int64) (extra int64, isG bool) {
	a, b := (size-1)*e.O, (size-1)*e.G
	if uint64(b) >= uint64(a) {
		return b, true
	}
	return a, false
}

// run is LogGOPSim's main loop.
func (e *Engine) run() {
	s := e.s
	// All root ops of every host at time 0, host by host, each host's roots
	// (in offset order) sorted by type.
	for r := 0; r < s.NumRanks(); r++ {
		first, end := s.RankOps(r)
		e.ready = e.ready[:0]
		for i := first; i < end; i++ {
			if e.st[i].pending == 0 {
				e.ready = append(e.ready, int32(i))
			}
		}
		stdSortByKind(e.ready, e.ops)
		for _, op := range e.ready {
			if e.hooks != nil {
				e.hooks.Queued(op)
			}
			e.push(event{t: 0, ts: e.ts, op: op})
			e.ts++
		}
	}
	e.ready = e.ready[:0]
	for e.q.n > 0 && !e.wrapped {
		ev := e.pop()
		if ev.op >= e.nops {
			e.token(ev)
		} else {
			e.dispatch(ev)
		}
		if len(e.ready) > 0 {
			e.release()
		}
	}
}

func (e *Engine) dispatch(ev event) {
	if ev.op < 0 {
		e.message(ev)
		return
	}
	switch e.ops[ev.op].Kind {
	case traceformat.OpCalc:
		e.calc(ev)
	case traceformat.OpSend:
		e.send(ev)
	case traceformat.OpRecv:
		e.recv(ev)
	}
}

func (e *Engine) calc(ev event) {
	op := ev.op
	h := int(e.ops[op].Rank)
	c := h*e.ncpu + int(e.ops[op].CPU)
	if e.nexto[c] < 0 {
		e.readWrapped(e.cpuRes(c), -1)
		return
	}
	if e.nexto[c] > ev.t {
		e.park(ev, e.cpuRes(c))
		return
	}
	e.nexto[c] = ev.t + e.ops[op].Size*1000 // calc durations are ns
	if e.hooks != nil {
		e.hooks.Started(op)
	}
	e.started(op)
	e.done(op)
}

func (e *Engine) send(ev event) {
	op := ev.op
	h := int(e.ops[op].Rank)
	c := h*e.ncpu + int(e.ops[op].CPU)
	n := h*e.nnic + int(e.ops[op].NIC)
	if e.nexto[c] < 0 || e.nextgs[n] < 0 {
		e.readWrapped(e.cpuRes(c), e.nicSRes(n))
		return
	}
	if t := max(e.nexto[c], e.nextgs[n]); t > ev.t {
		if e.nexto[c] == t {
			e.park(ev, e.cpuRes(c))
		} else {
			e.park(ev, e.nicSRes(n))
		}
		return
	}
	size := e.ops[op].Size
	e.started(op)
	e.nexto[c] = ev.t + e.SendCPU(size)
	e.nextgs[n] = ev.t + e.SendNIC(size)
	if e.nexto[c] < 0 || e.nextgs[n] < 0 {
		e.wrote(op, e.cpuRes(c), e.nicSRes(n))
	}
	if e.hooks != nil {
		e.hooks.Started(op)
	}
	e.push(event{t: ev.t + e.o + e.L, ts: e.ts, op: -1 - op})
	e.ts++
	e.msgs++
	if size <= e.S {
		e.done(op)
	}
}

// recv posts a receive: it takes no CPU time, searches the unexpected
// queue, and completes at once on a hit.
func (e *Engine) recv(ev event) {
	op := ev.op
	h := int(e.ops[op].Rank)
	e.started(op)
	sendOp, ok := e.uq.take(h, e.ops[op].Peer, e.ops[op].Tag)
	if !ok {
		e.rq.add(h, e.ops[op].Peer, e.ops[op].Tag, op)
		return
	}
	if e.hooks != nil {
		e.hooks.Matched(op, sendOp, true)
	}
	if e.ops[op].Size > e.S { // LogGOPSim decides by the recv's own size here
		src := int(e.ops[sendOp].Rank)
		e.rendezvousDone(sendOp, src, int(e.ops[op].CPU), int(e.ops[op].NIC), ev.t)
	}
	e.done(op)
}

// message processes the arrival of a message's first byte at its
// destination: once the CPU and NIC indices of the *send* are free there,
// the receive overhead and the payload time are charged, whether or not a
// receive is posted.
func (e *Engine) message(ev event) {
	sendOp := -1 - ev.op
	h := int(e.ops[sendOp].Peer)
	ci, ni := int(e.ops[sendOp].CPU), int(e.ops[sendOp].NIC)
	c, n := h*e.ncpu+ci, h*e.nnic+ni
	if e.nexto[c] < 0 || e.nextgr[n] < 0 {
		e.readWrapped(e.cpuRes(c), e.nicRRes(n))
		return
	}
	if t := max(e.nexto[c], e.nextgr[n]); t > ev.t {
		if e.nexto[c] == t {
			e.park(ev, e.cpuRes(c))
		} else {
			e.park(ev, e.nicRRes(n))
		}
		return
	}
	size := e.ops[sendOp].Size
	extra, _ := e.RecvCPUExtra(size)
	e.nexto[c] = ev.t + e.o + extra
	e.nextgr[n] = ev.t + e.RecvNIC(size)
	if e.nexto[c] < 0 || e.nextgr[n] < 0 {
		e.wrote(ev.op, e.cpuRes(c), e.nicRRes(n))
	}
	src := e.ops[sendOp].Rank
	if e.hooks != nil {
		e.hooks.Arrived(sendOp)
	}
	recvOp, ok := e.rq.take(h, src, e.ops[sendOp].Tag)
	if !ok {
		e.uq.add(h, src, e.ops[sendOp].Tag, sendOp)
		return
	}
	if e.hooks != nil {
		e.hooks.Matched(recvOp, sendOp, false)
	}
	if size > e.S {
		e.rendezvousDone(sendOp, int(src), ci, ni, ev.t)
	}
	e.done(recvOp)
}

// wrote notes that op (a send, or −1−send for its message's receipt) took
// resource r1's or r2's free time below 0, where LogGOPSim's unsigned time
// has wrapped to near 2⁶⁴. Such a time changes nothing until it is read:
// every write of a free time follows a read of it, and all times are
// otherwise in [0, 2⁶³), where int64 and uint64 compare alike. Any read
// (an op or a message on that resource, a rendezvous freeing it, a token
// or a queued op timed by it, a CPU's time at the end) compares it as
// LogGOPSim would not, and from there LogGOPSim's figures are artefacts:
// the replay stops (readWrapped) and Run reports a *WrapError. A NIC left
// below 0 at the end is harmless (LogGOPSim prints CPU times).
func (e *Engine) wrote(op int32, r1, r2 int) {
	if e.wrapBy == nil {
		e.wrapBy = map[int]int32{}
	}
	for _, r := range [2]int{r1, r2} {
		if e.free(r) < 0 {
			e.wrapBy[r] = op
		}
	}
}

// readWrapped stops the replay at a read of resource r1's or r2's free
// time (−1: none) that wrote took below 0.
func (e *Engine) readWrapped(r1, r2 int) {
	for _, r := range [2]int{r1, r2} {
		if r >= 0 && e.free(r) < 0 && !e.wrapped {
			e.wrapped, e.wrapOp = true, e.wrapBy[r]
		}
	}
}

// rendezvousDone completes a rendezvous send when its message is matched
// at time t: the sender's CPU cpu and NIC nic may not be used before t
// (LogGOPSim charges no latency for the handshake; see §5.5).
func (e *Engine) rendezvousDone(sendOp int32, src, cpu, nic int, t int64) {
	c, n := src*e.ncpu+cpu, src*e.nnic+nic
	if e.nexto[c] < 0 || e.nextgs[n] < 0 {
		e.readWrapped(e.cpuRes(c), e.nicSRes(n))
		return
	}
	if e.hooks != nil {
		e.hooks.Freed(sendOp, c, n)
	}
	e.nexto[c] = max(e.nexto[c], t)
	e.nextgs[n] = max(e.nextgs[n], t)
	e.done(sendOp)
}

// started and done release the successors of op whose last dependency
// this was, in the order of the dependency lines.
func (e *Engine) started(op int32) {
	e.meet(op, e.s.IRequires(int(op)), true)
}

func (e *Engine) done(op int32) {
	e.meet(op, e.s.Requires(int(op)), false)
}

// meet counts off op's start (or completion) from the dependencies of its
// successors ws. The hooks hear it there (Met), while each successor's
// state is at hand: a graph recorder notes whether CPU order implies the
// dependency.
func (e *Engine) meet(op int32, ws []int32, start bool) {
	for _, w := range ws {
		st := &e.st[w]
		if e.hooks != nil {
			e.hooks.Met(op, w, start, st)
		}
		if st.pending--; st.pending == 0 {
			e.ready = append(e.ready, w)
		}
	}
}

// release queues the ops released by one event: host by host in
// increasing order, each host's ops in release order sorted by type with
// std::sort, each at its CPU's (and for a send its NIC's) next free time.
func (e *Engine) release() {
	ready := e.ready
	h0 := e.ops[ready[0]].Rank
	mixed := false
	for _, op := range ready[1:] {
		if e.ops[op].Rank != h0 {
			mixed = true
			break
		}
	}
	if !mixed {
		e.queueHost(ready)
	} else {
		// At most the event's own host and one remote host (a rendezvous).
		hosts := make([]int32, 0, 2)
		for _, op := range ready {
			h := e.ops[op].Rank
			if len(hosts) == 0 || (hosts[0] != h && (len(hosts) == 1 || hosts[1] != h)) {
				hosts = append(hosts, h)
			}
		}
		if len(hosts) == 2 && hosts[1] < hosts[0] {
			hosts[0], hosts[1] = hosts[1], hosts[0]
		}
		for _, h := range hosts {
			sub := e.readyScratch[:0]
			for _, op := range ready {
				if e.ops[op].Rank == h {
					sub = append(sub, op)
				}
			}
			e.readyScratch = sub
			e.queueHost(sub)
		}
	}
	e.ready = e.ready[:0]
}

func (e *Engine) queueHost(ops []int32) {
	stdSortByKind(ops, e.ops)
	for _, op := range ops {
		h := int(e.ops[op].Rank)
		c := h*e.ncpu + int(e.ops[op].CPU)
		t := e.nexto[c]
		if t < 0 {
			e.readWrapped(e.cpuRes(c), -1)
			return
		}
		if e.ops[op].Kind == traceformat.OpSend {
			n := h*e.nnic + int(e.ops[op].NIC)
			if e.nextgs[n] < 0 {
				e.readWrapped(e.nicSRes(n), -1)
				return
			}
			t = max(t, e.nextgs[n])
		}
		if e.hooks != nil {
			e.hooks.Queued(op)
		}
		e.push(event{t: t, ts: e.ts, op: op})
		e.ts++
	}
}

// fill sets every element of s to v and returns s.
func fill[T any](s []T, v T) []T {
	for i := range s {
		s[i] = v
	}
	return s
}
