package ranks

import (
	"fmt"
	"unsafe"
)

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
// as the blocking call would. Under SimGrid's wake order a post or a sleep
// first gives up the rank's turn once for each simcall the rank owes
// (Rank.payOwed): the step queues the rank (Rank.taskPay) and hands back
// turnStep, and is called again, at the same point, when the rank is
// popped — where payOwed would have returned to the blocking call.

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
// (sleepStep waiting for the rank's timer, turnStep giving up the rank's
// turn as payOwed does). The rank's coroutine parks while the scheduler
// advances t in the rank's turns (World.schedule), and resumes when t is
// over — or when the rank's own scheduling loop finds it next, in which
// case it advances t itself. The kernel sleeps the rank owes (Rank.settle)
// are the task's first wait: a rank that computes, then probes, parks
// once for both.
func (r *Rank) runTask(t task, call string) {
	r.task, r.waitOn, r.native = t, nil, true
	if r.taskSettle() {
		r.waitOn = sleepStep
	}
	r.blk.call = call // advance sets the peer and tag of each wait
	for r.advance() {
		r.w.schedule(r)
		if !r.native {
			return // advanced to its end in another rank's scheduling loop
		}
	}
}

// advance advances r's task until it must wait (r is then blocked on
// r.waitOn, as await leaves a rank, or queued, as payOwed leaves it: true)
// or is over (false). It is await's loop with the block taken out: the
// caller schedules.
func (r *Rank) advance() bool {
	for {
		switch q := r.waitOn; q {
		case nil, turnStep: // the rank has its turn back
		case sleepStep:
			if !r.rang { // Rank.sleep's wait
				r.owed = 0
				r.blk.peer, r.blk.tag = noPeer, 0
				r.state = stateBlocked
				return true
			}
		default:
			if !q.done {
				q.waiter = r
				r.owed = 0
				r.blk.peer, r.blk.tag = q.other(), q.tag
				r.state = stateBlocked
				return true
			}
			q.waiter = nil
		}
		switch q := r.task.step(); q {
		case nil:
			r.task, r.waitOn, r.native = nil, nil, false
			return false
		case turnStep:
			r.waitOn = q
			return true // queued by taskPay
		case sleepStep:
			r.waitOn = q
		default:
			r.waitOn = q
			if r.w.simgrid {
				q.simgridWait()
			}
		}
	}
}

// sleepStep is what a task's step hands back to wait for the sleep it has
// started with Rank.taskSleep: the task goes on once the rank's timer has
// rung (Rank.rang). It is never posted or completed.
var sleepStep = new(Request)

// turnStep is what a task's step hands back once Rank.taskPay has queued
// the rank: the task goes on when the rank is popped from the ready queue.
// It is never posted or completed.
var turnStep = new(Request)

// taskPay is one turn of Rank.payOwed for a task's step: while the rank
// owes simcalls and another rank is ready, it queues the rank for one of
// them (true: the step hands back turnStep and, called again, pays the
// next); once nothing is owed it returns false. A step calls it, until it
// returns false, where the blocking call pays what it owes.
//
// It inlines: under the rank order a rank never owes (taskTurn pays).
func (r *Rank) taskPay() bool {
	return r.owed > 0 && r.taskTurn()
}

// taskTurn is taskPay for a rank that owes simcalls.
func (r *Rank) taskTurn() bool {
	w := r.w
	if w.ready.empty() {
		r.owed = 0
		return false
	}
	r.owed--
	r.state = stateReady
	w.ready.push(r)
	return true
}

// taskStack tells the listeners of a task's overhead sleep of d seconds,
// as Rank.stack does before its sleep.
// The telling, rare, is tellStack's, out of line.
func (r *Rank) taskStack(d float64, call string, bytes int) {
	if d > 0 && r.w.hears(Stack) {
		r.tellStack(d, call, bytes)
	}
}

// tellStack tells the listeners of an overhead or a poll's cost of d > 0
// seconds, unless the run is over.
func (r *Rank) tellStack(d float64, call string, bytes int) {
	if w := r.w; !w.over {
		ev := w.event(Stack, r.id, noPeer)
		ev.Kernel, ev.Bytes, ev.Seconds = call, bytes, d
		w.emit()
	}
}

// taskSettle is Rank.settle for a task: it starts the sleep until r.due,
// if the rank owes one, as settle does: the clock jumps when nothing else
// can happen first (false), or the rank's timer is set (true: the task
// waits for it as for sleepStep).
func (r *Rank) taskSettle() bool {
	at := r.due
	if at == 0 {
		return false
	}
	r.due = 0
	w := r.w
	if w.mayJump(at) && w.eng.SkipTo(at) && w.arrived(r) {
		return false
	}
	r.rang = false
	w.eng.AtHandler(at, rankTimer{r})
	return true
}

// taskSleep starts a task's sleep of d seconds, told (taskStack) and its
// owed turns paid (taskPay), as Rank.sleep does: the clock jumps when
// nothing else can happen first (false: the step goes on), or the rank's
// timer is set (true: the step hands back sleepStep). exec: SMPI runs it as
// an execution, not a sleep (lazyCPU).
func (r *Rank) taskSleep(d float64, exec bool) bool {
	if !(d > 0) {
		return false
	}
	w := r.startCPU(d, exec)
	if w.mayJump(w.eng.Now()+d) && w.eng.Skip(d) && w.arrived(r) {
		return false
	}
	r.rang = false
	if w.simgrid {
		w.cpu.timer(w, r, d)
	} else {
		w.eng.AfterHandler(d, rankTimer{r})
	}
	return true
}

// sleeping is Rank.sleep as a task, for a rank that owes simcalls while
// others are ready: it gives up the rank's turn for each (taskPay), then
// starts the sleep (taskSleep) and waits for it, as payOwed and sleep do,
// with one park of the rank's coroutine where each turn and the wait took
// one. Compute's two simcalls and an Iprobe's three come before their
// sleeps: under SimGrid's order they took three and four hand-overs.
type sleeping struct {
	r    *Rank
	d    float64 // s
	paid bool    // the turns are given up and the sleep started
	exec bool    // SMPI's execution, not a sleep (isExec)
}

func (s *sleeping) step() *Request {
	r := s.r
	if s.paid {
		return nil
	}
	if r.taskPay() {
		return turnStep
	}
	s.paid = true
	if r.taskSleep(s.d, s.exec) {
		return sleepStep
	}
	return nil
}

// rankTasks holds the tasks a rank runs, one at a time: a task is over
// before runTask returns, so each call reuses its rank's (HPL's pivot
// search makes one SendRecvs a column, and each allocated its task).
//
// Layout: a whole number of cache lines (TestRankTasksLayout), so that in
// World.tasks, an array large enough to start on a page, the exchanges
// take the first lines of their rank's entry and the probe starts a line
// with its hot fields: a probe between two update chunks (most of a Dahu
// run's steps) then touches one line of it, a step of HPL's pivot search
// no more lines than the exchanges' size asks.
type rankTasks struct {
	x exchanges
	_ [(64 - unsafe.Sizeof(exchanges{})%64) % 64]byte // p starts a line
	p probing
	s sleeping
	// SendRecvsIprobe's task, around x and p, and the kernels its work
	// could not merge (rare)
	t thenProbe
	d deferredKernels
	_ [(64 - (unsafe.Sizeof(probing{})+unsafe.Sizeof(sleeping{})+unsafe.Sizeof(thenProbe{})+unsafe.Sizeof(deferredKernels{}))%64) % 64]byte // to whole lines
}

// tasksOf returns rank r's task storage.
func (w *World) tasksOf(r *Rank) *rankTasks {
	if w.tasks == nil {
		w.tasks = make([]rankTasks, len(w.ranks))
	}
	return &w.tasks[r.id]
}

// recvOverhead is what Request.payRecv charges a completed receive: the
// receive overhead, once, for a detached message (0 otherwise).
func (q *Request) recvOverhead() float64 {
	if q.orPaid {
		return 0
	}
	q.orPaid = true
	if !q.detached {
		return 0
	}
	return q.w.memo.or.lookup(&q.w.cfg.RecvOverhead, q.msg.Bytes, 0)
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

// StepSkipper is an Exchanger that can say where its next non-empty step
// is. A step whose dst and src are both Nobody makes no MPI call, takes no
// time and tells no hook: Exchanges and SendRecvs go past it unseen, so
// with a StepSkipper they jump over such steps without asking Exchange
// (a tall grid's spread-roll swap, HPL_rollT, whose P−1 steps are mostly
// empty when NB is small).
type StepSkipper interface {
	Exchanger
	// NextStep returns a k' ≥ k with steps k … k'−1 all empty (both sides
	// Nobody), and with Exchange having no effect for them; k' ≥ n, the
	// exchanges' count, says that the rest are. k itself is always right.
	NextStep(k int) int
}

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
		x := &c.r.w.tasksOf(c.r).x
		*x = exchanges{r: c.r, c: c, n: n, tag: tag, ex: ex, sync: true}
		x.setKinds(ex)
		c.r.runTask(x, "Exchanges")
		x.ex, x.skip, x.skips = nil, nil, false
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
// (the Send left out when dst is Nobody, the rest when src is). When ex
// is a BlockingReceiver, a step that only receives is a blocking
// Recv(src, tag) instead of the Irecv and its Wait.
func (c *Comm) SendRecvs(n, tag int, ex Exchanger) {
	checkUserTag("SendRecvs", tag)
	if n > 0 {
		x := &c.r.w.tasksOf(c.r).x
		*x = exchanges{r: c.r, c: c, n: n, tag: tag, ex: ex}
		x.setKinds(ex)
		c.r.runTask(x, "SendRecvs")
		x.ex, x.skip, x.skips = nil, nil, false
	}
}

// BlockingReceiver is an Exchanger whose SendRecvs steps are HPL_sdrv's:
// with nothing to send, HPL_sdrv receives with a blocking MPI_Recv, where
// other exchanges (HPL's rolls) post an Irecv and wait for it. The method
// only marks the type.
type BlockingReceiver interface {
	Exchanger
	BlockingRecvs()
}

// RecvSend is
//
//	_, _, src := ex.Exchange(0)
//	got, _ := c.Recv(src, tag)
//	ex.Received(0, got)
//	dst, m, _ := ex.Exchange(1)
//	c.Send(dst, tag, m)
//
// (the Recv and Received left out when src is Nobody, the Send when dst
// is): a ring broadcast's receive and forward (HPL's bcast rings). It makes
// the same calls, with the same hooks and times, but as a task (see
// Exchanges): the rank's coroutine parks once for the receive's wait, its
// overhead, the send's overhead and its wait, where each parked it. Step
// 0's dst and step 1's src must be Nobody. Exchanger's methods run in
// whichever goroutine advances the task: they must not call into ranks.
func (c *Comm) RecvSend(tag int, ex Exchanger) {
	checkUserTag("RecvSend", tag)
	x := &c.r.w.tasksOf(c.r).x
	*x = exchanges{r: c.r, c: c, n: 2, tag: tag, ex: ex, sync: true, forward: true}
	c.r.runTask(x, "Recv")
	x.ex = nil
}

// exchanges is the task of Comm.Exchanges (sync) and Comm.SendRecvs.
//
// Layout: what every step reads in the first cache line, what a post, a
// wait and an overhead read in the second; the third holds skip alone,
// read only where ex is a StepSkipper (skips). Step k's sides are ranks of
// the communicator, whose size is an int32 (commCtx).
type exchanges struct {
	r        *Rank // c.r, held here: a step then reads the rank without first loading the Comm
	c        *Comm
	ex       Exchanger
	k, n     int
	dst, src int32 // step k's send's destination and its receive's source
	phase    uint8 // where step k is: the x* constants
	after    uint8 // the phase xPay and xSleep go on at
	sync     bool
	skips    bool // ex is a StepSkipper (skip)
	forward  bool // RecvSend's: step 0 is Exchanges' (a Recv), step 1 SendRecvs' (a Send)
	blocking bool // ex is a BlockingReceiver: a SendRecvs step that only receives is a Recv
	recvOnly bool // this step is such a Recv (Exchanges' path)

	tag  int
	send *Request
	recv *Request
	// Step k's send, between its post's start and its post: a Msg but its
	// parts, which only collectives set (an Exchanger cannot).
	bytes int
	data  []float64
	d     float64 // the overhead xSleep sleeps, s

	skip StepSkipper // ex, when it says where its non-empty steps are
}

// msg is step k's send.
func (x *exchanges) msg() Msg { return Msg{Bytes: x.bytes, Data: x.data} }

// isBlockingReceiver says whether ex is a BlockingReceiver.
func isBlockingReceiver(ex Exchanger) bool {
	_, ok := ex.(BlockingReceiver)
	return ok
}

// receivesOnly says, and notes in recvOnly, that this step is HPL_sdrv's
// with nothing to send: under a BlockingReceiver, a blocking Recv. It sits
// in step's switch on the line of the case it shares, so that step's other
// lines keep their offsets, which default.pgo keys its inlining on.
func (x *exchanges) receivesOnly(dst, src int) bool {
	x.recvOnly = x.blocking && dst == Nobody && src != Nobody
	return x.recvOnly
}

// setKinds keeps ex as a StepSkipper, if it is one, and notes whether it is
// a BlockingReceiver.
func (x *exchanges) setKinds(ex Exchanger) {
	x.blocking = isBlockingReceiver(ex)
	x.skip, x.skips = ex.(StepSkipper)
}

// The phases of an exchanges step. Where the blocking calls pay the turns
// the rank owes (payOwed: before a post, before a sleep), the step goes
// through xPay or xSleep, which hand back turnStep until they are paid; a
// sleep (an overhead) hands back sleepStep; both go on at x.after.
const (
	xPost     uint8 = iota // post step k
	xPay                   // pay the owed turns, then go on at after
	xSleep                 // pay the owed turns, sleep d, then go on at after
	xIrecv                 // SendRecvs: post the Irecv, then the Send
	xSend                  // post step k's send up to its overhead
	xSendOver              // the send's overhead is over: post it
	xRecvPost              // Exchanges: the Issend is posted: start the Recv
	xRecv                  // Exchanges: post the Recv and wait for it
	xFirst                 // the first wait is over; the second begins
	xRecvOver              // Exchanges: the Recv's overhead is over
	xSecond                // the second wait is over: the step is done
	xWaitOver              // SendRecvs: the Wait's receive overhead is over
)

// pay goes on at phase next once the rank's owed turns are paid. A rank
// that owes none goes on at once, as xPay would find, without a pass
// through step's switch (after is read only by xPay and xSleep).
func (x *exchanges) pay(next uint8) {
	if x.r.owed <= 0 {
		x.phase = next
		return
	}
	x.phase, x.after = xPay, next
}

// sleep tells an overhead of d seconds and goes on at phase next once the
// owed turns are paid and the sleep is over (Rank.stack's order). Without
// an overhead, which xSleep would neither tell, pay for nor sleep, it goes
// on at once (d is read only by xSleep): the peer rows' overheads are 0.
func (x *exchanges) sleep(d float64, call string, bytes int, next uint8) {
	if !(d > 0) {
		x.phase = next
		return
	}
	if r := x.r; r.w.hears(Stack) { // taskStack, where d > 0 is known
		r.tellStack(d, call, bytes)
	}
	x.phase, x.after, x.d = xSleep, next, d
}

func (x *exchanges) step() *Request {
	c, r := x.c, x.r
	for {
		switch x.phase {
		case xPost: // post step k; wait for its first blocking side
			if x.skips { // past empty steps, which nothing would see
				x.k = min(max(x.skip.NextStep(x.k), x.k), x.n)
			}
			if x.k == x.n {
				return nil
			}
			dst, m, src := x.ex.Exchange(x.k)
			if int(int32(dst)) != dst { // out of any communicator: checkRank's panic
				c.checkRank("send", dst)
			}
			if int(int32(src)) != src {
				c.checkRank("receive", src)
			}
			if x.forward && (x.sync && dst != Nobody || !x.sync && src != Nobody) {
				panic(fmt.Sprintf("ranks: RecvSend's step %d sends to %d and receives from %d: step 0 only receives, step 1 only sends", x.k, dst, src))
			}
			x.send, x.recv, x.dst, x.src, x.bytes, x.data = nil, nil, int32(dst), int32(src), m.Bytes, m.Data
			switch {
			case x.sync && dst != Nobody: // Issend, then Recv's post and its wait
				r.mpiEnter("MPI_Issend")
				c.checkRank("send", dst) // before prepareSend's payOwed
				x.pay(xSend)
			case x.sync || x.receivesOnly(dst, src): // a Recv's post and its wait
				x.phase = xRecvPost
			case src != Nobody: // Irecv, then Send's post and its wait
				r.mpiEnter("MPI_Irecv")
				x.pay(xIrecv)
			default:
				x.phase = xIrecv
			}
		case xPay:
			if r.taskPay() {
				return turnStep
			}
			x.phase = x.after
		case xSleep:
			if x.d > 0 && r.taskPay() {
				return turnStep
			}
			x.phase = x.after
			if r.taskSleep(x.d, false) {
				return sleepStep
			}
		case xIrecv:
			if x.src != Nobody {
				x.recv = c.irecv(int(x.src), x.tag)
				r.mpiExit("MPI_Irecv")
			}
			x.phase = xFirst
			if x.dst != Nobody {
				r.mpiEnter("MPI_Send")
				c.checkRank("send", int(x.dst))
				x.pay(xSend)
			}
		case xSend: // the owed turns are paid: prepareSend's payOwed costs nothing
			m, d, call := c.prepareSend(int(x.dst), x.msg(), !x.sync, x.sync)
			x.bytes, x.data = m.Bytes, m.Data
			x.sleep(d, call, m.Bytes, xSendOver)
		case xSendOver:
			m := x.msg()
			x.bytes, x.data = 0, nil
			if x.sync {
				x.send = c.postPrepared(int(x.dst), x.tag, m, true)
				r.mpiExit("MPI_Issend")
				x.phase = xRecvPost
				continue
			}
			if x.send, x.phase = c.postPrepared(int(x.dst), x.tag, m, false), xFirst; !x.send.done || r.w.simgrid {
				return x.send // a done send outside SimGrid's order: advance would only call step again
			}
		case xRecvPost:
			x.phase = xFirst
			if x.src != Nobody {
				r.mpiEnter("MPI_Recv")
				x.pay(xRecv)
			}
		case xRecv:
			x.recv = c.irecv(int(x.src), x.tag)
			x.phase = xFirst
			return x.recv
		case xFirst: // the first wait is over; the second begins
			if x.sync || x.recvOnly {
				x.phase = xRecvOver
				if q := x.recv; q != nil { // the Recv is over
					x.sleep(q.recvOverhead(), "Recv", q.msg.Bytes, xRecvOver)
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
			if !x.sync && x.recv != nil { // Wait on the Irecv: its overhead
				q := x.recv
				x.sleep(q.recvOverhead(), "Recv", q.msg.Bytes, xWaitOver)
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
			x.send, x.recv, x.recvOnly = nil, nil, false
			x.phase = xPost
			x.k++
			if x.forward { // RecvSend's step 1: SendRecvs' Send
				x.sync = false
				r.blk.call = "Send"
			}
		}
	}
}
