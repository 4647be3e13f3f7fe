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
// request to wait for. A send or receive overhead is a sleep of the rank:
// the step starts it (Rank.taskSleep: the clock jumps, or a timer is set)
// and hands back sleepStep, and the task goes on when the timer has rung,
// as the blocking call would. Under SimGrid's wake order, whose simcalls
// move ranks in the ready queue inside a post, tasks run on the coroutine
// as the blocking calls they stand for (World.tasksInline).

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
	r.settle()
	if r.w.tasksInline {
		for q := t.step(); q != nil; q = t.step() {
			if q == sleepStep {
				for !r.rang { // Rank.sleep's wait
					r.block(call, noPeer, 0)
				}
				continue
			}
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
		if q := r.waitOn; q == sleepStep {
			if !r.rang { // Rank.sleep's wait
				r.owed = 0
				r.blk.peer, r.blk.tag = noPeer, 0
				r.state = stateBlocked
				return true
			}
		} else if q != nil {
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
// tasks must run on their rank's coroutine: SimGrid's wake order (a post
// may give up the rank's turn). Overheads are sleeps a task waits for
// (sleepStep).
func tasksInline(cfg *Config) bool {
	return cfg.WakeOrder == WakeSimGrid
}

// sleepStep is what a task's step hands back to wait for the sleep it has
// started with Rank.taskSleep: the task goes on once the rank's timer has
// rung (Rank.rang). It is never posted or completed.
var sleepStep = new(Request)

// taskSleep is Rank.stack(d, call, bytes) for a task's step, up to the
// wait: it tells the listeners, then the clock jumps when nothing else can
// happen first (false: the step goes on), or the rank's timer is set
// (true: the step hands back sleepStep). The same operations as stack's,
// in the same order.
func (r *Rank) taskSleep(d float64, call string, bytes int) bool {
	if !(d > 0) {
		return false
	}
	w := r.w
	if w.hears(Stack) && !w.over {
		ev := w.event(Stack, r.id, noPeer)
		ev.Kernel, ev.Bytes, ev.Seconds = call, bytes, d
		w.emit()
	}
	r.payOwed()
	if w.ready.empty() && len(w.pollers) == 0 && !w.noSkip && w.eng.Skip(d) {
		return false
	}
	r.rang = false
	w.eng.AfterHandler(d, rankTimer{r})
	return true
}

// taskPayRecv is Request.payRecv for a task's step: true when the step
// must hand back sleepStep to wait for the receive overhead.
func (q *Request) taskPayRecv() bool {
	if q.orPaid {
		return false
	}
	q.orPaid = true
	return q.detached && q.owner.taskSleep(q.w.cfg.RecvOverhead.Value(q.msg.Bytes, 0), "Recv", q.msg.Bytes)
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
	phase  uint8 // where step k is: the x* constants
	send   *Request
	recv   *Request
	// Step k's send, between prepareSend and its post (an overhead's
	// sleep between them), and its receive's source.
	dst, src int
	m        Msg
}

// The phases of an exchanges step. A sleep (an overhead) ends a step's
// call with sleepStep and the next call goes on at the phase after it.
const (
	xPost     uint8 = iota // post step k
	xSendOver              // the send's overhead is over: post it
	xRecvPost              // Exchanges: the Issend is posted: post the Recv and wait for it
	xFirst                 // the first wait is over; the second begins
	xRecvOver              // Exchanges: the Recv's overhead is over
	xSecond                // the second wait is over: the step is done
	xWaitOver              // SendRecvs: the Wait's receive overhead is over
)

func (x *exchanges) step() *Request {
	c, r := x.c, x.c.r
	for {
		switch x.phase {
		case xPost: // post step k; wait for its first blocking side
			if x.k == x.n {
				return nil
			}
			dst, m, src := x.ex.Exchange(x.k)
			x.send, x.recv, x.dst, x.src = nil, nil, dst, src
			if x.sync { // Issend, then Recv's post and its wait
				x.phase = xRecvPost
				if dst != Nobody {
					r.mpiEnter("MPI_Issend")
					var d float64
					var call string
					x.m, d, call = c.prepareSend(dst, m, false, true)
					x.phase = xSendOver
					if r.taskSleep(d, call, x.m.Bytes) {
						return sleepStep
					}
				}
				continue
			}
			// Irecv, then Send's post and its wait
			x.phase = xFirst
			if src != Nobody {
				r.mpiEnter("MPI_Irecv")
				x.recv = c.irecv(src, x.tag)
				r.mpiExit("MPI_Irecv")
			}
			if dst != Nobody {
				r.mpiEnter("MPI_Send")
				var d float64
				var call string
				x.m, d, call = c.prepareSend(dst, m, true, false)
				x.phase = xSendOver
				if r.taskSleep(d, call, x.m.Bytes) {
					return sleepStep
				}
			}
		case xSendOver:
			m := x.m
			x.m = Msg{}
			if x.sync {
				x.send = c.postPrepared(x.dst, x.tag, m, true)
				r.mpiExit("MPI_Issend")
				x.phase = xRecvPost
				continue
			}
			x.send = c.postPrepared(x.dst, x.tag, m, false)
			x.phase = xFirst
			return x.send
		case xRecvPost:
			x.phase = xFirst
			if x.src != Nobody {
				r.mpiEnter("MPI_Recv")
				x.recv = c.irecv(x.src, x.tag)
				return x.recv
			}
		case xFirst: // the first wait is over; the second begins
			if x.sync {
				x.phase = xRecvOver
				if q := x.recv; q != nil && q.taskPayRecv() { // the Recv is over
					return sleepStep
				}
				continue
			}
			x.phase = xSecond
			if x.send != nil { // the Send is over
				x.send.w.release(x.send)
				x.send = nil
				r.mpiExit("MPI_Send")
			}
			if x.recv != nil {
				r.mpiEnter("MPI_Wait")
				return x.recv
			}
		case xRecvOver:
			x.phase = xSecond
			if q := x.recv; q != nil {
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
		case xSecond: // the second wait is over: the step is done
			x.phase = xWaitOver
			if !x.sync && x.recv != nil && x.recv.taskPayRecv() { // Wait on the Irecv: its overhead
				return sleepStep
			}
		default: // xWaitOver
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
			x.phase = xPost
			x.k++
		}
	}
}
