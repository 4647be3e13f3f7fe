package ranks

import "math"

// probeQueue holds, in rank order (WakeRank), the ends of the probes' sleeps
// (an Iprobe's cost: Comm.Probe's loops and Comm.Iprobe) outside the engine,
// as a min-heap of (end, gid). Most of a Dahu run's events are these ends
// (3.5 M of 12.4 M at N = 10,000), and most of those fire alone at their
// instant (a probing rank that fails, grows the counter and sleeps again)
// while a thousand other timers wait in the engine's queue. Here a probe's
// end costs a sift in a heap of the ranks probing at that moment, and the
// scheduler reads the two fronts (World.schedule).
//
// Why the order of events stays the same: in rank order the ranks woken at
// one instant run lowest rank first whatever order their wake-ups fired in,
// and a probe's end only wakes its rank (rankTimer's Handle: it starts no
// flow and reads nothing another event writes). So its wake-up may fire
// before, among or after the engine's events due at the same instant, and
// the scheduler fires it before them. Every other rule of a timer holds: it
// is an event (Engine.FireOutside counts it), and a rank that would jump the
// clock past it (Rank.sleep, settle and their task forms, World.mayJump)
// sets a timer instead, as it would with the probe's timer in the engine.
type probeQueue struct {
	h []probeEnd
}

type probeEnd struct {
	// at's bits: the ends are positive (a probe costs d > 0 from a clock
	// at ≥ 0), so they order as their bits do, and an integer comparison
	// picks the lesser child without a branch (replaceFirst).
	key uint64
	// id is the rank's gid shifted left once, its low bit chain: the probe
	// is one of Comm.Probe's loop that failed may run without its rank
	// (World.chainProbe) when nothing was mailed to the rank since
	// (World.mailed). One word: a sift moves an end in two loads and two
	// stores, not three of each.
	id uint32
}

// gid is the probing rank's Rank.gid.
func (e probeEnd) gid() int32 { return int32(e.id >> 1) }

// chain says whether World.chainProbe may run the probe without its rank.
func (e probeEnd) chain() bool { return e.id&1 != 0 }

// after reports whether no probe ends at or before t.
func (q *probeQueue) after(t float64) bool { return len(q.h) == 0 || q.h[0].at() > t }

// at is when the probe ends, s.
func (e probeEnd) at() float64 { return math.Float64frombits(e.key) }

// push adds the probe ending at at of the rank and chain bit that id
// packs (probeID). It returns true, for probeSleep's expression.
func (q *probeQueue) push(at float64, id uint32) bool {
	q.h = append(q.h, probeEnd{})
	q.climb(len(q.h)-1, probeEnd{math.Float64bits(at), id})
	return true
}

// probeID is probeEnd.id for rank gid's probe, chained or not.
func probeID(gid int32, chain bool) uint32 {
	id := uint32(gid) << 1
	if chain {
		id++
	}
	return id
}

// climb puts e in the hole at i and moves it up past the ends that are later.
func (q *probeQueue) climb(i int, e probeEnd) {
	h := q.h
	for i > 0 {
		p := (i - 1) / 2
		if e.key >= h[p].key {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// pop removes the probe that ends first (any of those ending at once) and
// returns it.
func (q *probeQueue) pop() probeEnd {
	first := q.h[0]
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if n > 0 {
		q.replaceFirst(last)
	}
	return first
}

// second reports when the probe that ends after the first (or at once with
// it) ends: +Inf for none. The heap's second least is a child of its root.
func (q *probeQueue) second() float64 {
	h := q.h
	switch len(h) {
	case 0, 1:
		return math.Inf(1)
	case 2:
		return h[1].at()
	}
	return math.Float64frombits(min(h[1].key, h[2].key))
}

// replaceFirst puts e in the place of the probe that ends first and
// restores the heap: the hole goes down to a leaf along the lesser
// children, and e climbs back from there (a probe's next end is mostly
// late among the others: Floyd's order makes one comparison a level where
// a sift down makes two).
func (q *probeQueue) replaceFirst(e probeEnd) {
	h := q.h
	n := uint(len(h))
	hole := &h[0]
	c := uint(1) // the hole's first child
	for c+1 < n {
		// Both children exist: their pair is read through one check, and
		// the hole, the root or a child already passed, is held by its
		// address.
		kids := h[c : c+2 : c+2]
		d := uint(0)
		if kids[1].key < kids[0].key { // a SETcc, not a branch
			d = 1
		}
		*hole = kids[d]
		hole = &kids[d]
		c = 2*(c+d) + 1
	}
	i := (c - 1) / 2 // the hole
	if c < n {
		*hole = h[c]
		i = c
	}
	q.climb(int(i), e)
}

// endProbes fires every probe ending at at, the queue's front: each is an
// event of the engine's (FireOutside: the clock moves to at) that makes its
// rank ready, as rankTimer's Handle does.
func (w *World) endProbes(at float64) {
	for len(w.probes.h) > 0 && w.probes.h[0].at() == at {
		r := w.ready.ranks[w.probes.pop().gid()]
		w.eng.FireOutside(at)
		r.rang = true
		w.wakeUp(r)
	}
}

// probeSleep is Rank.taskSleep for a probe's cost: in rank order its timer
// waits in the World's probe queue (probeQueue), not in the engine's, or,
// a Probe loop's without the counters' growth, sleeps dormant (dormant.go:
// sleptDormant, in the push's expression; the jump notes itself in its
// condition, arrived: default.pgo keys its inlining on the lines of the
// calls within a function, which therefore stay where they were).
func (r *Rank) probeSleep(d float64) bool {
	w := r.w
	if !w.probesAside {
		return r.taskSleep(d, true)
	}
	if !(d > 0) {
		return false
	}
	end := w.eng.Now() + d // as Skip and AfterHandler compute it
	if w.mayJump(end) && w.eng.Skip(d) && w.arrived(r) {
		return false
	}
	r.rang = false
	p := &w.tasksOf(r).p
	_ = w.cfg.NoGrowth && w.sleptDormant(r, p, end) || w.probes.push(end, probeID(r.gid, p.looked && !p.once && !p.free && p.n == &w.iprobeN &&
		r.callDepth > 1 && !w.hears(Stack) && len(w.worlds) == 1))
	return true
}

// chainProbe runs the probe of a Comm.Probe loop that ends at at, first and
// alone (no other probe ends then, nothing in the engine's queue is due at
// or before at, no rank is ready and no poller is parked), when nothing was
// mailed to its rank since its last look (World.mailed): the look fails as
// the last one did, so the probe ends and the next starts as probing.step
// makes them, without its rank. From the failed look (pLook, with the task
// left there) to the next probe's sleep (pSleep) that is
//
//	failedPoll(n); mpiExit; mpiEnter              (counters: callDepth > 1)
//	n, d = counter, n·cost; taskStack(d)           (no listener of Stack)
//	probeSleep(d)                                  (a jump: the next look at once)
//
// with the simulation-wide counter of the rank's only World, in rank order
// (no simcall is owed, execTime is d). A probe that would cost nothing the
// clock can count (free) goes back to its rank, ready to sleep it. It
// reports whether it ran the probe; false leaves the queue as it was.
func (w *World) chainProbe(at float64) bool {
	e := w.probes.h[0]
	if !e.chain() || w.mailed[e.gid()>>6]&(1<<(e.gid()&63)) != 0 || len(w.pollers) > 0 {
		return false
	}
	second := w.probes.second()
	if !(second > at) { // another probe ends at at: they run in rank order
		return false
	}
	cost := w.cfg.IprobeCost
	w.chained++
	w.eng.FireOutside(at)
	for {
		w.failedPoll(&w.iprobeN)
		d := float64(w.iprobeN) * cost
		end := at + d
		if end == at { // free: its rank sleeps it (pSleep), at once
			w.probes.pop()
			r := w.ready.ranks[e.gid()]
			p := &w.tasksOf(r).p
			p.phase, p.d, p.free = pSleep, d, true
			r.rang = true
			w.wakeUp(r)
			return true
		}
		if w.noSkip || !(second > end) || !w.eng.Skip(d) {
			e.key = math.Float64bits(end)
			w.probes.replaceFirst(e)
			return true
		}
		at = end // the clock jumped: the next look, at once
	}
}
