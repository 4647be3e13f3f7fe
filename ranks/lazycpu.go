package ranks

import "github.com/emu-hpc/emu/emu"

// The tie order of SimGrid's lazy CPU update (Config.WakeOrder WakeSimGrid).
//
// SMPI runs each rank's injected times on its host's CPU: a kernel
// (smpi_execute_benched) and an Iprobe's cost (exec_init) as executions,
// the os, or, ois and Test costs as sleeps (sleep_for). Under SimGrid's
// default cpu/optim:Lazy (Model::next_occurring_event_lazy) they wait in
// one heap of end dates, a boost pairing heap made stable: of two actions
// due at the same date, the one whose entry was written first pops first,
// so its actor wakes first. An entry is written at the solve that follows
// each round of the actors at one instant, for every action in the lmm
// system's modified set, in that set's order:
//   - the sleeps started in the round, newest first (CpuCas01::sleep puts
//     each at the front of the set);
//   - then, for each host CPU the round modified (an execution or a sleep
//     started on it, an execution ended on it; a sleep's end does not),
//     in the order the round first modified them, every execution running
//     on it, newest first (System::solve walks the constraint's
//     enabled_element_set_, to whose front expand_create_elem puts each
//     new one). An end that leaves a host with no action at all takes it
//     out of the round's list (var_free, make_constraint_inactive): the
//     next start there puts it last.
//
// A blocking wait on a communication still pending modifies its host too:
// SimGrid's wait starts a sleep with no end there (lazyCPU.wait).
//
// So an execution's entry is rewritten each time its host is modified,
// and a sleep's only once. emu keeps the timers' own order between
// different dates; lazyCPU reorders the ranks its timers woke at one date
// by those entries (reorderTimerWakes). Under cpu/optim:Full SimGrid walks
// its actions in the order they started instead, the engine's own order.
//
// Each rewrite also recomputes the execution's date (Model::
// next_occurring_event_lazy, CpuAction::update_remains_lazy): its
// remaining flops lose rate × (now − last update), or become 0 below
// maxmin/precision × surf/precision, and the date is now + remains /
// rate, which moves it by its last bits. With the hosts' speed known
// (Config.HostSpeed), lazyCPU keeps each execution's flops and last update,
// redoes that arithmetic at each rewrite, and moves the rank's timer to the
// new date (a revocable timer), so that near-ties fall as in SimGrid.
// The rate is the host's speed: one core an execution, never shared.
type lazyCPU struct {
	round   uint64      // the current round: the instant the ranks run at
	roundAt float64     // its time, s (−1 before the first)
	seq     uint64      // CPU actions started so far
	mods    uint64      // hosts modified so far, over all rounds
	hosts   []hostCPU   // by host index
	acts    []cpuAction // by Rank.gid: the CPU action each rank started last
	// jumped is the rank whose action may have ended without a timer (the
	// clock jumped to its end, Engine.Skip): it ended in a round of its own,
	// or first in the round of its end.
	jumped *Rank

	// Lazy's arithmetic (speed > 0): the engine whose timers it moves and
	// the hosts' speed (flop/s); hostCPU.execs holds the executions.
	eng   *emu.Engine
	speed float64
}

// lazyRemainsPrecision is maxmin/precision × surf/precision as smpirun
// sets them (1e-5 × 1e-9): remaining flops below it are none.
const lazyRemainsPrecision = 1e-5 * SimGridPrecision

// hostCPU is what lazyCPU keeps of a host's CPU: the round that last
// modified it and the place of that modification (a value of mods) in its
// round, the actions started on it and not ended and, under Lazy's
// arithmetic, the ranks whose execution runs there. (One slice of them,
// not several, so that modify and end inline and an execution's start
// and retirement find its host's list: one bounds check.)
type hostCPU struct {
	round, order uint64
	live         int32
	execs        []*Rank
}

// cpuAction is the CPU action a rank started last: what lazyCPU needs to
// place its heap entry.
type cpuAction struct {
	at    float64 // its end, s, as the rank's timer has it
	seq   uint64  // lazyCPU.seq when it started
	round uint64  // the round it started in
	exec  bool    // an execution (else a sleep)
	armed bool    // started, not yet seen to end
	fired bool    // its timer fired at the instant being reordered

	// Lazy's arithmetic (lazyCPU.speed > 0), for an execution: flops is
	// what the rank's next execution will run (execTime), remains and
	// last its remaining flops and their date, slot its place in its
	// host's hostCPU.execs, timer its timer (nil: none, the clock jumped).
	flops, remains, last float64
	slot                 int32
	timer                *emu.Revocable
}

// isExec reports whether SMPI runs the injected time of call (Rank.sleep's
// names) as an execution rather than a sleep.
func isExec(call string) bool { return call == "Compute" || call == "Iprobe" }

// startCPU records that r starts a CPU action of d > 0 seconds (an
// execution if exec) under WakeSimGrid, after its owed turns, and returns
// r's World. It inlines: in rank order it is a load and a test.
func (r *Rank) startCPU(d float64, exec bool) *World {
	w := r.w
	if w.simgrid {
		w.cpu.start(w, r, d, exec)
	}
	return w
}

// payStart is payOwed, then startCPU for Rank.sleep's d and call.
func (r *Rank) payStart(d float64, call string) {
	r.payOwed()
	r.startCPU(d, isExec(call))
}

//go:noinline
func (c *lazyCPU) start(w *World, r *Rank, d float64, exec bool) {
	now := w.eng.Now()
	c.newRound(now)
	c.seq++
	a := &c.acts[r.gid]
	a.at, a.seq, a.round, a.exec, a.armed, a.fired = now+d, c.seq, c.round, exec, true, false
	h := r.host
	hc := &c.hosts[h]
	if c.modify(hc) {
		c.rewrite(h)
	}
	hc.live++
	c.jumped = r
	if exec && c.speed > 0 {
		a.remains, a.last = a.flops, now
		a.slot = int32(len(hc.execs))
		hc.execs = append(hc.execs, r)
	}
}

// timer sets r's timer for the CPU action it started (start), d from
// now: a revocable one for an execution whose date Lazy's arithmetic
// may move.
func (c *lazyCPU) timer(w *World, r *Rank, d float64) {
	a := &c.acts[r.gid]
	if !a.exec || !(c.speed > 0) {
		w.eng.AfterHandler(d, rankTimer{r})
		return
	}
	if a.timer == nil {
		a.timer = &emu.Revocable{H: rankTimer{r}}
	}
	w.eng.AfterHandler(d, a.timer)
}

// retire forgets r's execution, over: its host's list loses it, and its
// timer (fired, or none) may serve the next.
func (c *lazyCPU) retire(r *Rank) {
	a := &c.acts[r.gid]
	if !a.exec || !(c.speed > 0) {
		return
	}
	hc := &c.hosts[r.host]
	es := hc.execs
	last := es[len(es)-1]
	es[a.slot] = last
	c.acts[last.gid].slot = a.slot
	hc.execs = es[:len(es)-1]
}

// rewrite redoes Lazy's arithmetic for every execution running on host h
// at the round's date, and moves the timers of those whose date moved.
//
//go:noinline
func (c *lazyCPU) rewrite(h int32) {
	now, rate := c.roundAt, c.speed
	for _, r := range c.hosts[h].execs {
		a := &c.acts[r.gid]
		if a.remains > 0 {
			a.remains -= rate * (now - a.last)
			if a.remains < lazyRemainsPrecision {
				a.remains = 0
			}
		}
		a.last = now
		at := now
		if a.remains > 0 {
			at = now + a.remains/rate
		}
		if at == a.at {
			continue
		}
		a.at = at
		if a.timer != nil {
			c.eng.Revoke(a.timer)
			a.timer = &emu.Revocable{H: rankTimer{r}}
			c.eng.AtHandler(max(at, c.eng.Now()), a.timer)
		}
	}
}

// newRound starts the round at time now, unless it is the current one.
// An action that ended by a jump before now ended in a round of its own;
// one that ended at now, first in now's round.
func (c *lazyCPU) newRound(now float64) {
	if now != c.roundAt {
		c.openRound(now)
	}
}

// openRound is newRound's work when now starts a round.
//
//go:noinline
func (c *lazyCPU) openRound(now float64) {
	if j := c.jumped; j != nil {
		c.jumped = nil
		if a := &c.acts[j.gid]; a.armed && a.at <= now {
			a.armed = false
			c.retire(j)
			c.round++
			c.roundAt = a.at
			c.end(j.host, a.exec)
			if a.at == now {
				return
			}
		}
	}
	c.round++
	c.roundAt = now
}

// modify notes that the current round modifies the CPU of host h, whose
// state is hc, and reports whether the executions running there need
// Lazy's arithmetic redone (rewrite(h)). It inlines, so that start, end
// and wait test a host's round without a call.
func (c *lazyCPU) modify(hc *hostCPU) bool {
	if hc.round == c.round {
		return false
	}
	hc.round = c.round
	c.mods++
	hc.order = c.mods
	return len(hc.execs) > 0
}

// size makes room for the actions of ranks ranks (by Rank.gid) on hosts
// hosts, so that the calls of every action need no check: a World's ranks
// are all known when it is built (several Worlds share one scheduler).
func (c *lazyCPU) size(hosts, ranks int) {
	if c.round == 0 {
		c.roundAt = -1 // no round yet, not one at time 0
	}
	if n := hosts - len(c.hosts); n > 0 {
		c.hosts = append(c.hosts, make([]hostCPU, n)...)
	}
	if n := ranks - len(c.acts); n > 0 {
		c.acts = append(c.acts, make([]cpuAction, n)...)
	}
}

// end notes that an action on host h ended in the current round: an
// execution's end modifies the host; then a host left with no action
// leaves the round's list (round 0: no place).
func (c *lazyCPU) end(h int32, exec bool) {
	hc := &c.hosts[h]
	if exec && c.modify(hc) {
		c.rewrite(h)
	}
	if hc.live--; hc.live == 0 && hc.round == c.round {
		hc.round = 0
	}
}

// wait notes that q's owner blocks on q, a communication still pending,
// under WakeSimGrid: SimGrid's wait (ActivityImpl::wait_for) starts a
// sleep with no end on the owner's host to hear of its failures, which
// modifies the host (and rewrites its executions) and stays on it, with
// no heap entry, until the communication completes (done).
//
//go:noinline
func (c *lazyCPU) wait(w *World, q *Request) {
	if !q.sleeping() { // (a rank holds one such sleep at most: it waits on q until q completes)
		q.waitSeq |= 1
		c.newRound(w.eng.Now())
		h := q.owner.host
		hc := &c.hosts[h]
		hc.live++
		if c.modify(hc) {
			c.rewrite(h)
		}
	}
}

// done notes that q, whose owner waits on it (wait: q.sleeping()), completed:
// the wait's sleep leaves the owner's host (CommImpl::cleanup_surf)
// without modifying it, and a host left with no action leaves the round's
// list.
//
//go:noinline
func (c *lazyCPU) done(w *World, q *Request) {
	q.waitSeq &^= 1
	c.newRound(w.eng.Now())
	hc := &c.hosts[q.owner.host]
	if hc.live--; hc.live == 0 && hc.round == c.round {
		hc.round = 0
	}
}

// before reports whether a's heap entry was written before b's (both CPU
// actions, due at the same date).
func (c *lazyCPU) before(a, b *Rank) bool {
	ka, kb := c.entry(a), c.entry(b)
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}

// entry orders r's action's heap entry: the round of the solve that wrote
// it last, sleeps before executions, then the host's place in the round,
// then newest first.
func (c *lazyCPU) entry(r *Rank) [4]uint64 {
	a := &c.acts[r.gid]
	if a.exec {
		hc := &c.hosts[r.host]
		return [4]uint64{hc.round, 1, hc.order, -a.seq}
	}
	return [4]uint64{a.round, 0, 0, -a.seq}
}

// reorderTimerWakes puts the ranks that the instant's timers woke, the
// ready queue's ids from index from on (in the engine's order: by date,
// then as they were set), in SimGrid's order: between ranks whose actions
// end at the same date, by their heap entries (lazyCPU). Then the ended
// executions modify their hosts, in that order, in the instant's round.
// At least one rank was woken (from != the queue's tail: the caller tests).
//
//go:noinline
func (w *World) reorderTimerWakes(from uint) {
	c, q := &w.cpu, &w.ready
	mask := uint(len(q.ids) - 1)
	at := func(i uint) *Rank { return q.ranks[q.ids[i&mask]] }
	act := func(r *Rank) *cpuAction { return &c.acts[r.gid] }
	if from+1 == q.tail { // one rank woken, most instants: nothing to sort
		r := at(from)
		a := act(r)
		armed := a.armed
		a.armed = false
		if armed {
			c.retire(r)
		}
		c.newRound(w.eng.Now())
		if armed {
			c.end(r.host, a.exec)
		}
		return
	}
	for i := from; i != q.tail; i++ { // a shared execution's (execDone) is not one of them
		r := at(i)
		a := act(r)
		if a.fired, a.armed = a.armed, false; a.fired {
			c.retire(r)
		}
	}
	c.newRound(w.eng.Now())
	// An insertion sort of each run of equal dates: runs are short.
	for i := from; i != q.tail; i++ {
		r := at(i)
		ra := act(r)
		for j := i; j != from; j-- {
			p := at(j - 1)
			if pa := act(p); !ra.fired || !pa.fired || pa.at != ra.at || !c.before(r, p) {
				break
			}
			q.ids[j&mask], q.ids[(j-1)&mask] = q.ids[(j-1)&mask], q.ids[j&mask]
		}
	}
	for i := from; i != q.tail; i++ {
		if r := at(i); act(r).fired {
			act(r).fired = false
			c.end(r.host, act(r).exec)
		}
	}
}
