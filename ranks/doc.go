// Package ranks gives MPI semantics to goroutines running in the virtual time
// of an emu.Engine: the world communicator and Split, blocking and
// non-blocking point-to-point calls with MPI's matching rules, SMPI's
// detached/rendezvous protocols, overheads and network factors, the
// simulated cost of polling (Iprobe, Test), collectives built on
// point-to-point with selectable algorithms, and event hooks for tracers and
// the execution-graph recorder.
//
// # Writing a program
//
// A program is a func(*Rank), every rank's main, as in MPI: build a
// fluid.Topology (fluid.NewFlat, fluid.NewFatTree, or a SimGrid platform's
// with platform.ParseXML and Build), a Config (Preset "smpi" for smpirun's
// defaults, "cm02" for plain max-min), then NewWorld(cfg, topo, placement,
// seed) and World.Run(main). In main, Rank.World is MPI_COMM_WORLD,
// Rank.Compute charges a kernel's time (what a model says, not work done),
// and after Run, World.End is the emulated time. The examples are such
// programs, their times worked out by hand; docs/library.md is the guide.
//
// # Scheduling
//
// Several jobs on one machine (Machine): each job is a World of its own —
// ranks numbered from 0, communicators, hooks, seed, a start time — and all
// share one engine, one fluid system and one scheduler, so their messages
// share the links and their ranks take turns as one job's do (ready ranks
// in the order the Worlds were added, then by rank). Each application calls
// its World's Run as it would alone; the ranks start when every job has.
//
// World.Run starts one goroutine per rank, but exactly one runs at a time:
// each rank is a coroutine (iter.Pull) that one driver goroutine resumes, so
// the baton passes by a direct coroutine switch, never by the Go
// scheduler's choice (no run queue, no other processor woken). A rank runs
// until it must wait (a blocking receive, a rendezvous send, a sleep such as
// Compute or a polling cost); the rank that blocks then runs the scheduler
// itself: it picks the lowest-numbered ready rank, which the driver resumes,
// or, when none is ready, fires every engine event due at the next instant
// (which wakes some ranks). Virtual time thus
// advances only when every rank is blocked, and ranks woken at the same
// instant run in rank order. Calls that need not wait (a detached Isend, an
// Irecv, a free Iprobe or Test that finds nothing) touch the engine directly
// and cost no context switch; a blocked rank that is itself the next to run
// continues without one either, and a rank that sleeps (Compute, a polling
// cost) while no other rank is ready and nothing is due before it wakes
// just moves the clock (emu.Engine.Skip) — same trace, no queue traffic.
//
// Runs of neighbour exchanges (Comm.Exchanges: Issend, Recv, Wait per
// step; Comm.SendRecvs: Irecv, Send, Wait) run as tasks (task.go): the rank
// parks its coroutine once, and the scheduler advances the exchanges in the
// rank's turns — when it pops the rank from the ready queue, exactly where
// it would have resumed the coroutine — so the same operations happen at
// the same instants in the same order, without a context switch or a touch
// of the rank's stack per message. At 6,006 ranks that hand-off was half of
// a message's cache misses (TestTasksMatchBlockingCalls checks the
// equivalence event by event).
//
// Under the rank wake order the ends of the probes' costs (Comm.Probe's
// loops, Comm.Iprobe) wait in a queue of the World's own (probequeue.go),
// not the engine's: a probe's end only wakes its rank, and ranks woken at
// one instant run in rank order whatever order their wake-ups fired in. A
// Probe loop's probe that ends first and alone, with nothing mailed to its
// rank since its last look, fails as that look did: the scheduler makes it
// and starts the next (counter, cost, sleep) itself, without the rank (most
// of a Dahu run's events; TestProbeQueueMatchesEngineTimers checks the
// equivalence against the engine's timers, events counted included).
// With the counters' growth off every such probe costs the same, so a
// Probe loop's failed probes follow each other, t, t+d, (t+d)+d, …, until
// something is mailed to the rank: its probe goes dormant (dormant.go),
// in no queue, and is woken, its ends added up to the clock, by the send
// that mails it; which of a probe ending at that very instant and the
// send came first is the rank order's (TestDormantProbesMatchEventByEvent;
// the engine then fires fewer events, which no output shows).
//
// An application whose ranks meet only through the World may let it merge
// each rank's kernel sleeps between two MPI calls (World.MergeKernelSleeps,
// HPL's runner does): Compute then only moves the rank's own clock
// (Rank.Now), and the rank sleeps the sum off, to the float the clock
// would have reached, before its next MPI call. Under the rank wake order,
// with nobody hearing the compute events and no free poll, that changes
// only the number of timers (TestMergedSleepsMatchEachSleep).
//
// Comm.Uncontended, an approximation an application opts into
// (uncontended.go), makes a pattern of messages among every member of a
// communicator as one collective: each member hands in its steps, and when
// the last has, the World plays the program out in closed form, each
// message taking what it would alone on its route under the MPI layer's
// protocol and overheads, and wakes each member at its own end. Nothing of
// it enters the network model or the event stream. HPL's pivot search uses
// it under hpl.PivotUncontended; TestUncontendedMatchesMessagesAlone holds
// it to the network model's own times where no message meets another.
//
// # SimGrid's order
//
// Config.WakeOrder = WakeSimGrid makes an instant run as in SimGrid 3.32, where it
// decides what the simulation-wide Iprobe counter reads. SimGrid's maestro
// (EngineImpl::run) runs every ready actor up to its next simcall, then
// answers those simcalls in the same order; an answered actor joins the end
// of the list for the next sub-round. The counter is read in the actor's
// own code before an Iprobe's first simcall and raised only after its
// mailbox probe has been answered, one sub-round later (two: under an
// AsyncThreshold SMPI probes the small messages' mailbox, then, unless
// the message is there, the other one). emu gives each rank
// the same steps: a rank goes to the back of the FIFO ready queue at each
// of SMPI's simcalls (after posting a send or a receive, after the probe or
// test itself, at a wait on a request already complete other than a
// detached send's, and at set_flops_amount, set_host and set_bound before
// an execution starts). Ranks woken when time advances queue in the order
// SimGrid hands them back: executions (Compute and the polling costs, the
// CPU model) by date and then start order, before completed messages (the
// network model), whose two waiters of a rendezvous wake in the order they
// began waiting; and events less than SimGridPrecision (precision/timing,
// 1e-9 s under smpirun) apart finish together at the first one's time.
//
// Tasks run there too: where a blocking call gives up the rank's turn
// (payOwed, before a post, a sleep or a probe's outcome), a task's step
// queues the rank and hands back a turn, and goes on at the same point when
// the rank is popped (task.go: turnStep). A sleep that must first give up
// turns — Compute's two simcalls, an Iprobe's three — runs as a task of
// its own (sleeping), so that the coroutine parks once for the turns and
// the wait instead of once each.
//
// The floats are SimGrid's too, because at 256 ranks the counter makes a
// run chaotic (a 1e-11 relative change of the Iprobe cost moves SMPI's HPL
// Time by up to 9%; validation's testdata/smpi_reruns.csv, which
// TestSMPIRerunsReproduced replays): the network is a fluid.System with SimGrid's heap,
// solve and re-projection (fluid.SimGrid solver) driven by an engine
// with SimGrid's clock (emu.Options.SimGrid); an injected duration d
// becomes d·speed flops run at speed (Config.HostSpeed), as
// smpi_execute_benched does; and Split exchanges the messages of SMPI's
// MPI_Comm_split (a gather of colors and keys at rank 0, the groups sent
// back color by color, each new communicator's id broadcast), so that a
// program's timed part starts at SMPI's very instants.
//
// Free polls (Iprobe, Test, Testany with a zero cost) cannot advance time:
// a rank that fails 64 of them at one instant is parked until every other
// rank is blocked, released once at that instant, then only after the next
// instant's events — so a busy-wait loop lets time pass as a real one does
// instead of spinning forever.
//
// When no rank can run and nothing is pending, Run returns a *DeadlockError
// listing each blocked rank with its call, peer and tag. A panic in a rank
// becomes a *PanicError naming it. In every case all rank goroutines have
// exited when Run returns. A rank must not call runtime.LockOSThread: the
// Go runtime cannot switch a coroutine that is locked to its thread.
//
// # Model
//
// The network model follows SimGrid/SMPI 3.32 (shared/reference/
// smpi-model.md): a message of s payload bytes travels as s+Envelope bytes;
// its transfer has a latency phase of LatFactor(s')·L (L the route latency)
// during which it loads nothing, then a max-min flow whose throughput is
// BwFactor(s') times its rate, bounded by the TCP window γ/(2L), with sharing
// penalty L + Σ WeightS/bandwidth and CrossTraffic on the reverse route.
// Sends below EagerThreshold are detached: the sender returns after its
// overhead and the bytes move once the receive is posted. Larger sends are
// rendezvous. Iprobe and Test charge IprobeCost / TestCost times SimGrid's
// growing counter; an Iprobe sees every message posted so far, or, with
// ProbeAfterProgress, only those in by the end of the rank's previous MPI
// call (Open MPI's ob1). Reductions and Split cost no simulated time, and Compute
// is a pure delay: ranks sharing a host do not compete for its cores (SMPI
// would share them) — place one rank per core.
//
// Units: seconds, bytes, bytes per second.
//
// Error policy: NewWorld validates the Config and the placement and returns
// errors naming the field. Misuse inside a rank (a destination out of range,
// a negative user tag) panics in that rank and comes back from Run as a
// *PanicError. MPI's errors stop the run as MPI's default error handler
// (MPI_ERRORS_ARE_FATAL) does: a receive of at most n bytes
// (Comm.RecvUpTo, IrecvUpTo, SendrecvUpTo) that matched a longer message raises
// MPI_ERR_TRUNCATE in the call that completes it, a *PanicError that
// unwraps to a *TruncateError; Recv and Irecv take a message of any size.
//
// Imports: emu, fluid and internal/heap only (ARCHITECTURE.md). The
// package starts the rank goroutines — it is the driver of the synchronous
// engine — and reads no wall clock.
package ranks
