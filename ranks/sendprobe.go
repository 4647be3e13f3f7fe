package ranks

// Worker is work a task runs between its MPI steps, in the rank's turn
// (HPL's row copies between an exchange of the binary-exchange swap and
// its poll of the pending broadcast). Work runs in whichever goroutine
// advances the task and may only charge kernels (Rank.Compute) and read
// the rank's clock (Rank.Now): no MPI call, no Sleep, no other rank's
// methods.
type Worker interface{ Work() }

// SendRecvsIprobe is
//
//	c.SendRecvs(n, tag, ex)
//	work.Work()
//	return pc.Iprobe(src, ptag)
//
// (a step of HPL's binary-exchange row swap: HPL_sdrv, the row copies,
// the poll of the pending broadcast), with the same calls, hooks, sleeps,
// counters and events at the same times and in the same order. Where the
// World merges kernel sleeps (World.lazy) it is one task (see task): the
// rank's coroutine parks once for the exchanges, the work and the probe,
// where it parked once for the exchanges and once for the probe. A kernel
// that work charges and that Compute would sleep at once (the clock cannot
// count it) is deferred: the task ends after work, and the coroutine makes
// the deferred sleeps, as Compute makes them, then the probe.
// Elsewhere (another wake order, a listener of the compute events, n ≤ 0)
// it is the three calls above.
// pc is a communicator of the same rank (HPL probes its row's broadcast
// between its column's exchanges).
func (c *Comm) SendRecvsIprobe(n, tag int, ex Exchanger, work Worker, pc *Comm, src, ptag int) (bool, Status) {
	r := c.r
	if pc.r != r {
		panic("ranks: SendRecvsIprobe's probe on another rank's communicator")
	}
	if !r.w.lazy || n <= 0 {
		c.SendRecvs(n, tag, ex)
		work.Work()
		return pc.Iprobe(src, ptag)
	}
	checkUserTag("SendRecvs", tag)
	tk := r.w.tasksOf(r)
	x, p, t := &tk.x, &tk.p, &tk.t
	*x = exchanges{r: r, c: c, n: n, tag: tag, ex: ex}
	x.skip, _ = ex.(StepSkipper)
	*p = probing{r: r, c: pc, src: src, tag: ptag, once: true}
	t.x, t.p, t.work, t.phase = x, p, work, thenExchange
	r.runTask(t, "SendRecvs")
	x.ex, x.skip, t.work = nil, nil, nil
	switch {
	case t.phase == thenDeferred:
		tk.d.sleep(r)
		return pc.Iprobe(src, ptag)
	case p.found:
		return true, p.st
	case p.free:
		p.spinOut() // a failed free probe spins, on the coroutine
	}
	return false, Status{}
}

// thenProbe is the task of Comm.SendRecvsIprobe: the exchanges (x), then
// work, then, once the kernel sleeps the rank owes are settled as
// Iprobe's runTask settles them, one probe (p).
type thenProbe struct {
	x     *exchanges
	p     *probing
	work  Worker
	phase uint8 // the then* constants
}

const (
	thenExchange uint8 = iota // the exchanges run
	thenProbing               // work is done: the probe runs
	thenDeferred              // work deferred kernels: the task is over
)

func (t *thenProbe) step() *Request {
	if t.phase == thenExchange {
		if q := t.x.step(); q != nil {
			return q
		}
		r := t.p.r
		r.blk.call = "Iprobe"
		t.phase = thenProbing
		t.work.Work()
		if d := &r.w.tasksOf(r).d; d.active {
			d.end(r)
			t.phase = thenDeferred
			return nil
		}
		if r.taskSettle() { // Iprobe's runTask settles first
			return sleepStep
		}
	}
	if t.phase == thenDeferred {
		return nil
	}
	return t.p.step()
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
