// Package emu is the simulation kernel: a virtual clock, an ordered event
// queue and the activities that make time pass (timers and network flows).
//
// An Engine is a synchronous state machine in the mould of etcd/raft's
// RawNode: it starts no goroutine, reads no wall clock and does no I/O.
// The driver (package ranks, one goroutine per MPI rank with exactly one
// running at a time) calls After and StartFlow to schedule work and Step to
// fire the next event. Because nothing else touches it, the Engine holds no
// lock; it is not safe for concurrent use.
//
// Units: time in seconds (float64), sizes in bytes, rates in bytes/s.
//
// Ordering: timers are kept in a binary min-heap keyed by (time, insertion
// sequence). Beside the heap, a few FIFO lanes each take the timers of one
// delay that recurs (a message's latency phase on one kind of route): the
// clock never goes back, so a lane is sorted as it is filled. The earliest
// of the heap's and the lanes' first timers, by (time, sequence), fires
// next. Timers therefore fire in (time, insertion sequence) order, and the
// many timers an SPMD program schedules with one delay cost an append each
// instead of a heap push and pop. The next
// event is the earlier of the next timer and the fluid.System's next flow
// completion; at an exact tie the timer fires first. The same calls in the
// same order therefore give the same event sequence, bit for bit.
//
// Precision: StepWithin fires an event due within a precision without moving
// the clock, for drivers that, as SimGrid, treat events closer than a
// precision as one instant.
//
// SimGrid (Options.SimGrid): the clock moves as SimGrid's does, now +=
// date − now; a flow's latency phase belongs to the flow, so that it takes
// its place among the network's events as in SimGrid's network model; and
// the fluid.System settles (SimGrid's solve) once per instant, when the
// driver asks for the next event.
//
// Batching: flows started with StartFlowHandler during one instant enter
// the fluid.System together (one re-solve, as SimGrid solves once per
// instant) before any flow completion is looked at (BatchFlowHandler is
// the same for a driver that knows its engine batches, and inlines); Skip lets a driver whose
// only runnable actor sleeps move the clock without a timer.
//
// Error policy: the Engine has no bad data to report. Scheduling in the past
// (a negative or NaN delay) is programmer misuse and panics.
//
// Imports: only fluid among emu's packages (ARCHITECTURE.md).
package emu
