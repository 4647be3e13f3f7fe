package ranks

import "math"

// Dormant probes: a Probe loop whose polls cost a constant that sleeps
// between them without taking any turn of the scheduler.
//
// With the counters' growth off (Config.NoGrowth) every probe of a Probe
// loop costs IprobeCost (the counter stays 1), and a probe that finds
// nothing changes nothing any other rank or the engine can see: its
// counter stays put, its MPI_Iprobe is nested in the MPI_Probe (only
// counted), no listener hears its cost (no Stack listener) and its timer
// only wakes its own rank. So the probe ends of a rank polling for a
// message that has not been mailed to it are fixed in advance, t, t+d,
// (t+d)+d, …, each the float the clock computes (the rank's look at e
// starts a sleep ending at e+d), and each look fails until something is
// mailed to the rank. At 1,024 ranks most ranks poll at once and a few
// exchange messages: HPL at N = 2,000 (qa46's scenario) made 3.3·10⁸
// polls, 900 between two instants at which anything else happened. A
// dormant rank keeps only its next end (sched.dormant) and sits in no
// queue; it is woken when a send is mailed to it (postPrepared), its ends
// then followed up to the clock by adding d, as the polls would have.
//
// Why the outcome is the same, to the bit. Let e be the rank's first end
// at or after the clock T when a send is mailed to it:
//   - e > T: its probes up to e failed where it sees the send at e, as
//     before: its end e goes to the probe queue (the mailed bit keeps
//     chainProbe off it), and its look at e finds the send.
//   - e = T: its end fired at the first round of instant T, so it was
//     ready from T's start and, in rank order, ran before the first rank
//     of higher id to run at T, or when the ready ranks ran out at T
//     (sched.looked). If so its look at T failed and it sees the send at
//     e+d; if not, it is made ready now, as its end made it, and runs in
//     its place among the ranks still ready at T.
//
// The ranks that ran at an instant are those the scheduler popped (the
// ready queue notes its pops, byRankNoted, while a probe is dormant) and
// those that jumped the clock to it (Rank.sleep's fast path and its
// kind: World.mayJump ignores dormant probes, whose ends would only have
// stopped the jump at a failed look): sched.noteRun. A jump is the path a
// timer would take, to the same float (TestSleepFastPathIsInvisible); one
// too short for the clock to count stays at the instant, where the timer
// would have ended in a later round, after the probes ending then
// (World.noteJump).
//
// Where a dormant rank would be seen otherwise, every one is woken first
// (wakeDormants): when a rank parks as a poller (pollers are released at
// every instant the engine fires, a probe's end included), and when nothing
// but dormant probes is left (the loop would poll on). A dormant probe
// never sleeps past dormLimit, far below where a probe of cost d becomes
// free (the clock cannot count d past d·2⁵² s); and none is made where
// profiles play (the engine catches them up at each fired event).
//
// What changes: the engine fires fewer events (Engine.Fired counts none
// for a dormant probe's ends, and sleeps jump that a probe's end stopped),
// which no output shows.

// dormancy reports whether rank r's probe p, whose look failed and whose
// next one is at end, may sleep dormant: a Probe loop's probe (not
// Iprobe's once, not free, after a look), nested in MPI_Probe, at the
// constant cost, no listener of Stack, one World, no pollers, no profiles.
func (w *World) dormancy(r *Rank, p *probing, end float64) bool {
	return w.cfg.NoGrowth && p.looked && !p.once && !p.free && p.d == w.cfg.IprobeCost &&
		r.callDepth > 1 && !w.strictStack && len(w.worlds) == 1 && len(w.pollers) == 0 &&
		!w.noDormant && w.linkProf == nil && w.speeds == nil &&
		end < p.d*dormantSpan && w.mailed[r.gid>>6]&(1<<(r.gid&63)) == 0
}

// dormantSpan: a dormant probe of cost d sleeps only up to d·dormantSpan s
// (dormLimit), 4,096 times below where the clock's rounding makes it free.
const dormantSpan = 0x1p40

// sleepDormant makes r's probe, ending at end, dormant (r blocks as in a
// probe's sleep, its task at the next look).
func (w *World) sleepDormant(r *Rank, end float64) {
	if w.dormant == nil {
		w.dormant = make([]float64, len(w.ready.ranks))
	}
	if w.dormants == 0 {
		w.dormLimit = w.cfg.IprobeCost * dormantSpan
		w.setJumpLimit(w.dormLimit)
		w.ready.order, w.ready.noted = byRankNoted, w // pops are noted (noteRun)
	}
	w.dormant[r.gid] = end
	w.dormants++
	w.dormed++
}

// noteRun records that rank gid runs at the clock's instant (popped, or
// after a jump of the clock to it), for looked. Kept only while some probe
// is dormant: a probe made dormant at T ends after T.
//
//go:noinline
func (sc *sched) noteRun(now float64, gid int32) {
	if now != sc.instAt {
		sc.instAt, sc.instTop, sc.instOut = now, gid, false
	} else if gid > sc.instTop {
		sc.instTop = gid
	}
}

// noteOut records that the ready ranks ran out at instant now: a probe
// ending at now has run by then.
func (sc *sched) noteOut(now float64) {
	sc.instAt, sc.instOut = now, true
}

// looked reports whether a probe of rank gid ending at now, the clock, had
// run by now: a rank of higher id has run at now (the probe's rank, ready
// since now's first round, ran before it), or the ready ranks ran out.
func (sc *sched) looked(now float64, gid int32) bool {
	return sc.instAt == now && (sc.instOut || sc.instTop > gid)
}

// arrived notes that r jumped the clock (a sleep's fast path), and returns
// true, so that it ends the jump's condition (the jumps' call sites keep
// their lines: default.pgo keys its inlining on them). It inlines: nothing
// to do while no probe is dormant; noteJump does it.
func (w *World) arrived(r *Rank) bool {
	if w.dormants > 0 {
		w.noteJump(r.gid)
	}
	return true
}

// mailBit is rank to's bit in its word of World.mailed, for a send left in
// its mailbox; it wakes the rank's probe first if it is dormant (the probe
// then goes to the queue, where the mailed bit is read once set).
func (w *World) mailBit(to *Rank) uint64 {
	if w.dormants > 0 {
		w.wakeMailed(to)
	}
	return 1 << (to.gid & 63)
}

// wakeMailed wakes rank to's probe if it is dormant.
//
//go:noinline
func (w *World) wakeMailed(to *Rank) {
	if w.dormant[to.gid] != 0 {
		w.wakeDormant(to)
	}
}

// park parks r, a poller: pollers are let go at each instant the engine
// fires, a probe's end too, so every dormant probe is woken first.
func (w *World) park(r *Rank) {
	if w.dormants > 0 {
		w.wakeDormants()
	}
	w.pollers = append(w.pollers, r)
}

// sleptDormant makes r's probe p, ending at end, dormant if it may be
// (dormancy), and reports whether it did. Kept out of line (noinline), as
// are the notes and the wakes: the hot paths that call them (a probe's
// sleep, a pop, a jump, a send's post) keep their size, and so the
// inlining default.pgo gives them.
//
//go:noinline
func (w *World) sleptDormant(r *Rank, p *probing, end float64) bool {
	if !w.dormancy(r, p, end) {
		return false
	}
	w.sleepDormant(r, end)
	return true
}

// noteJump notes a jump of rank gid's: to a new instant, where it runs
// first; or to the same (a sleep too short for the clock to count), which
// its timer would have ended in a later round of the instant, after every
// rank ready at it, a dormant probe ending at it too. (A dormant probe
// ending at the instant was dormant when rank gid came to it, which noted
// it: instAt is the instant.)
//
//go:noinline
func (w *World) noteJump(gid int32) {
	now := w.eng.Now()
	if now == w.instAt {
		w.instOut = true
		return
	}
	w.noteRun(now, gid)
}

// wakeDormant ends the dormancy of rank r, with a send mailed to it now or
// another reason to be seen: its probes' ends are followed up to the clock,
// and its first end at or after it goes to the probe queue, or, if it is
// the clock and the probe had not run (looked), fires now as endProbes
// fires one.
func (w *World) wakeDormant(r *Rank) {
	end := w.dormant[r.gid]
	w.dormant[r.gid] = 0
	if w.dormants--; w.dormants == 0 {
		w.dormLimit = math.Inf(1)
		w.setJumpLimit(w.dormLimit)
		w.ready.order, w.ready.noted = byRank, nil
	}
	now := w.eng.Now()
	d := w.cfg.IprobeCost
	if w.lateStack {
		end = w.tellPolls(r.id, end, now)
	} else {
		end = firstEndFrom(end, d, now)
	}
	if end == now {
		if !w.looked(now, r.gid) {
			w.eng.FireOutside(now)
			r.rang = true
			w.wakeUp(r)
			return
		}
		if w.lateStack {
			w.tellPolls(r.id, end, math.Nextafter(end, math.Inf(1)))
		}
		end += d
	}
	w.probes.push(end, probeID(r.gid, true))
}

// tellDormant tells the LateStack listeners the failed polls that ended
// before now of the scratch event's rank, if its probe is dormant, ahead of
// the event (one World: the rank's id is its gid). Out of line: emit, which
// calls it, keeps its size.
//
//go:noinline
func (w *World) tellDormant() {
	id := w.scratch.Rank
	if w.dormants == 0 || uint(id) >= uint(len(w.dormant)) || w.dormant[id] == 0 || w.dormant[id] >= w.scratch.Time {
		return
	}
	ev, end := w.scratch, w.dormant[id]
	w.dormant[id] = 0 // the polls' own emits tell nothing
	w.dormant[id] = w.tellPolls(id, end, ev.Time)
	w.scratch = ev
}

// tellPolls tells the listeners of Stack, all LateStack, of the failed polls
// of dormant rank id at end, end+d, (end+d)+d, … before upTo, as the polls
// would have told them (Rank.tellStack), and returns the first end at or
// after upTo. One event a poll: no scheduler's turn, no engine's event.
func (w *World) tellPolls(id int, end, upTo float64) float64 {
	d := w.cfg.IprobeCost
	for ; end < upTo; end += d {
		if !w.over {
			ev := &w.scratch
			*ev = Event{}
			ev.Kind, ev.Time, ev.Rank, ev.Peer = Stack, end, id, noPeer
			ev.Kernel, ev.Seconds = "Iprobe", d
			w.emit()
		}
	}
	return end
}

// wakeDormantsBefore is the scheduler's, some probe being dormant, when
// no rank is ready (readyQueue.popNoted): the ready ranks ran out at this
// instant (noteOut), so a probe ending now has run; if the next event (the
// engine's or the probe queue's) is at or past dormLimit, or there is
// none, every dormant probe is woken (wakeDormants): each goes to the probe
// queue. (No poller is parked while a probe is dormant, and a dormant
// probe's rank is live: the scheduler's next test is the engine's.)
func (w *World) wakeDormantsBefore() {
	w.noteOut(w.eng.Now())
	t, ok := w.eng.Next()
	if !ok {
		t = math.Inf(1)
	}
	if len(w.probes.h) > 0 {
		t = min(t, w.probes.h[0].at())
	}
	if t >= w.dormLimit {
		w.wakeDormants()
	}
}

// wakeDormants wakes every dormant probe (wakeDormant), in rank order.
func (w *World) wakeDormants() {
	for gid, end := range w.dormant {
		if end != 0 {
			w.wakeDormant(w.ready.ranks[gid])
		}
	}
}

// firstEndFrom returns the first of a dormant probe's ends end, end+d,
// (end+d)+d, … (each failed look at e starts the sleep to e+d, the clock's
// float addition) at or after now; d > 0.
//
// Why not the loop of additions alone: a rank dormant for 1 ms of 0.2 µs
// polls has 5,000 ends to follow, and the loop took 8% of Dahu's CPU at
// N = 10,000 without the growth. Within a binade [2ᵉ, 2ᵉ⁺¹) of ulp u every
// end is a multiple of u, so e+d rounds to e + δ, δ = d rounded to a multiple
// of u (RoundToEven(d/u)·u), the same for every e — unless d/u ends in
// exactly one half, a tie, which rounds to even: the step from an odd
// multiple of u is not the step from an even one — as long as e + δ < 2ᵉ⁺¹
// (if e + d reached 2ᵉ⁺¹ it would round to 2ᵉ⁺¹ or above, and so would
// e + δ). So the ends in the binade are integers m + k·s times u (m = e/u,
// s = δ/u), and the first at or after now is found by a division; the step
// out of the binade, and every step where d/u ends in one half, is the
// plain addition. TestFirstEndFromMatchesAdditions checks it against the
// loop.
func firstEndFrom(end, d, now float64) float64 {
	for end < now {
		frac, exp := math.Frexp(end) // end = frac·2^exp, frac in [0.5, 1)
		u := math.Ldexp(1, exp-53)   // end's ulp, and of every float up to 2^exp
		q := d / u                   // exact: a power of two
		s := math.RoundToEven(q)
		if q-math.Floor(q) == 0.5 || s < 1 || s >= 1<<52 {
			end += d // a tie; a step of no ulp, or of half the binade or more
			continue
		}
		m, st := int64(frac*(1<<53)), int64(s) // end = m·u, δ = st·u
		last := (1<<53 - 1 - m) / st           // steps whose end stays below 2^exp
		if now < math.Ldexp(1, exp) {          // now = n·u, in the binade
			n := int64(now / u)
			if k := (n - m + st - 1) / st; k <= last {
				return float64(m+k*st) * u
			}
		}
		end = float64(m+last*st)*u + d // the binade's last end, then the step out
	}
	return end
}
