// Package loggops is a simulator: it runs a GOAL schedule (read by package
// traceformat) under LogGOPSim's LogGOPS semantics and gives LogGOPSim's
// runtime to the picosecond (shared/reference/goal-and-llamp.md §5;
// sensitivity/goal/README.md has the validation).
//
// # What it owns
//
//   - Replay, and New/Run for a replay that someone listens to: a
//     discrete-event replay that follows LogGOPSim's event loop exactly
//     (o on the CPU, g and (s−1)·G on the NIC, eager up to S and
//     rendezvous above, overhead charged at message arrival, its type sort
//     of newly ready ops with libstdc++'s unstable std::sort, its (time,
//     insertion) event order and its first-match rule), with faster
//     structures that give the same results: matching queues hashed by
//     (rank, source, tag), ops waiting for a busy CPU or NIC parked behind
//     one token per resource (park.go), and a two-level event queue
//     (heap.go). Options.Reference runs LogGOPSim's own structures instead,
//     for tests and benchmarks.
//   - Hooks: what the loop decides (an op queued or started, a message
//     arriving or matched, a rendezvous freeing its sender), told to a
//     listener as it happens, with a few words per op (OpState) the
//     listener may keep beside the engine's own. sensitivity/goal's graph
//     recorder is one; the engine knows none.
//
// # Units
//
// Params and Result are in seconds, like the rest of emu; GOAL sizes are
// bytes and calc durations nanoseconds. The replay itself runs on integer
// picoseconds, as LogGOPSim runs on integer time units: every parameter is
// rounded to whole picoseconds, so that ties between events break exactly
// as in LogGOPSim.
//
// # Error policy
//
// Parameters out of range, or that would overflow the integer time on the
// schedule's largest message, are an error of New. A schedule that cannot
// complete (unmatched receives or messages) is an *IncompleteError: FILE:LINE
// of the first rank's oldest op left, then what is left, each op with its
// line. Nothing panics on bad data.
//
// # Imports
//
// traceformat and internal/heap of emu's, nothing else (layers_test.go): in
// particular not sensitivity, which listens through Hooks. No I/O, no
// clock, no goroutine.
package loggops
