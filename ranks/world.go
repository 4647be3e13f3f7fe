package ranks

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/emu-hpc/emu/emu"
	"github.com/emu-hpc/emu/fluid"
)

// World is one simulated MPI job: its ranks, their placement on the hosts of
// a topology, and the engine that runs them. A World runs once.
type World struct {
	cfg    Config
	topo   fluid.Topology
	links  []fluid.Link
	place  []int // rank → host
	seed   uint64
	eng    *emu.Engine
	ranks  []*Rank
	hooks  []Hook
	routes map[uint64]*path // (src host, dst host) → cached route facts

	ready   readyQueue // ranks ready to run: lowest rank first, or FIFO (Config.WakeOrderFIFO)
	live    int        // ranks whose main has not returned
	running *Rank      // the rank holding the baton
	ran     bool

	msgSeq                   uint64 // last MsgID handed out
	recvSeq                  uint64 // last RecvID handed out
	freeReqs                 []*Request
	commSeq                  int32 // last communicator id handed out
	splits                   map[splitKey]*splitRound
	iprobeN, testN, testanyN int // SimGrid's simulation-wide poll counters

	// Ranks spinning on free polls (see Rank.spin), parked until every
	// other rank is blocked; releasedAt is when they were last let go.
	pollers    []*Rank
	releasedAt float64
	released   bool

	scratch Event
	noSkip  bool // tests: always take the timer path in Rank.sleep

	// End of the run: set by the goroutine holding the baton, read by Run
	// after it receives on done (the channel orders the accesses).
	over    bool
	err     error
	done    chan struct{}
	exited  chan struct{}
	aborted bool
	wg      sync.WaitGroup
}

// NewWorld builds a job of len(placement) ranks, rank i running on host
// placement[i] of topo. seed derives every rank's random stream.
func NewWorld(cfg Config, topo fluid.Topology, placement []int, seed uint64) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if topo == nil {
		return nil, fmt.Errorf("ranks: no topology")
	}
	if len(placement) == 0 {
		return nil, fmt.Errorf("ranks: no rank to run (empty placement)")
	}
	hosts := topo.Hosts()
	for i, h := range placement {
		if h < 0 || h >= hosts {
			return nil, fmt.Errorf("ranks: rank %d placed on host %d, topology has %d hosts", i, h, hosts)
		}
	}
	links := topo.Links()
	w := &World{
		cfg:     cfg,
		topo:    topo,
		links:   links,
		place:   append([]int(nil), placement...),
		seed:    seed,
		eng:     emu.NewEngine(fluid.NewSystem(links)),
		routes:  make(map[uint64]*path),
		ready:   readyQueue{fifo: cfg.WakeOrderFIFO},
		splits:  make(map[splitKey]*splitRound),
		iprobeN: 1, testN: 1, testanyN: 1,
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	world := &commCtx{id: 0, size: int32(len(placement))}
	w.ranks = make([]*Rank, len(placement))
	for i := range w.ranks {
		r := &Rank{w: w, id: i, host: placement[i], wake: make(chan struct{}, 1), iprobeN: 1, testN: 1, testanyN: 1}
		r.world = Comm{r: r, ctx: world, rank: i}
		r.timer = rankTimer{r}
		w.ranks[i] = r
	}
	return w, nil
}

// Now returns the current simulated time, s.
func (w *World) Now() float64 { return w.eng.Now() }

// Size returns the number of ranks.
func (w *World) Size() int { return len(w.ranks) }

// Engine exposes the simulation kernel (for statistics such as Fired).
func (w *World) Engine() *emu.Engine { return w.eng }

// Run starts one goroutine per rank, each calling main, and returns when all
// have returned (nil), when one panicked (*PanicError naming the rank), or
// when every remaining rank is blocked with nothing pending
// (*DeadlockError). Exactly one rank runs at a time; all goroutines have
// exited when Run returns.
func (w *World) Run(main func(r *Rank)) error {
	if w.ran {
		return fmt.Errorf("ranks: World.Run called twice")
	}
	w.ran = true
	w.live = len(w.ranks)
	for _, r := range w.ranks {
		w.wg.Add(1)
		go w.body(r, main)
	}
	for _, r := range w.ranks[1:] {
		r.state = stateReady
		w.ready.push(r)
	}
	w.running = w.ranks[0]
	w.ranks[0].state = stateRunning
	w.ranks[0].wake <- struct{}{}
	<-w.done
	// Everything below runs with no rank goroutine active: the ones still
	// parked are woken one at a time and exit at once.
	w.aborted = true
	for _, r := range w.ranks {
		if r.state != stateFinished && r != w.running {
			r.wake <- struct{}{}
			<-w.exited
		}
	}
	w.wg.Wait()
	return w.err
}

// body is a rank's goroutine.
func (w *World) body(r *Rank, main func(r *Rank)) {
	handedOff := false // set once this goroutine gave the baton away for good
	defer w.wg.Done()
	defer func() {
		v := recover()
		switch {
		case handedOff:
			// Another rank runs now: touch nothing shared.
		case w.aborted:
			// Woken by Run's clean-up after the end: just leave.
			w.exited <- struct{}{}
		default:
			// This goroutine holds the baton and the run is over: a panic,
			// a deadlock it detected, or the last rank returning.
			switch {
			case w.over:
			case v != nil:
				w.err = &PanicError{Rank: r.id, Value: v, Stack: string(debug.Stack())}
			case r.state != stateFinished:
				// main called runtime.Goexit (t.FailNow does) while running.
				w.err = &PanicError{Rank: r.id, Value: "runtime.Goexit called by the application"}
			}
			w.over = true
			w.done <- struct{}{}
		}
	}()
	<-r.wake
	if w.aborted {
		return
	}
	main(r)
	r.state = stateFinished
	w.live--
	handedOff = w.schedule(r)
}

// schedule gives the baton away. r, the rank holding it, has just blocked or
// finished. Ready ranks run first, lowest rank first; when none is ready the
// engine fires every event due at the next instant, which may wake some.
// If r itself is next, schedule simply returns — no context switch. For a
// finished r it reports whether the baton went to another rank (false: the
// run is over and r must report it).
func (w *World) schedule(r *Rank) bool {
	for {
		if next := w.ready.pop(); next != nil {
			next.state = stateRunning
			if next == r {
				return false
			}
			finished := r.state == stateFinished // read before the hand-off
			w.running = next
			next.wake <- struct{}{}
			if finished {
				return true // the goroutine ends; it no longer owns anything
			}
			<-r.wake
			if w.aborted {
				runtime.Goexit()
			}
			return false
		}
		if w.live == 0 {
			w.over = true
			return false // r has finished: body reports the end
		}
		if len(w.pollers) > 0 && !w.pollersSawNow() {
			w.releasePollers() // first let them see what the others did at this instant
			continue
		}
		t, ok := w.eng.Next()
		if !ok {
			w.err = w.deadlock()
			w.over = true
			if r.state != stateFinished {
				runtime.Goexit() // body's deferred function reports the end
			}
			return false
		}
		// Fire every event due at t before letting any rank run, so that
		// ranks woken at the same instant run in rank order.
		for w.eng.Step() {
			if t2, ok := w.eng.Next(); !ok || t2 > t {
				break
			}
		}
		w.releasePollers()
	}
}

// pollersSawNow reports whether the parked pollers were already released
// at the current instant.
func (w *World) pollersSawNow() bool { return w.released && w.releasedAt == w.eng.Now() }

// releasePollers makes the parked pollers ready again.
func (w *World) releasePollers() {
	if len(w.pollers) == 0 {
		return
	}
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

// deadlock lists the blocked ranks.
func (w *World) deadlock() *DeadlockError {
	e := &DeadlockError{Time: w.eng.Now()}
	for _, r := range w.ranks {
		if r.state == stateBlocked {
			e.Blocked = append(e.Blocked, BlockedRank{Rank: r.id, Call: r.blk.call, Peer: r.blk.peer, Tag: r.blk.tag})
		}
	}
	return e
}
