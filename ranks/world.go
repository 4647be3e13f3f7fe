package ranks

import (
	"fmt"
	"iter"
	"math"
	"runtime"
	"runtime/debug"

	"github.com/emu-hpc/emu/emu"
	"github.com/emu-hpc/emu/fluid"
)

// World is one simulated MPI job: its ranks, their placement on the hosts of
// a topology, and the engine that runs them. A World runs once.
type World struct {
	cfg       Config
	topo      fluid.Topology
	links     []fluid.Link
	place     []int // rank → host
	seed      uint64
	eng       *emu.Engine
	ranks     []*Rank
	listeners []Listener
	heard     KindSet // the union of the listeners' kinds
	// callEnds: the end of an outermost MPI call does something
	// (Config.ProbeAfterProgress, or a listener hears CallEnd): mpiExit
	// reads one bool.
	callEnds bool
	// strictStack: a listener hears Stack as it happens (not LateStack);
	// lateStack: Stack is heard, by LateStack listeners only.
	strictStack, lateStack bool
	routes                 map[uint64]*path // (src host, dst host) → cached route facts
	// pairs caches routes by (src host·hosts + dst host) on a topology of
	// at most pairHosts hosts (nil on a larger one), in place of the
	// ranks' caches (Rank.pathTo).
	pairs []routeEntry
	hosts int
	// latProfiled[l]: link l has a latency profile (profile.go); nil if
	// none has.
	latProfiled []bool
	varying     bool                          // links have profiles: a transfer looks its route up when it starts
	inflight    map[fluid.FlowID]*flowLatency // flows a latency change moved
	userBounds  map[*path]float64             // routes' least bandwidths, under latency profiles
	flowIDs     []fluid.FlowID                // scratch

	// sched is the baton's state, shared by the Worlds of one Machine (its
	// fields are promoted: w.ready is w.sched.ready).
	*sched
	machine *Machine      // nil for a World of its own (NewWorld)
	main    func(r *Rank) // what Run was given
	start   float64       // the ranks' mains begin at this time, s (Machine.NewWorld)
	left    int           // this World's ranks whose main has not returned
	end     float64       // when the last of them returned, s
	ran     bool

	msgSeq   uint64 // last MsgID handed out
	recvSeq  uint64 // last RecvID handed out
	freeReqs []*Request
	// truncations holds the error of each bounded receive that got a
	// longer message, until the call that completes it raises it
	// (Comm.RecvUpTo): the request has no room for it, and it is rare.
	truncations map[*Request]*TruncateError
	// freeData[c] holds payload arrays of capacity ≥ 2^c that a task's
	// Exchanger has consumed (exchanges.step), for post's copies of the
	// next payloads: HPL's pivot searches and row swaps send one a step.
	freeData                 [payloadClasses][][]float64
	commSeq                  int32 // last communicator id handed out
	splits                   map[splitKey]*splitRound
	programs                 map[splitKey]*programRound // Uncontended rounds not yet complete
	freePrograms             []*programRound
	iprobeN, testN, testanyN int // SimGrid's simulation-wide poll counters

	scratch Event

	// WakeSimGrid (the same for every World of a Machine). waitSeq numbers
	// the blocking waits, in steps of 2 (Request.waitSeq's low bit is a flag).
	simgrid bool
	waitSeq uint64
	noSkip  bool // tests: always take the timer path in Rank.sleep
	// jumpLimit: a jump of the clock (mayJump) ends below it: +Inf,
	// dormLimit while a probe is dormant, −Inf with noSkip (setJumpLimit).
	jumpLimit float64
	// sleepInline: tests: Rank.sleep gives up owed turns on the coroutine
	// (payOwed), never as a task (sleeping).
	sleepInline bool
	tasks       []rankTasks // per rank: the tasks it runs (tasksOf)
	// mergeAsked: the application's ranks meet only through the World
	// (MergeKernelSleeps).
	mergeAsked bool
	// lazy: a rank's kernel sleeps (Compute) are merged until it next
	// does something another rank or the engine could see (canMerge).
	lazy bool

	// The run's error: set by the coroutine holding the baton, read by Run
	// after the driver closed its done channel (which orders the accesses).
	err error

	// memo: the last lookup of each table a message reads (tableMemo).
	memo struct{ os, ois, or, lat, bw tableMemo }
}

// sched is what decides which rank holds the baton: one per engine, so the
// Worlds of a Machine share it and their ranks take turns as one job's do.
type sched struct {
	ready   readyQueue // ranks ready to run: lowest rank first, or FIFO (Config.WakeOrder)
	live    int        // ranks whose main has not returned
	running *Rank      // the rank holding the baton
	next    *Rank      // the rank the driver resumes next
	// advancing is 1 + the gid of the rank whose task the holder of the
	// baton is advancing (task.go), 0 otherwise: an integer, not a
	// *Rank, so that setting it twice a task step costs no write barrier.
	advancing int32
	worlds    []*World // the Worlds that run (for a Machine, those whose Run was called)

	// End of the run: set by the coroutine holding the baton, read after
	// the driver closed its done channel (which orders the accesses).
	over    bool
	aborted bool

	// Ranks spinning on free polls (see Rank.spin), parked until every
	// other rank is blocked; releasedAt is when they were last let go.
	pollers    []*Rank
	releasedAt float64
	released   bool

	// WakeSimGrid: firing is set while the engine fires an
	// instant's events; ranks woken by a message wait in netWakes until the
	// timers' ranks are queued.
	firing   bool
	netWakes []*Rank
	cpu      lazyCPU

	// spec is a message's flow while the engine starts it (flowSpec).
	spec fluid.FlowSpec

	// probes: the ends of the probes' sleeps, kept out of the engine
	// (probeQueue), in rank order: probesAside (tests may turn it off,
	// before Run, to set those timers in the engine as other sleeps).
	probes      probeQueue
	probesAside bool
	// mailed[gid]: a send was left in the rank's mailbox since its last
	// look (probing's pLook): a bitmap by gid, in rank order.
	mailed  []uint64
	chained uint64 // probes chainProbe ran (tests)
	// dormant[gid]: the next end of the rank's dormant probe (dormant.go),
	// 0 for none; dormants of them; dormLimit: the clock none may pass
	// (+Inf while none is dormant). dormed counts those made (tests);
	// noDormant: tests: make none.
	dormant   []float64
	dormants  int
	dormLimit float64
	dormed    uint64
	noDormant bool
	// While some probe is dormant: the instant instAt (s), the highest gid
	// that ran at it and whether its ready ranks ran out (sched.looked).
	instAt  float64
	instTop int32
	instOut bool

	// The hosts' processors (SetCPUs; nil: every rank computes on a core
	// of its own) and, per host, its link in the engine's CPU system, −1
	// where the ranks do not outnumber its cores (cpuLink nil: none does).
	cpus    []CPU
	cpuLink []fluid.LinkID
	// cpuScale[h] is host h's speed profile's value now (profile.go); nil
	// when no host has a speed profile. execIDs is scratch.
	cpuScale []float64
	execIDs  []fluid.FlowID
	speeds   []*fluid.Profile // per host, its speed profile (SetSpeedProfiles); nil if none has one
	linkProf *linkProfiles    // the links' profiles (SetLinkProfiles), played by drive; nil if none
}

// NewWorld builds a job of len(placement) ranks, rank i running on host
// placement[i] of topo. seed derives every rank's random stream. The World
// has an engine and a fluid system of its own; Machine.NewWorld builds Worlds
// that share them.
func NewWorld(cfg Config, topo fluid.Topology, placement []int, seed uint64) (*World, error) {
	eng, sc, err := newEngine(cfg, topo)
	if err != nil {
		return nil, err
	}
	return newWorld(cfg, topo, placement, seed, eng, sc)
}

// newEngine checks cfg and topo and returns an engine over a fluid system of
// topo's links, and a scheduler, as cfg's wake order wants them.
func newEngine(cfg Config, topo fluid.Topology) (*emu.Engine, *sched, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	if topo == nil {
		return nil, nil, fmt.Errorf("ranks: no topology")
	}
	simgrid := cfg.WakeOrder == WakeSimGrid
	eng := emu.NewEngineOptions(fluid.NewSystemOptions(topo.Links(), cfg.fluidOptions()),
		emu.Options{SimGrid: simgrid, Precision: SimGridPrecision})
	rankOrder := cfg.WakeOrder == WakeRank
	return eng, &sched{ready: readyQueue{order: readyOrderOf(rankOrder)}, probesAside: rankOrder, dormLimit: math.Inf(1)}, nil
}

// newWorld builds a World on an engine and a scheduler, its ranks taking
// the scheduler's next global ids.
func newWorld(cfg Config, topo fluid.Topology, placement []int, seed uint64, eng *emu.Engine, sc *sched) (*World, error) {
	if len(placement) == 0 {
		return nil, fmt.Errorf("ranks: no rank to run (empty placement)")
	}
	hosts := topo.Hosts()
	for i, h := range placement {
		if h < 0 || h >= hosts {
			return nil, fmt.Errorf("ranks: rank %d placed on host %d, topology has %d hosts", i, h, hosts)
		}
	}
	w := &World{
		cfg:      cfg,
		topo:     topo,
		links:    topo.Links(),
		place:    append([]int(nil), placement...),
		seed:     seed,
		eng:      eng,
		sched:    sc,
		routes:   make(map[uint64]*path),
		simgrid:  cfg.WakeOrder == WakeSimGrid,
		callEnds: cfg.ProbeAfterProgress,
		splits:   make(map[splitKey]*splitRound),
		programs: make(map[splitKey]*programRound),
		iprobeN:  1, testN: 1, testanyN: 1,
	}
	if hosts <= pairHosts {
		w.pairs, w.hosts = make([]routeEntry, hosts*hosts), hosts
	}
	for _, t := range []*Table{&w.cfg.SendOverhead, &w.cfg.IsendOverhead, &w.cfg.RecvOverhead} {
		*t = t.overheadForm() // read as SimGrid reads them (Table.Cost)
	}
	world := &commCtx{id: 0, size: int32(len(placement))}
	w.ranks = make([]*Rank, len(placement))
	for i := range w.ranks {
		r := &Rank{w: w, id: i, gid: int32(len(sc.ready.ranks)), host: int32(placement[i]), iprobeN: 1, testN: 1, testanyN: 1}
		r.world = Comm{r: r, ctx: world, rank: i}
		w.ranks[i] = r
		sc.ready.ranks = append(sc.ready.ranks, r)
	}
	sc.cpu.size(hosts, len(sc.ready.ranks))
	if w.simgrid && cfg.HostSpeed > 0 {
		sc.cpu.eng, sc.cpu.speed = eng, cfg.HostSpeed
	}
	return w, nil
}

// Now returns the current simulated time, s.
func (w *World) Now() float64 { return w.eng.Now() }

// Size returns the number of ranks.
func (w *World) Size() int { return len(w.ranks) }

// Engine exposes the simulation kernel (for statistics such as Fired).
func (w *World) Engine() *emu.Engine { return w.eng }

// End returns when the World's last rank returned from its main, s (0
// before Run). For a World of its own it is the run's time; for a World of
// a Machine, its job's end among the others'.
func (w *World) End() float64 { return w.end }

// Run starts one goroutine per rank, each calling main, and returns when all
// have returned (nil), when one panicked (*PanicError naming the rank), or
// when every remaining rank is blocked with nothing pending
// (*DeadlockError). Exactly one rank runs at a time; all goroutines have
// exited when Run returns. A World of a Machine runs when every World of
// the Machine has been given its main (see Machine.Run).
//
// How the baton passes: each rank is a coroutine (iter.Pull) resumed by one
// driver goroutine. A rank that must wait runs the scheduler itself; if
// another rank is next it names it in w.next and yields to the driver,
// which resumes that rank. A coroutine switch is a direct hand-over of the
// thread (runtime.coroswitch): no run queue, no wake-up of another
// processor, no futex — about 30 ns, where a channel hand-off costs 130 ns
// idle and several times that on a loaded machine with GOMAXPROCS > 1.
func (w *World) Run(main func(r *Rank)) error {
	if w.ran {
		return fmt.Errorf("ranks: World.Run called twice")
	}
	w.ran = true
	w.main = main
	if w.machine != nil {
		return w.machine.join(w)
	}
	w.worlds = []*World{w}
	done := make(chan struct{})
	// The driver has a goroutine of its own: a rank leaving through
	// runtime.Goexit propagates it to whoever resumed it (iter.Pull's rule),
	// and that must not be Run's caller.
	go w.sched.drive(done)
	<-done
	return w.err
}

// drive creates the rank coroutines of every World that runs and resumes,
// one at a time, the rank the last one named, until the run is over; then
// it ends the coroutines still suspended. The first rank of the first
// World starts; the others are ready.
func (sc *sched) drive(done chan struct{}) {
	defer close(done)
	defer sc.cleanup()
	var first *Rank
	for _, w := range sc.worlds {
		w.lazy = w.canMerge()
		w.setJumpLimit(math.Inf(1))
		w.left = len(w.ranks)
		sc.live += len(w.ranks)
		for _, r := range w.ranks {
			r.resume, r.stop = iter.Pull(w.body(r))
			if first == nil {
				first = r
				continue
			}
			r.state = stateReady
			sc.ready.push(r)
		}
	}
	sc.playLinkProfiles() // before the hosts' speed profiles (shareCPUs): links first among equal dates
	if sc.shareCPUs() {
		// A shared execution blocks its rank until the host's processor
		// has done its flops, so no kernel may be deferred past it: no
		// merged sleeps, and no task runs a rank's kernels (SendRecvsIprobe).
		for _, w := range sc.worlds {
			w.lazy = false
		}
	}
	if sc.probesAside {
		sc.mailed = make([]uint64, (len(sc.ready.ranks)+63)/64)
	}
	sc.next = first
	first.state = stateRunning
	for !sc.over {
		sc.running = sc.next
		sc.running.resume()
	}
}

// cleanup ends every coroutine that has not returned, one at a time: its
// pending yield returns false and the rank leaves through runtime.Goexit
// (deferred application code runs, recover cannot stop it). iter.Pull hands
// that Goexit on to the caller of stop, hence a throw-away goroutine each.
// A rank never resumed just ends without running main.
func (sc *sched) cleanup() {
	sc.aborted = true
	sc.over = true
	stopped := make(chan struct{})
	for _, w := range sc.worlds {
		for _, r := range w.ranks {
			if r.stop == nil || r.state == stateFinished {
				continue
			}
			go func() {
				defer func() { stopped <- struct{}{} }()
				r.stop()
			}()
			<-stopped
		}
	}
}

// body is a rank's coroutine: it waits for the World's start time, runs
// the World's main, and gives the baton away.
func (w *World) body(r *Rank) iter.Seq[struct{}] {
	return func(yield func(struct{}) bool) {
		r.yield = yield
		defer func() {
			v := recover()
			switch {
			case w.aborted:
				// Stopped by cleanup after the end: just leave.
			case r.state == stateFinished && v == nil:
				// Returned and gave the baton away (w.next), or was the
				// last rank (w.over): nothing to report.
			default:
				// This coroutine holds the baton and the run is over: a
				// panic, or main called runtime.Goexit (t.FailNow does).
				if w.err == nil {
					if v != nil {
						who := r.id
						if a := w.advancing; a != 0 {
							who = w.ready.ranks[a-1].id // in that rank's task, advanced from r's scheduling loop
						}
						w.err = &PanicError{Rank: who, Value: v, Stack: string(debug.Stack())}
					} else {
						w.err = &PanicError{Rank: r.id, Value: "runtime.Goexit called by the application"}
					}
				}
				r.state = stateFinished // nothing left to stop
				w.over = true
			}
		}()
		if d := w.start - w.eng.Now(); d > 0 {
			r.sleep(d, "start")
		}
		w.main(r)
		r.settle()
		if w.hears(Finished) {
			w.event(Finished, r.id, 0)
			w.emit()
		}
		r.state = stateFinished
		w.live--
		if w.left--; w.left == 0 {
			w.end = w.eng.Now()
		}
		w.schedule(r)
	}
}

// MergeKernelSleeps lets the World merge each rank's kernel sleeps
// (Compute) between two of its MPI calls into one (see canMerge), where
// the run's configuration and listeners allow it: the same run, with
// fewer timers and coroutine switches. A rank then runs the code between
// its kernel calls before the engine's clock has reached the calls' ends,
// so the ranks' Go code runs in another order; call it, before Run, only
// for an application whose ranks see each other through the World alone
// (messages, collectives), not through memory they share (HPL: its Shared
// holds only what the ranks compute alike), and with nothing summing over
// the ranks in the order they run (a kernels.Config.Observe log's float
// totals would change in their last bits).
func (w *World) MergeKernelSleeps() { w.mergeAsked = true }

// canMerge reports whether a rank's kernel sleeps merge. Asked for
// (MergeKernelSleeps), a rank's Compute only adds its duration to the
// rank's own clock (Rank.due), and the rank sleeps the sum off in one go,
// up to the very float the clock would have reached sleeping each in
// turn, just before it next does something another rank or the engine
// could see (an MPI call, a task, Sleep, a request's Free, a WaitSet's Add
// or Done, the end of its main: Rank.settle). Between two kernel calls a
// sleeping rank only wakes, runs code of its own and sleeps again, so only
// its number of timers changes, which matters where
//   - the order in which timers due at one instant fire matters: the
//     ready ranks run lowest first (WakeRank), whatever order their
//     timers fired in, but FIFO and SimGrid's order run them in that
//     order;
//   - a listener hears the compute events, which carry the times;
//   - a poll may be free (a zero Iprobe or Test cost): spinning ranks
//     are let go at each instant the engine fires, a sleeping rank's
//     wake-up included, and their polls are counted. (A positive cost
//     is free too where the clock cannot count it, past some 10⁹ s of
//     simulated time at SMPI's 0.2 µs: not checked.)
func (w *World) canMerge() bool {
	c := &w.cfg
	return c.WakeOrder == WakeRank && !w.hears(ComputeStart) && !w.hears(ComputeEnd) &&
		c.IprobeCost > 0 && c.TestCost > 0 && w.mergeAsked
}

// schedule gives the baton away. r, the rank holding it, has just blocked or
// finished. Ready ranks run first, lowest rank first; when none is ready the
// engine fires every event due at the next instant, which may wake some.
// If r itself is next, schedule simply returns — no context switch. A
// finished r returns with w.next set (or w.over when the run is over), and
// its coroutine ends.
func (w *World) schedule(r *Rank) {
	for {
		if next := w.ready.pop(); next != nil {
			next.state = stateRunning
			if next == r {
				return
			}
			if next.native {
				w.advancing = next.gid + 1 // a panic in its task is its own (body)
				again := next.advance()
				w.advancing = 0
				if again {
					continue // its task waits again: its coroutine stays parked
				}
			}
			w.next = next
			if r.state == stateFinished {
				return // the coroutine ends; the driver resumes next
			}
			if !r.yield(struct{}{}) {
				runtime.Goexit() // the run ended while r waited
			}
			return
		}
		if w.live == 0 {
			w.over = true
			return // r has finished: the driver sees the end
		}
		if len(w.pollers) > 0 && !w.pollersSawNow() {
			w.releasePollers() // first let them see what the others did at this instant
			continue
		}
		t, ok := w.eng.Next()
		if len(w.probes.h) > 0 {
			// A probe ending first fires first, alone, without the
			// engine; one ending with the engine's next events fires
			// with them (probeQueue).
			if at := w.probes.h[0].at(); !ok || at <= t {
				if (!ok || at < t) && w.chainProbe(at) {
					continue
				}
				w.endProbes(at)
				if !ok || at < t {
					w.releasePollers()
					continue
				}
			}
		}
		if !ok {
			w.deadlocked()
			w.over = true
			if r.state != stateFinished {
				r.yield(struct{}{}) // the driver ends the run and stops r
				runtime.Goexit()
			}
			return
		}
		// Fire every event due at t before letting any rank run, so that
		// ranks woken at the same instant run in rank order.
		if w.simgrid {
			w.fireSimGrid()
			w.releasePollers()
			continue
		}
		for w.eng.Step() {
			if t2, ok := w.eng.Next(); !ok || t2 > t {
				break
			}
		}
		w.releasePollers()
	}
}

// fireSimGrid fires one instant as SimGrid's engine does (Config.WakeOrder WakeSimGrid):
// every event due less than SimGridPrecision after the first finishes at
// the first one's time (Model::update_actions_state_lazy pops each action
// within precision/timing of the new date), and the ranks woken by timers
// — the CPU model's actions, handled first (EngineImpl::handle_ended_actions
// walks the models in the order the platform created them: CPU, then
// network) — queue before those woken by messages.
func (w *World) fireSimGrid() {
	w.firing = true
	from := w.ready.tail
	w.eng.Step()
	for w.eng.StepWithin(SimGridPrecision) {
	}
	w.firing = false
	if from != w.ready.tail { // no timer woke a rank: nothing to reorder
		w.reorderTimerWakes(from)
	}
	for i, r := range w.netWakes {
		w.ready.push(r)
		w.netWakes[i] = nil
	}
	w.netWakes = w.netWakes[:0]
}

// wakeMsg wakes a rank whose message completed. Under WakeSimGrid, while
// an instant's events fire, it queues after the ranks woken by timers.
func (w *World) wakeMsg(r *Rank) {
	if w.firing {
		if r.state == stateBlocked {
			r.state = stateReady
			w.netWakes = append(w.netWakes, r)
		}
		return
	}
	w.wakeUp(r)
}

// simcall marks a point where SMPI makes a simcall that the maestro answers
// at once. Under WakeSimGrid the rank then goes to the back of the ready
// queue, so that every rank ready at this instant runs its next step first
// (a sub-round of EngineImpl::run). The move is owed rather than made: only
// the order of what ranks do to each other counts (post, probe, read or
// raise a counter, start a timer), so the rank pays what it owes just before
// its next such action (payOwed), and a rank that blocks first owes nothing
// — its place in a queue it leaves does not matter. That spares a
// context switch per blocking call.
func (r *Rank) simcall() {
	if r.w.simgrid {
		r.owed++
	}
}

// simcalls makes n simcalls (see simcall).
func (r *Rank) simcalls(n int) {
	if r.w.simgrid {
		r.owed += int32(n)
	}
}

// payOwed lets the ranks ready at this instant take the steps the rank's
// owed simcalls give them (see simcall). Without other ready ranks it costs
// nothing.
//
// It inlines: under the rank order a rank never owes, and the turns are
// payTurns'.
func (r *Rank) payOwed() {
	if r.owed > 0 {
		r.payTurns()
	}
}

// payTurns is payOwed for a rank that owes simcalls.
func (r *Rank) payTurns() {
	w := r.w
	for ; r.owed > 0; r.owed-- {
		if w.ready.empty() {
			r.owed = 0
			return
		}
		r.state = stateReady
		w.ready.push(r)
		w.schedule(r)
	}
}

// pollersSawNow reports whether the parked pollers were already released
// at the current instant.
func (w *World) pollersSawNow() bool { return w.released && w.releasedAt == w.eng.Now() }

// releasePollers makes the parked pollers ready again. It inlines: the
// engine fires an instant far more often than a poller is parked.
func (w *World) releasePollers() {
	if len(w.pollers) > 0 {
		w.releaseParked()
	}
}

// releaseParked is releasePollers once some are parked.
func (w *World) releaseParked() {
	w.released, w.releasedAt = true, w.eng.Now()
	for _, p := range w.pollers {
		if p.parked {
			p.parked = false
			w.wakeUp(p)
		}
	}
	clear(w.pollers)
	w.pollers = w.pollers[:0]
}

// wakeUp makes a blocked rank ready (idempotent).
func (w *World) wakeUp(r *Rank) {
	if r.state == stateBlocked {
		r.state = stateReady
		w.ready.push(r)
	}
}

// deadlocked reports a global block with nothing pending: as w's error for
// a World of its own; for the Worlds of a Machine, as the error of each one
// with a blocked rank (a job that finished is not deadlocked).
func (w *World) deadlocked() {
	if w.machine == nil {
		w.err = w.deadlock()
		return
	}
	for _, x := range w.worlds {
		if d := x.deadlock(); len(d.Blocked) > 0 && x.err == nil {
			x.err = d
		}
	}
}

// deadlock lists the blocked ranks.
func (w *World) deadlock() *DeadlockError {
	e := &DeadlockError{Time: w.eng.Now()}
	if sys := w.eng.System(); sys != nil {
		e.Stalled = sys.Active() // nothing is pending: the flows left will never complete
	}
	for _, r := range w.ranks {
		if r.state == stateBlocked {
			e.Blocked = append(e.Blocked, BlockedRank{Rank: r.id, Call: r.blk.call, Peer: r.blk.peer, Tag: r.blk.tag})
		}
	}
	return e
}
