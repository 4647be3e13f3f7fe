package ranks

// Tasks: blocking work that runs without the rank's coroutine.
//
// At Stampede's scale (6,006 ranks) a message costs three to four times
// what the same message costs among 78 ranks, and half of its last-level
// cache misses are the hand-off: resuming a rank's coroutine touches its g,
// its coroutine and the top frames of its stack, all evicted since the
// rank last ran because every other rank ran in between. A task is the part
// of a rank's code that only posts messages and waits for them (a ring's
// neighbour exchanges): the rank hands it to the scheduler, which advances
// it in the rank's turn — popped from the ready queue exactly when the
// coroutine would have been resumed, so every rank's operations happen in
// the same order at the same instants — without switching to the rank's
// goroutine. The rank's coroutine parks once for the whole task and is
// resumed once at its end.
//
// A task's steps must not block: they post and test, and hand back the
// request to wait for. That holds when nothing inside a post sleeps — no
// send or receive overhead, and not SimGrid's wake order, whose simcalls
// move ranks in the ready queue — otherwise tasks run on the coroutine as
// the blocking calls they stand for (World.tasksInline).

// task is a rank's work made of posts and waits. step advances it up to the
// next request it must wait for, which it returns (not yet complete, or
// complete: the wait then costs nothing), or nil when the task is over.
type task interface {
	step() *Request
}

// runTask runs t to its end on the calling rank, with the same operations,
// at the same instants and in the same order, as
//
//	for q := t.step(); q != nil; q = t.step() { q.await(call) }
//
// The rank's coroutine parks while the scheduler advances t in the rank's
// turns (World.schedule), and resumes when t is over — or when the rank's
// own scheduling loop finds it next, in which case it advances t itself.
func (r *Rank) runTask(t task, call string) {
	if r.w.tasksInline {
		for q := t.step(); q != nil; q = t.step() {
			q.await(call)
		}
		return
	}
	r.task, r.waitOn, r.native = t, nil, true
	r.blk.call = call // advance sets the peer and tag of each wait
	for r.advance() {
		r.w.schedule(r)
		if !r.native {
			return // advanced to its end in another rank's scheduling loop
		}
	}
}

// advance advances r's task until it must wait (r is then blocked on
// r.waitOn, as await leaves a rank: true) or is over (false). It is await's
// loop with the block taken out: the caller schedules.
func (r *Rank) advance() bool {
	for {
		if q := r.waitOn; q != nil {
			if !q.done {
				q.waiter = r
				r.owed = 0
				r.blk.peer, r.blk.tag = q.other(), q.tag
				r.state = stateBlocked
				return true
			}
			q.waiter = nil
		}
		if r.waitOn = r.task.step(); r.waitOn == nil {
			r.task, r.native = nil, false
			return false
		}
	}
}

// tasksInline reports whether a task's posts could block under cfg, so that
// tasks must run on their rank's coroutine: any send or receive overhead
// (a post or a receive's completion sleeps), or SimGrid's wake order (a
// post may give up the rank's turn).
func tasksInline(cfg *Config) bool {
	return cfg.WakeOrder == WakeSimGrid || !cfg.SendOverhead.alwaysZero() ||
		!cfg.IsendOverhead.alwaysZero() || !cfg.RecvOverhead.alwaysZero()
}

// Exchanger says what each step of Comm.Exchanges or Comm.SendRecvs
// sends and receives.
type Exchanger interface {
	// Exchange returns step k's send (m to dst) and the rank its receive
	// takes from (src), both in the communicator. Nobody as dst or src
	// leaves that side out of the step (HPL_sdrv's count ≤ 0).
	Exchange(k int) (dst int, m Msg, src int)
	// Received hands over step k's received message (not called for a
	// step without a receive). m.Data is the Exchanger's only for the
	// call: the World reuses its array for later messages' payloads.
	Received(k int, m Msg)
}

// Nobody, as an Exchanger step's dst or src, leaves that side out.
const Nobody = -3

// Exchanges makes n neighbour exchanges on c with tag, each step k being
//
//	s := c.Issend(dst, tag, m) // dst, m, src from ex.Exchange(k)
//	got, _ := c.Recv(src, tag)
//	ex.Received(k, got)
//	s.Wait()
//	s.Free()
//
// with the Issend, Wait and Free left out when dst is Nobody, the Recv and
// Received when src is. It makes the same calls, with the same hooks and
// times, but as a task: the scheduler advances it in the rank's turns
// without resuming the rank's coroutine (see task). A ring allgather's
// roll (HPL's long broadcasts) is this.
// Exchanger's methods run in whichever goroutine advances the task: they
// must not call into ranks.
func (c *Comm) Exchanges(n, tag int, ex Exchanger) {
	checkUserTag("Exchanges", tag)
	if n > 0 {
		c.r.runTask(&exchanges{c: c, n: n, tag: tag, ex: ex, sync: true}, "Exchanges")
	}
}

// SendRecvs is Exchanges with HPL_sdrv's steps (a hypercube's exchanges,
// HPL's pivot search):
//
//	q := c.Irecv(src, tag)
//	c.Send(dst, tag, m)
//	got, _ := q.Wait()
//	q.Free()
//	ex.Received(k, got)
//
// (the Send left out when dst is Nobody, the rest when src is).
func (c *Comm) SendRecvs(n, tag int, ex Exchanger) {
	checkUserTag("SendRecvs", tag)
	if n > 0 {
		c.r.runTask(&exchanges{c: c, n: n, tag: tag, ex: ex}, "SendRecvs")
	}
}

// exchanges is the task of Comm.Exchanges (sync) and Comm.SendRecvs.
type exchanges struct {
	c      *Comm
	n, tag int
	ex     Exchanger
	sync   bool
	k      int
	phase  uint8 // step k: 0 to post, 1 waiting for its first request, 2 for its second
	send   *Request
	recv   *Request
}

func (x *exchanges) step() *Request {
	c, r := x.c, x.c.r
	for {
		switch x.phase {
		case 0: // post step k; wait for its first blocking side
			if x.k == x.n {
				return nil
			}
			dst, m, src := x.ex.Exchange(x.k)
			x.send, x.recv = nil, nil
			x.phase = 1
			if x.sync { // Issend, then Recv's post and its wait
				if dst != Nobody {
					r.mpiEnter("MPI_Issend")
					x.send = c.post(dst, x.tag, m, false, true)
					r.mpiExit("MPI_Issend")
				}
				if src != Nobody {
					r.mpiEnter("MPI_Recv")
					x.recv = c.irecv(src, x.tag)
					return x.recv
				}
				continue
			}
			// Irecv, then Send's post and its wait
			if src != Nobody {
				r.mpiEnter("MPI_Irecv")
				x.recv = c.irecv(src, x.tag)
				r.mpiExit("MPI_Irecv")
			}
			if dst != Nobody {
				r.mpiEnter("MPI_Send")
				x.send = c.isend(dst, x.tag, m, true)
				return x.send
			}
		case 1: // the first wait is over; the second begins
			x.phase = 2
			if x.sync {
				if q := x.recv; q != nil { // the Recv is over
					q.payRecv()
					m := q.msg
					q.w.recycle(q)
					r.mpiExit("MPI_Recv")
					x.recv = nil
					x.ex.Received(x.k, m)
					r.w.reusePayload(m.Data)
				}
				if x.send != nil {
					r.mpiEnter("MPI_Wait")
					return x.send
				}
				continue
			}
			if x.send != nil { // the Send is over
				x.send.w.release(x.send)
				x.send = nil
				r.mpiExit("MPI_Send")
			}
			if x.recv != nil {
				r.mpiEnter("MPI_Wait")
				return x.recv
			}
		default: // the second wait is over: the step is done
			if x.sync && x.send != nil { // Wait on the Issend, then Free
				x.send.finish()
				r.mpiExit("MPI_Wait")
				x.send.Free()
			}
			if !x.sync && x.recv != nil { // Wait on the Irecv, then Free
				q := x.recv
				m, _ := q.finish()
				r.mpiExit("MPI_Wait")
				q.Free()
				x.ex.Received(x.k, m)
				r.w.reusePayload(m.Data)
			}
			x.send, x.recv = nil, nil
			x.phase = 0
			x.k++
		}
	}
}
