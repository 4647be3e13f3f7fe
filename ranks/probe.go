package ranks

// probeWait is what a rank blocked in a zero-cost Probe waits for.
type probeWait struct {
	ctx      *commCtx
	src, tag int // world rank or AnySource; tag or AnyTag
}

// Iprobe charges the simulated cost of MPI_Iprobe — IprobeCost times the
// probe counter, as SimGrid 3.32 injects it before probing — then reports
// whether a matching message has been posted (not yet received), with its
// status. SimGrid's counter grows by one after each probe that finds
// nothing and goes back to 1 after one that finds a message; it is shared
// by all ranks unless Config.PerRankCounters. With a zero IprobeCost a
// probe that finds nothing returns without any context switch.
func (c *Comm) Iprobe(src, tag int) (bool, Status) {
	// One probe of Probe's task (probing, as the blocking code
	//	mpiEnter, payOwed, pollCost (a sleep), peek, simcall, payOwed
	// runs it): the kernel sleeps the rank owes and the probe's cost then
	// park its coroutine once, where each took a park and a resume.
	p := &c.r.w.tasksOf(c.r).p
	*p = probing{r: c.r, c: c, src: src, tag: tag, once: true}
	c.r.runTask(p, "Iprobe")
	switch {
	case p.found:
		return true, p.st
	case p.free:
		p.spinOut() // a failed free probe spins, on the coroutine
	}
	return false, Status{}
}

// peerOf translates a communicator rank (or AnySource) to a world rank.
func (c *Comm) peerOf(src int) int {
	if src == AnySource {
		return AnySource
	}
	return c.WorldRank(src)
}

// peek looks for a posted send matching (src, tag) on c without taking it;
// with progressedOnly, only among those an MPI call of this rank has ended
// after (Config.ProbeAfterProgress).
func (c *Comm) peek(src, tag int, progressedOnly bool) (Status, bool) {
	from := AnySource
	if src != AnySource {
		c.checkRank("probe", src)
		from = c.WorldRank(src)
	}
	for s := c.r.mbox.sends.head; s != nil; s = s.next {
		if matches(s, c.ctx, from, tag) && (s.progressed || !progressedOnly) {
			return Status{Source: int(s.srcRank), Tag: s.tag, Bytes: s.msg.Bytes}, true
		}
	}
	return Status{}, false
}

// Probe blocks until a matching message is posted and returns its status.
// With a positive IprobeCost it is a loop of Iprobe, as in SMPI, and pays
// the growing probe costs; with a zero cost it simply waits for the send.
func (c *Comm) Probe(src, tag int) Status {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Probe"))
	if c.r.w.cfg.IprobeCost > 0 {
		// The loop's Iprobes run as a task (task.go): most of a Dahu run's
		// sleeps are these probes, and each resumed the rank's coroutine.
		// A free probe, which may spin, ends the task; the loop goes on here.
		p := &c.r.w.tasksOf(c.r).p
		*p = probing{r: c.r, c: c, src: src, tag: tag}
		return c.r.probeLoop(p)
	}
	from := AnySource
	if src != AnySource {
		c.checkRank("probe", src)
		from = c.WorldRank(src)
	}
	for {
		if st, ok := c.peek(src, tag, false); ok { // a blocking probe progresses while it waits
			c.r.probe = nil
			return st
		}
		c.r.probe = &probeWait{ctx: c.ctx, src: from, tag: tag}
		c.r.block("Probe", from, tag)
	}
}

// probeLoop is Probe's loop of Iprobes, p, run as a task up to the probe
// that finds the message, the failed free ones spun on the coroutine.
func (r *Rank) probeLoop(p *probing) Status {
	for {
		r.runTask(p, "Iprobe")
		if p.found {
			return p.st
		}
		p.spinOut()
	}
}

// probing is the task of Comm.Probe with a positive IprobeCost, its loop
// of Iprobes, and of Comm.Iprobe (once: one probe). Each probe is
//
//	mpiEnter("MPI_Iprobe"); payOwed()
//	n, free := r.pollCost(ctrIprobe, cost, 3, "Iprobe") // a sleep
//	st, ok := c.peek(src, tag, …); simcall(); payOwed()
//	    (two simcalls under an AsyncThreshold, unless it finds a small message)
//	found: *n = 1; failed: failedPoll(n), and spin if free; mpiExit
//
// as the blocking code makes it (Test's shape), with the same hooks,
// sleeps, counters and owed turns (taskPay where it calls payOwed), in the
// same order. The loop ends when a probe finds a message (found, st) or
// when a failed probe was free: Rank.spin may then park the rank, which
// only its coroutine can do, so the task hands that probe's end back
// (spinOut) and, in Probe, is run again for the next.
type probing struct {
	r        *Rank // c.r, held here: a step then reads the rank without first loading the Comm
	c        *Comm
	src, tag int
	phase    uint8   // where the probe in flight is: the p* constants
	n        *int    // the poll counter of the probe in flight
	d        float64 // its sleep, s
	free     bool    // it costs nothing the clock can count
	ok       bool    // it found a message (st)
	found    bool
	once     bool // Iprobe's: one probe, found or not
	looked   bool // it has looked at the mailbox once (pLook)
	// st, last: every field above fits in the task's first cache line (see
	// rankTasks); st is written only by a probe that finds a message.
	st Status
}

// The phases of a probe. Each pays the rank's owed turns (taskPay) before
// it acts, where Iprobe calls payOwed.
const (
	pStart uint8 = iota // Iprobe's start
	pCount              // read the counter and tell the sleep
	pSleep              // sleep the probe's cost
	pLook               // look at the mailbox
	pEnd                // the probe's outcome
)

func (p *probing) step() *Request {
	r := p.r
	w := r.w
	for {
		switch p.phase {
		case pStart:
			r.mpiEnter("MPI_Iprobe")
			p.phase = pCount
		case pCount:
			if r.taskPay() {
				return turnStep
			}
			p.n = w.counter(r, ctrIprobe)
			d := r.execTime(float64(*p.n) * w.cfg.IprobeCost)
			if d > 0 {
				r.simcalls(3)
			}
			now := w.eng.Now()
			p.free, p.d = now+d == now, d
			r.taskStack(d, "Iprobe", 0)
			p.phase = pSleep
		case pSleep:
			if p.d > 0 && r.taskPay() {
				return turnStep
			}
			p.phase = pLook
			if r.probeSleep(p.d) {
				return sleepStep
			}
		case pLook: // the sleep is over: the rest of Iprobe
			if w.mailed != nil {
				w.mailed[r.gid>>6] &^= 1 << (r.gid & 63)
			}
			p.looked = true
			p.st, p.ok = p.c.peek(p.src, p.tag, w.cfg.ProbeAfterProgress && r.callDepth == 1)
			r.simcall()
			if a := w.cfg.AsyncThreshold; a > 0 && !(p.ok && p.st.Bytes < a) {
				// SMPI probes the small messages' mailbox first and, unless
				// the message is there, the other one: a second simcall.
				r.simcall()
			}
			p.phase = pEnd
		default: // pEnd
			if r.taskPay() {
				return turnStep
			}
			p.phase = pStart
			if p.ok {
				*p.n = 1
				r.mpiExit("MPI_Iprobe")
				p.found = true
				return nil
			}
			w.failedPoll(p.n)
			if p.free {
				return nil // spinOut, on the coroutine
			}
			r.mpiExit("MPI_Iprobe")
			if p.once {
				return nil
			}
		}
	}
}

// spinOut ends a failed free probe as Iprobe does, on the rank's coroutine.
func (p *probing) spinOut() {
	r := p.r
	r.spin("Iprobe", p.c.peerOf(p.src), p.tag)
	r.mpiExit("MPI_Iprobe")
}
