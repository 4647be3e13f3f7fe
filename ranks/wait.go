package ranks

// Wait blocks until the request completes and returns the received message
// and its status (zero values for a send).
func (q *Request) Wait() (Msg, Status) {
	defer q.owner.mpiExit(q.owner.mpiEnter("MPI_Wait"))
	return q.wait("Wait")
}

func (q *Request) wait(call string) (Msg, Status) {
	q.await(call)
	return q.finish()
}

// await blocks until the request completes. It returns nothing, so that
// callers that want no result (a blocking send) or read it from q (Recv)
// copy none through the frames of the blocking path, whose stack lines
// are cold when the rank resumes.
func (q *Request) await(call string) {
	if q.w.simgrid {
		q.simgridWait()
	}
	for !q.done {
		q.waiter = q.owner
		q.owner.block(call, q.other(), q.tag)
	}
	q.waiter = nil
}

// simgridWait is what a wait on q does under WakeSimGrid before it blocks:
// a request still pending takes its place among the waits (waitSeq) and
// holds a sleep on its owner's CPU until it completes (lazyCPU.wait); one
// already complete is answered at once, a simcall, except a detached send,
// which SMPI does not wait on.
func (q *Request) simgridWait() {
	switch w := q.w; {
	case !q.done:
		w.waitSeq += 2
		q.waitSeq = w.waitSeq | q.waitSeq&1 // a new place, the sleep kept (lazyCPU.wait)
		w.cpu.wait(w, q)
	case !(q.send && q.detached):
		q.owner.simcall()
	}
}

// finish returns a completed request's result. A receive of a detached
// message charges the receive overhead (smpi/or) once, when its completion
// is first observed.
func (q *Request) finish() (Msg, Status) {
	if q.send {
		return Msg{}, Status{}
	}
	q.payRecv()
	return q.msg, q.status()
}

// payRecv charges a completed receive of a detached message the receive
// overhead (smpi/or), once, when its completion is first observed; there a
// truncated one stops the run with its MPI_ERR_TRUNCATE (Comm.RecvUpTo).
func (q *Request) payRecv() {
	if !q.orPaid {
		q.orPaid = true
		if q.detached {
			q.owner.stack(q.w.memo.or.lookup(&q.w.cfg.RecvOverhead, q.msg.Bytes, 0), "Recv", q.msg.Bytes)
		}
		if q.truncated {
			panic(q.w.truncations[q])
		}
	}
}

// Test charges the simulated cost of MPI_Test (TestCost times the test
// counter, §3.4 of the SMPI reference), then reports whether the request is
// complete, with its result if so. A zero TestCost makes Test free: it then
// returns without any context switch.
func (q *Request) Test() (bool, Msg, Status) {
	r := q.owner
	defer r.mpiExit(r.mpiEnter("MPI_Test"))
	r.payOwed()
	n, free := r.pollCost(ctrTest, r.w.cfg.TestCost, 0, "Test")
	done := q.done
	if !q.send || !q.detached {
		// the test: the counter is updated once it is answered. SMPI's test
		// of a detached send (a request with no comm) makes no simcall: it
		// succeeds, and resets the counter, in the rank's turn.
		r.simcall()
		r.payOwed()
	}
	if !done {
		r.w.failedPoll(n)
		if free {
			r.spin("Test", q.other(), q.tag)
		}
		return false, Msg{}, Status{}
	}
	*n = 1
	m, st := q.finish()
	return true, m, st
}

// Waitall waits for every request (nil entries are skipped). Under
// WakeSimGrid it is SMPI's Request::waitall, a loop of waitany over the
// requests not yet taken (waitanySimGrid): the rank is woken by whichever
// completes first, pays a detached message's receive overhead then, and
// waits again on the others, each time taking its place anew among their
// waiters. In rank order it waits for one request after the other.
func Waitall(reqs ...*Request) { WaitallFunc(reqs, nil) }

// WaitallFunc is Waitall that calls took(i), when took is not nil, as it
// takes reqs[i], complete: before its completion is charged (a detached
// message's receive overhead) or raised (a truncation, which the TI
// replayer names by its receive). It leaves reqs as they are.
func WaitallFunc(reqs []*Request, took func(i int)) {
	for i, q := range reqs {
		if q == nil {
			continue
		}
		defer q.owner.mpiExit(q.owner.mpiEnter("MPI_Waitall"))
		if q.w.simgrid {
			var buf [16]*Request
			left := append(buf[:0], reqs...)
			for {
				if k, _, _ := waitanySimGrid(left, "Waitall", took); k < 0 {
					return
				}
			}
		}
		for ; i < len(reqs); i++ {
			if q = reqs[i]; q != nil {
				q.await("Waitall")
				if took != nil {
					took(i)
				}
				q.finish()
			}
		}
		return
	}
}

// Waitany blocks until one of the requests completes and returns its index
// and result; the completed entry is set to nil, as MPI sets it to
// MPI_REQUEST_NULL. If every entry is nil it returns -1 at once. Among
// requests already complete, the lowest index wins (under WakeSimGrid,
// a detached send first: waitanySimGrid).
func Waitany(reqs []*Request) (int, Msg, Status) {
	for _, q := range reqs {
		if q != nil {
			defer q.owner.mpiExit(q.owner.mpiEnter("MPI_Waitany"))
			if q.w.simgrid {
				return waitanySimGrid(reqs, "Waitany", nil)
			}
			break
		}
	}
	for {
		var owner *Rank
		for i, q := range reqs {
			if q == nil {
				continue
			}
			if q.done {
				clearWaiters(reqs)
				reqs[i] = nil
				m, st := q.finish()
				return i, m, st
			}
			owner = q.owner
		}
		if owner == nil {
			return -1, Msg{}, Status{}
		}
		for _, q := range reqs {
			if q != nil {
				q.waiter = owner
			}
		}
		owner.block("Waitany", noPeer, 0)
	}
}

// waitanySimGrid is SMPI 3.32's Request::waitany, for WakeSimGrid. It
// takes the first detached send at once and at no cost (SMPI holds no
// comm for one); else the first request already complete, for one
// simcall (the waitany simcall, answered at once); else it waits on every
// pending request at once, taking its place among the waits on each
// (waitSeq: the simcall registers with every comm, anew at each call, and
// a comm's completion answers its waiters in the order they registered),
// and takes the one whose completion woke it (the lowest index if several
// completed at that instant). It sets the entry taken to nil, calls
// took(i) before taking it, and returns its index and result, or -1 with
// every entry nil.
func waitanySimGrid(reqs []*Request, call string, took func(int)) (int, Msg, Status) {
	var owner *Rank
	k := -1
	for i, q := range reqs {
		if q == nil {
			continue
		}
		owner = q.owner
		if q.send && q.detached {
			k = i
			break
		}
		if k < 0 && q.done {
			k = i
		}
	}
	switch {
	case owner == nil:
		return -1, Msg{}, Status{}
	case k < 0:
		w := owner.w
		w.waitSeq += 2
		for _, q := range reqs {
			if q != nil {
				q.waiter, q.waitSeq = owner, w.waitSeq|q.waitSeq&1
			}
		}
		for k < 0 {
			owner.block(call, noPeer, 0)
			for i, q := range reqs {
				if q != nil && q.done {
					k = i
					break
				}
			}
		}
		clearWaiters(reqs)
	case !(reqs[k].send && reqs[k].detached):
		owner.simcall()
	}
	q := reqs[k]
	reqs[k] = nil
	if took != nil {
		took(k)
	}
	m, st := q.finish()
	return k, m, st
}

func clearWaiters(reqs []*Request) {
	for _, q := range reqs {
		if q != nil {
			q.waiter = nil
		}
	}
}

// Testany charges one MPI_Testany cost (its own counter), then returns the
// index and result of the lowest-index complete request (setting that entry
// to nil), or ok false if none is complete. With every entry nil it
// returns (-1, true).
func Testany(reqs []*Request) (int, bool, Msg, Status) {
	var r *Rank
	for _, q := range reqs {
		if q != nil {
			r = q.owner
			break
		}
	}
	if r == nil {
		return -1, true, Msg{}, Status{}
	}
	defer r.mpiExit(r.mpiEnter("MPI_Testany"))
	r.payOwed()
	n, free := r.pollCost(ctrTestany, r.w.cfg.TestCost, 0, "Testany")
	found := -1
	for i, q := range reqs {
		if q != nil && q.done {
			found = i
			break
		}
	}
	r.simcall() // the test: the counter is updated once it is answered
	r.payOwed()
	if found >= 0 {
		q := reqs[found]
		*n = 1
		reqs[found] = nil
		m, st := q.finish()
		return found, true, m, st
	}
	r.w.failedPoll(n)
	if free {
		r.spin("Testany", noPeer, 0)
	}
	return -1, false, Msg{}, Status{}
}

// Poll counters (SimGrid's nsleeps statics).
const (
	ctrIprobe = iota
	ctrTest
	ctrTestany
)

// pollCost charges a poll (Iprobe, Test, Testany) its injected cost: cost
// times the poll counter, after the extra simcalls SMPI makes before it. It
// returns the counter, to update once the poll's outcome is known, and
// whether the poll was free: its cost was 0, or so small against the
// simulated time that the float64 clock could not count it (a microsecond
// past about 1e10 s). A failed free poll must spin, or a rank polling for a
// message would loop forever at one instant.
func (r *Rank) pollCost(which int, cost float64, simcalls int, call string) (n *int, free bool) {
	n = r.w.counter(r, which)
	d := float64(*n) * cost // SMPI 3.32's test and testany sleep nsleeps·cost (sleep_for)
	if which == ctrIprobe {
		// its iprobe computes the flops as nsleeps·cost·speed and runs them at speed
		d = r.execTime(d)
	}
	if d > 0 {
		r.simcalls(simcalls)
	}
	now := r.w.eng.Now()
	free = now+d == now
	r.stack(d, call, 0)
	return n, free
}

// counter returns the poll counter to use: the simulation-wide one, as in
// SimGrid 3.32, or the rank's own with Config.PerRankCounters.
func (w *World) counter(r *Rank, which int) *int {
	if w.cfg.PerRankCounters {
		switch which {
		case ctrIprobe:
			return &r.iprobeN
		case ctrTest:
			return &r.testN
		}
		return &r.testanyN
	}
	switch which {
	case ctrIprobe:
		return &w.iprobeN
	case ctrTest:
		return &w.testN
	}
	return &w.testanyN
}

// failedPoll grows a poll counter after a call that found nothing.
func (w *World) failedPoll(n *int) {
	if !w.cfg.NoGrowth {
		*n++
	}
}

// Free gives a request back for reuse, like MPI_Request_free: the program
// must not touch q afterwards. A receive must have completed (Wait or a
// successful Test): freeing one still pending panics. A send may be freed
// at any time; it is recycled once its message has been delivered.
//
// Why: a request is 192 bytes, and an application that waits on millions
// of Isend/Irecv requests (HPL) otherwise hands each to the garbage
// collector; Send and Recv already recycle theirs.
func (q *Request) Free() {
	q.owner.settle()
	w := q.w
	switch {
	case q.send:
		w.release(q)
	case q.done:
		q.waiter = nil
		if q.truncated { // freed unobserved: its error goes, as MPI_Request_free's
			delete(w.truncations, q)
		}
		w.recycle(q)
	default:
		panic("ranks: Free of a receive that has not completed")
	}
}
