package ranks

import (
	"math"
	"math/rand/v2"
)

// Rank states. Exactly one rank is stateRunning at a time.
const (
	stateReady uint8 = iota
	stateRunning
	stateBlocked
	stateFinished
)

// blockInfo says what a blocked rank waits for (the deadlock report).
type blockInfo struct {
	call      string
	peer, tag int
}

// Rank is one MPI process: what an application's main receives. Its methods
// may be called only from that rank's own goroutine.
type Rank struct {
	// What a message's matching, a block and a resumption touch, by cache
	// line: at Stampede's scale a rank's struct is out of the cache
	// whenever it runs again, so the fewer lines the better. (A Rank is in
	// the 256-byte size class, whose objects are 64-byte aligned.)
	//
	// Line 0: what waking (state, gid), resuming (resume), blocking and
	// yielding (state, owed, yield), a call (callDepth), a send (w, id,
	// paths) and a send to the rank (probe) read.
	w         *World
	id        int
	gid       int32 // id among the ranks of every World sharing the scheduler (a Machine's): their order in the ready queue
	state     uint8
	rang      bool  // the sleep timer fired
	parked    bool  // in World.pollers
	native    bool  // blocked in a task the scheduler advances (task.go)
	callDepth int32 // MPI calls open (mpiEnter): a collective's point-to-point calls nest
	owed      int32 // simcalls whose turn the rank has not yet given up (WakeSimGrid)
	// The rank's coroutine (iter.Pull): the driver resumes it, it yields
	// back when another rank is to run.
	yield  func(struct{}) bool
	resume func() (struct{}, bool)
	paths  *[pathCacheSize]cachedPath // routes from this host by destination (see pathTo)
	probe  *probeWait                 // set while blocked in a zero-cost Probe

	// Line 1: the mailbox (matching: the receiver's own, a sender's
	// target's) and what a block writes.
	mbox mailbox // messages and receives addressed to this rank
	blk  blockInfo

	// Line 2: what a task's step reads (task.go): the task and the request
	// it waits for (advance), and the merged sleeps owed (mpiEnter,
	// taskSettle), in one line; the world communicator fills it.
	task   task
	waitOn *Request
	// due is when the rank's merged kernel sleeps end (World.lazy): the
	// clock the rank runs on, ahead of the engine's; 0 when none is owed.
	due   float64
	world Comm

	// The rest.
	host  int32
	spins int32      // consecutive failed free polls at time spinAt
	rng   *rand.Rand // created on first use: most ranks of a big run never draw
	// delayRng draws the injected message delays (Config.MessageDelay,
	// DelayExp) of the messages this rank sends; created on first use.
	delayRng *rand.Rand
	stop     func()

	iprobeN, testN, testanyN int // per-rank poll counters (Config.PerRankCounters)

	spinAt float64 // s
}

// spinLimit is how many failed free polls (Iprobe, Test, Testany with a zero
// cost) a rank may make at one instant before it is parked. A real
// busy-wait lets time pass; a free poll does not, so without parking a
// spin loop would run forever at a fixed time.
const spinLimit = 64

// spin records a failed free poll. Past spinLimit at one instant the rank
// is parked until every other rank is blocked: it is then released once at
// the same instant (to see what the others did), and after that only when
// the engine has fired the next instant's events. A poller with nothing
// left to happen is reported in the DeadlockError under its call.
func (r *Rank) spin(call string, peer, tag int) {
	now := r.w.eng.Now()
	if now != r.spinAt {
		r.spinAt, r.spins = now, 0
	}
	r.spins++
	if r.spins < spinLimit {
		return
	}
	r.spins = 0
	r.parked = true
	r.w.park(r)
	for r.parked {
		r.block(call, peer, tag)
	}
}

// rankTimer is the emu.Handler that ends a rank's sleep.
type rankTimer struct{ r *Rank }

func (t rankTimer) Handle() {
	t.r.rang = true
	t.r.w.wakeUp(t.r)
}

// ID returns the rank's number in the world communicator.
func (r *Rank) ID() int { return r.id }

// Size returns the number of ranks in the world.
func (r *Rank) Size() int { return len(r.w.ranks) }

// Host returns the index of the host the rank runs on.
func (r *Rank) Host() int { return int(r.host) }

// HostName returns the name of the rank's host in the topology.
func (r *Rank) HostName() string { return r.w.topo.HostName(int(r.host)) }

// Now returns the current simulated time, s: the rank's own, where it runs
// ahead of the engine through merged kernel sleeps (World.lazy).
func (r *Rank) Now() float64 {
	if r.due != 0 {
		return r.due
	}
	return r.w.eng.Now()
}

// World returns the rank's view of the world communicator.
func (r *Rank) World() *Comm { return &r.world }

// Rand returns the rank's random stream: a PCG generator seeded with the
// World's seed and the rank number, so runs with the same seed draw the
// same numbers whatever the scheduling.
func (r *Rank) Rand() *rand.Rand {
	if r.rng == nil {
		r.rng = rand.New(rand.NewPCG(r.w.seed, uint64(r.id)^0x9e3779b97f4a7c15))
	}
	return r.rng
}

// Compute charges seconds of computation to the rank: it sleeps in virtual
// time and emits ComputeStart and ComputeEnd. kernel names the work for
// tracers. A non-positive or NaN duration charges nothing (the events are
// still emitted, with Seconds 0); +Inf stops the run with an *EndlessError
// naming the rank and the kernel (World.Run's *PanicError).
func (r *Rank) Compute(seconds float64, kernel string) {
	w := r.w
	if math.IsInf(seconds, 1) {
		panic(&EndlessError{Rank: r.id, Call: "Compute", Kernel: kernel})
	}
	if !(seconds > 0) {
		seconds = 0
	}
	if w.lazy {
		// Nobody hears the compute events: the sleep joins the ones the
		// rank owes (World.lazy), unless the clock could not count it.
		if seconds == 0 {
			return
		}
		if from := r.Now(); from+seconds > from {
			r.due = from + seconds
			return
		}
		if r.task != nil { // in a task's work (Worker), which cannot sleep
			r.deferKernel(seconds, kernel)
			return
		}
	}
	r.sleepKernel(seconds, kernel)
}

// sleepKernel is Compute's sleep of a kernel of seconds (≥ 0), after the
// kernel sleeps the rank owes (settle).
func (r *Rank) sleepKernel(seconds float64, kernel string) {
	w := r.w
	r.settle()
	if w.hears(ComputeStart) {
		ev := w.event(ComputeStart, r.id, noPeer)
		ev.Kernel, ev.Seconds = kernel, seconds
		w.emit()
	}
	if seconds > 0 {
		// SMPI's execution: set_flops_amount and set_host are simcalls
		// before start (whose order sets the CPU heap's tie order).
		r.simcalls(2)
	}
	r.sleep(r.execTime(seconds), "Compute")
	if w.hears(ComputeEnd) {
		ev := w.event(ComputeEnd, r.id, noPeer)
		ev.Kernel, ev.Seconds = kernel, seconds
		w.emit()
	}
}

// Sleep lets seconds of simulated time pass for the rank; a non-positive or
// NaN duration none, and +Inf stops the run with an *EndlessError.
func (r *Rank) Sleep(seconds float64) {
	if math.IsInf(seconds, 1) {
		panic(&EndlessError{Rank: r.id, Call: "Sleep"})
	}
	r.settle()
	r.sleep(seconds, "Sleep")
}

// settle makes the rank sleep off the kernel sleeps it owes (World.lazy),
// until r.due, before it does anything another rank or the engine could
// see: the wake-up lands on the very float, and at the very point among
// the other ranks, of the last of the sleeps made one after the other.
// It inlines (every MPI call makes it, most owing nothing): the sleep is
// settleDue's.
func (r *Rank) settle() {
	if r.due != 0 {
		r.settleDue()
	}
}

// settleDue is settle for a rank that owes a sleep.
func (r *Rank) settleDue() {
	at := r.due
	r.due = 0
	w := r.w
	if w.mayJump(at) && w.eng.SkipTo(at) && w.arrived(r) {
		return
	}
	r.rang = false
	w.eng.AtHandler(at, rankTimer{r})
	for !r.rang {
		r.block("Compute", noPeer, 0)
	}
}

// mayJump says whether the running rank may move the clock itself to end,
// with no timer: no other rank is ready, no poller is parked and no probe
// kept out of the engine (probeQueue) ends at or before end (the rank would
// be the next to run anyway), unless a test asked for the timer path, nor
// does end reach dormLimit while a probe is dormant (dormant.go: a dormant
// probe's end does not stop the jump). The engine still refuses if
// anything in its queue is due first.
func (w *World) mayJump(end float64) bool {
	return w.ready.empty() && len(w.pollers) == 0 && w.probes.after(end) && end < w.jumpLimit
}

// setJumpLimit sets the clock a jump ends below (jumpLimit): limit, or
// −Inf where a test asked for the timer path (noSkip), in one comparison.
func (w *World) setJumpLimit(limit float64) {
	w.jumpLimit = limit
	if w.noSkip {
		w.jumpLimit = math.Inf(-1)
	}
}

// sleep blocks the rank for d simulated seconds (nothing if d ≤ 0).
func (r *Rank) sleep(d float64, call string) {
	if !(d > 0) {
		return
	}
	// Fast path: no other rank is ready, no poller is parked and nothing is
	// due before the sleep ends — the rank would be the next to run anyway,
	// so the clock just jumps (no timer, no scheduling).
	w := r.w
	if r.owed > 0 && !w.ready.empty() && !w.sleepInline {
		// It gives up its turn first (SimGrid's simcalls): the turns and the
		// wait as a task, so that the coroutine parks once for them all.
		s := &w.tasksOf(r).s
		*s = sleeping{r: r, d: d, exec: isExec(call)}
		r.runTask(s, call)
		return
	}
	r.payStart(d, call)
	if w.mayJump(w.eng.Now()+d) && w.eng.Skip(d) && w.arrived(r) {
		return
	}
	// Looping makes the sleep immune to a stray wake-up. The timer's own
	// flag, not the clock, says it is over: under WakeSimGrid it may fire
	// up to SimGridPrecision early.
	r.rang = false
	if w.simgrid {
		w.cpu.timer(w, r, d)
	} else {
		w.eng.AfterHandler(d, rankTimer{r}) // pointer-shaped: no allocation
	}
	for !r.rang {
		r.block(call, noPeer, 0)
	}
}

// block parks the rank until something calls wakeUp on it. The caller
// re-checks its condition afterwards.
func (r *Rank) block(call string, peer, tag int) {
	r.owed = 0
	r.blk = blockInfo{call: call, peer: peer, tag: tag}
	r.state = stateBlocked
	r.w.schedule(r)
}

// execTime is how long SMPI's execution of d seconds of work by r lasts:
// smpi_execute_benched(d) runs d·speed flops on a host of that speed
// (Config.HostSpeed, under WakeSimGrid), which take flops/speed seconds.
// The flops are noted for r's next execution (lazyCPU's arithmetic).
func (r *Rank) execTime(d float64) float64 {
	w := r.w
	if !w.simgrid || !(w.cfg.HostSpeed > 0) {
		return d
	}
	f := d * w.cfg.HostSpeed
	w.cpu.acts[r.gid].flops = f
	return f / w.cfg.HostSpeed
}
