package ranks

// Worker is work a task runs between its MPI steps, in the rank's turn
// (HPL's row copies between an exchange of the binary-exchange swap and
// its poll of the pending broadcast). Work(k) runs after step k, in
// whichever goroutine advances the task, and may only charge kernels
// (Rank.Compute) and read the rank's clock (Rank.Now): no MPI call, no
// Sleep, no other rank's methods.
type Worker interface{ Work(k int) }

// SendRecvsIprobe is, from step `from` of SendRecvs(n, tag, ex),
//
//	for k := from; k < n; k++ {
//		// SendRecvs's step k (no call when both its sides are Nobody)
//		work.Work(k)
//		if ok, st := pc.Iprobe(src, ptag); ok {
//			return k + 1, true, st
//		}
//	}
//	return n, false, Status{}
//
// (HPL's binary-exchange row swap: each hypercube step is HPL_sdrv, the row
// copies and a poll of the pending broadcast, until the poll sees it), with
// the same calls, hooks, sleeps, counters and events at the same times and
// in the same order, except that the call first settles the kernel sleeps
// the rank owes, as SendRecvs does: where step `from` has no side, a
// caller that owes some and makes no call there makes it itself. pc is a
// communicator of the same rank (HPL probes its row's broadcast between
// its column's exchanges).
//
// Where the World merges kernel sleeps (World.lazy) it is one task (see
// task): the rank's coroutine parks once for all the steps, works and
// probes up to the probe that sees the message, where it parked once for
// each exchange and once for each probe. A failed probe that is free ends
// the task (the coroutine spins, as Iprobe does, then goes on with the
// next step). A kernel that work charges and that Compute would sleep at
// once (the clock cannot count it) is deferred: the task ends after work,
// and the coroutine makes the deferred sleeps, as Compute makes them, then
// the probe, then goes on. Elsewhere (another wake order, a listener of
// the compute events) it is the loop above.
func (c *Comm) SendRecvsIprobe(from, n, tag int, ex Exchanger, work Worker, pc *Comm, src, ptag int) (int, bool, Status) {
	if pc.r != c.r {
		panic("ranks: SendRecvsIprobe's probe on another rank's communicator")
	}
	checkUserTag("SendRecvs", tag)
	return c.stepsIprobe(from, n, tag, ex, work, src, ptag, pc, false, false)
}

// IprobeSendRecvs is pc.Iprobe(src, ptag), then, unless it sees the
// message (it then returns from, true and its status), SendRecvsIprobe(from,
// n, tag, ex, work, pc, src, ptag): the same calls, as one task where
// SendRecvsIprobe is one. The probe's settle of the kernel sleeps the rank
// owes comes first, so step `from` may have no side.
func (c *Comm) IprobeSendRecvs(from, n, tag int, ex Exchanger, work Worker, pc *Comm, src, ptag int) (int, bool, Status) {
	if pc.r != c.r {
		panic("ranks: IprobeSendRecvs's probe on another rank's communicator")
	}
	checkUserTag("SendRecvs", tag)
	return c.stepsIprobe(from, n, tag, ex, work, src, ptag, pc, true, false)
}

// IprobeWorks is
//
//	for k := 0; ; k++ {
//		if ok, st := c.Iprobe(src, tag); ok {
//			return k, true, st
//		}
//		if k == n {
//			return n, false, Status{}
//		}
//		work.Work(k)
//	}
//
// (HPL's update: a probe of the pending broadcast after each chunk of the
// update's kernels, until it sees the broadcast or the columns run out; the
// caller makes the first chunk), with the same calls, hooks, sleeps,
// counters and events at the same times and in the same order. It is
// SendRecvsIprobe without exchanges, from the probe: where the World merges
// kernel sleeps it is one task, the kernel sleeps the rank owes settled
// first as Iprobe settles them, and work runs in whichever goroutine
// advances it, under the same rules (Worker).
func (c *Comm) IprobeWorks(n int, work Worker, src, tag int) (int, bool, Status) {
	return c.stepsIprobe(0, n, 0, nil, work, src, tag, c, true, false)
}

// IprobeWorksProbe is IprobeWorks, then, where none of its probes saw the
// message, one more Iprobe and, unless it sees it, a Probe:
//
//	k, ok, st := c.IprobeWorks(n, work, src, tag)
//	if !ok {
//		ok, st = c.Iprobe(src, tag)
//	}
//	if !ok {
//		st = c.Probe(src, tag)
//	}
//	return k, st
//
// (HPL's update whose columns run out before the broadcast it polls is
// posted, and which then spins on it: HPL_bcast's probe, then HPL_bwait's),
// with the same calls, hooks, sleeps, counters and events at the same
// times and in the same order, as one task where IprobeWorks is one: the
// rank's coroutine parks once for the works, the probes and the Probe's
// loop, where it parked for each of the three calls.
func (c *Comm) IprobeWorksProbe(n int, work Worker, src, tag int) (int, Status) {
	k, _, st := c.stepsIprobe(0, n, 0, nil, work, src, tag, c, true, true)
	return k, st
}

// stepsIprobe is SendRecvsIprobe (ex: the exchanges, on c), IprobeWorks
// (ex nil: no exchange; probe: the probe of step k−1 first) and
// IprobeWorksProbe (tail: the Iprobe and Probe after the steps, if none
// saw the message; the result is then always true).
func (c *Comm) stepsIprobe(k, n, tag int, ex Exchanger, work Worker, src, ptag int, pc *Comm, probe, tail bool) (int, bool, Status) {
	r := c.r
	tk := r.w.tasksOf(r)
	x, p, t := &tk.x, &tk.p, &tk.t
	defer func() { x.ex, x.skip, x.skips, t.work = nil, nil, false, nil }()
	for probe || k < n {
		if !r.w.lazy {
			if !probe {
				if ex != nil {
					*x = exchanges{r: r, c: c, k: k, n: k + 1, tag: tag, ex: ex, blocking: isBlockingReceiver(ex)}
					r.runTask(x, "SendRecvs")
				}
				work.Work(k)
				k++
			}
			probe = false
			if ok, st := pc.Iprobe(src, ptag); ok {
				return k, true, st
			}
			continue
		}
		*x = exchanges{r: r, c: c, k: k, n: k + 1, tag: tag, ex: ex, blocking: isBlockingReceiver(ex)}
		*p = probing{r: r, c: pc, src: src, tag: ptag, once: true}
		t.x, t.p, t.work, t.phase, t.n, t.tail = x, p, work, thenExchange, n, tail
		call := "SendRecvs"
		if probe { // the probe first: step k is its next
			x.n, t.phase, call, probe = k, thenProbing, "Iprobe", false
		} else if ex == nil {
			call = "Iprobe"
		}
		r.runTask(t, call)
		k = x.k
		switch {
		case t.phase == thenDeferred:
			tk.d.sleep(r)
			if ok, st := pc.Iprobe(src, ptag); ok {
				return k, true, st
			}
		case p.found:
			return k, true, p.st
		case t.phase == thenLast: // the tail's Iprobe was free: it spins, then the Probe
			p.spinOut()
			return k, true, pc.Probe(src, ptag)
		case t.phase == thenProbeLoop: // one of the Probe's was: it spins, and the loop goes on
			p.spinOut()
			st := r.probeLoop(p)
			r.mpiExit("MPI_Probe")
			return k, true, st
		case p.free:
			p.spinOut() // a failed free probe spins, on the coroutine
		}
	}
	if tail { // the steps ran out off the task (other orders, deferred kernels, a free probe)
		if ok, st := pc.Iprobe(src, ptag); ok {
			return n, true, st
		}
		return n, true, pc.Probe(src, ptag)
	}
	return n, false, Status{}
}

// thenProbe is the task of Comm.SendRecvsIprobe and Comm.IprobeWorks: step
// k of the exchanges (x, one step at a time: x.n is k+1; none where x.ex is
// nil), then work, then, once the kernel sleeps the rank owes are settled
// as Iprobe's runTask settles them, one probe (p); then the next step, up
// to step n−1 or a probe that sees the message (p.found), is free
// (p.free), or work that defers a kernel. IprobeWorks's starts at the
// probe (thenProbing, with x.n = x.k). IprobeWorksProbe's (tail) goes on,
// when the steps run out, with an Iprobe (thenLast), then a Probe's loop
// (thenProbeLoop), up to a probe that sees the message or is free.
type thenProbe struct {
	x     *exchanges
	p     *probing
	work  Worker
	n     int
	phase uint8 // the then* constants
	tail  bool
}

const (
	thenExchange  uint8 = iota // step x.k runs
	thenProbing                // its work is done: the probe runs
	thenDeferred               // work deferred kernels: the task is over
	thenLast                   // tail: the steps ran out: one more Iprobe
	thenProbeLoop              // tail: it failed: the Probe's loop
)

func (t *thenProbe) step() *Request {
	x, p := t.x, t.p
	r := p.r
	for {
		switch t.phase {
		case thenExchange:
			if x.ex == nil { // IprobeWorks: no exchange
				x.k++
			} else if q := x.step(); q != nil {
				return q
			}
			r.blk.call = "Iprobe"
			t.phase = thenProbing
			t.work.Work(x.k - 1)
			if d := &r.w.tasksOf(r).d; d.active {
				d.end(r)
				t.phase = thenDeferred
				return nil
			}
			if r.taskSettle() { // Iprobe's runTask settles first
				return sleepStep
			}
		case thenProbing:
			if q := p.step(); q != nil {
				return q
			}
			if p.found || p.free || x.k == t.n && !t.tail {
				return nil
			}
			*p = probing{r: r, c: p.c, src: p.src, tag: p.tag, once: true}
			if x.k == t.n { // the tail's Iprobe: Comm.Iprobe's probe
				t.phase = thenLast
				continue
			}
			x.n++
			if x.ex != nil {
				r.blk.call = "SendRecvs"
			}
			t.phase = thenExchange
		case thenLast:
			if q := p.step(); q != nil {
				return q
			}
			if p.found || p.free {
				return nil
			}
			// Comm.Probe: nothing is owed since the last Work's settle,
			// so mpiEnter only counts (or tells) the call.
			r.mpiEnter("MPI_Probe")
			*p = probing{r: r, c: p.c, src: p.src, tag: p.tag}
			t.phase = thenProbeLoop
		case thenProbeLoop:
			if q := p.step(); q != nil {
				return q
			}
			if p.found {
				r.mpiExit("MPI_Probe")
			}
			return nil
		default: // thenDeferred
			return nil
		}
	}
}

// deferredKernels is what a task's work charged that Compute would have
// slept at once: in order, each kernel (d, its seconds), slept after the
// kernel sleeps the rank owed until at (0: none); after them the rank owes
// until due (0: none). It is the rank's, reused (sleeps keeps its array).
type deferredKernels struct {
	active bool
	sleeps []deferredKernel
	due    float64
	// mark is the rank's clock after the last deferred kernel, which
	// Rank.due holds meanwhile: the rank reads the clock it would read,
	// and a kernel merged after it moves Rank.due on from it.
	mark float64
}

type deferredKernel struct {
	at, d  float64
	kernel string
}

// deferKernel is Rank.Compute, in a task's work (thenProbe's), for a kernel
// of seconds > 0 it would sleep at once: the rank's clock cannot count it.
// It records the sleep: Compute would settle until Rank.due (nothing if
// nothing merged since the last deferred kernel, after which the rank owed
// nothing), then sleep seconds, after which the clock reads what it reads
// now.
func (r *Rank) deferKernel(seconds float64, kernel string) {
	if t, ok := r.task.(*thenProbe); !ok || t.phase != thenProbing {
		panic("ranks: Compute in a task, outside a Worker's Work")
	}
	d := &r.w.tasksOf(r).d
	at := r.due
	if d.active && at == d.mark {
		at = 0
	}
	if !d.active {
		d.active, d.sleeps = true, d.sleeps[:0]
	}
	d.sleeps = append(d.sleeps, deferredKernel{at: at, d: seconds, kernel: kernel})
	d.mark = r.Now()
	r.due = d.mark
}

// end closes the work's deferred kernels: the rank owes what was merged
// after the last (due).
func (d *deferredKernels) end(r *Rank) {
	d.due = 0
	if r.due != d.mark {
		d.due = r.due
	}
	r.due = 0
}

// sleep makes the deferred kernels' sleeps on the rank's coroutine, as
// Compute would have made them in work.
func (d *deferredKernels) sleep(r *Rank) {
	d.active = false
	for _, k := range d.sleeps {
		r.due = k.at
		r.sleepKernel(k.d, k.kernel)
	}
	r.due = d.due
	clear(d.sleeps) // the kernel names
}
