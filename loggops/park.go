package loggops

// Parking: LogGOPSim puts an op (or message) whose CPU or NIC is busy back
// into the event queue at the resource's free time, keeping its ts. When
// many ops wait for one CPU (a linear all-to-all queues 2(n−1) ops per rank
// at time 0) each of them is popped and put back once per op that runs
// before it: O(n²) per rank. A failed pop changes nothing, so we may skip
// it if we never run anything out of LogGOPSim's order.
//
// The order is: always run the entry with the least (time, ts), where an
// entry's time is the latest of its own time and its resources' free
// times, which only grow. So we park a waiting entry on the resource that
// holds it up, in a per-resource heap ordered by ts, and put one token
// into the event queue for the resource, at (free time, least parked ts):
// a lower bound of every parked entry's (time, ts). When the token comes
// up, its least entry is taken out and handled as if LogGOPSim had just
// popped it at the token's time: it runs, or parks again on whatever still
// holds it up; then the resource gets a new token if entries remain. A
// token made obsolete by a newer one (a lower ts parked on a resource at
// the same free time) is dropped when it comes up.

// Resources are numbered CPUs first, then send sides, then receive sides of NICs.
func (e *Engine) cpuRes(c int) int  { return c }
func (e *Engine) nicSRes(n int) int { return len(e.nexto) + n }
func (e *Engine) nicRRes(n int) int { return len(e.nexto) + len(e.nextgs) + n }

// free is resource r's next free time.
func (e *Engine) free(r int) int64 {
	switch {
	case r < len(e.nexto):
		return e.nexto[r]
	case r < len(e.nexto)+len(e.nextgs):
		return e.nextgs[r-len(e.nexto)]
	}
	return e.nextgr[r-len(e.nexto)-len(e.nextgs)]
}

// park makes ev wait for resource r.
func (e *Engine) park(ev event, r int) {
	if e.reference { // LogGOPSim: back into the queue at the free time
		ev.t = e.free(r)
		e.push(ev)
		return
	}
	e.wait[r].Push(tsOp{Key: ev.ts, ID: ev.op})
	e.cover(r, ev.ts)
}

// cover makes sure resource r has a live token no later than (free, ts).
func (e *Engine) cover(r int, ts int64) {
	f := e.free(r)
	if f < 0 { // the parked entries would be retried near 2⁶⁴
		e.readWrapped(r, -1)
		return
	}
	if e.tokTS[r] >= 0 && (e.tokT[r] < f || (e.tokT[r] == f && e.tokTS[r] <= ts)) {
		return
	}
	e.tokT[r], e.tokTS[r] = f, ts
	e.push(event{t: f, ts: ts, op: e.nops + int32(r)})
}

// token handles a resource's token coming up.
func (e *Engine) token(ev event) {
	r := int(ev.op - e.nops)
	if e.tokTS[r] != ev.ts || e.tokT[r] != ev.t {
		return // superseded by a later token
	}
	e.tokTS[r] = -1
	p := e.wait[r].Pop()
	e.dispatch(event{t: ev.t, ts: p.Key, op: p.ID})
	if w := &e.wait[r]; w.Len() > 0 {
		e.cover(r, w.Top().Key)
	}
}
