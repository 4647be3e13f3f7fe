// Package goal replays GOAL schedules (read by package traceformat) under
// LogGOPSim's LogGOPS semantics,
// recording each rank's actual CPU and NIC order as edges of a sensitivity
// graph, so that the latency LP of package sensitivity reproduces
// LogGOPSim's runtime (shared/reference/goal-and-llamp.md §1, §5, §8;
// README.md beside this file has the validation).
//
// # What it owns
//
//   - Replay / ReplayGraph: a discrete-event replay that follows
//     LogGOPSim's event loop exactly (o on the CPU, g and (s−1)·G on the
//     NIC, eager up to S and rendezvous above, overhead charged at message
//     arrival, its type sort of newly ready ops with libstdc++'s unstable
//     std::sort, its (time, insertion) event order and its first-match
//     rule), with faster structures that give the same results: matching
//     queues hashed by (rank, source, tag), ops waiting for a busy CPU or
//     NIC parked behind one token per resource (park.go), and a two-level
//     event queue (heap.go). A reference mode with LogGOPSim's own
//     structures backs the tests and benchmarks.
//   - The recorder (record.go): the graph whose longest path at ℓ = L is
//     the replay's runtime.
//
// # Units
//
// GOAL sizes are bytes and calc durations nanoseconds (Schedgen's
// convention). Params and Result are in seconds, like the rest of emu. The
// replay itself runs on integer picoseconds, as LogGOPSim runs on integer
// time units: every parameter is rounded to whole picoseconds, so that
// ties between events break exactly as in LogGOPSim.
//
// # Error policy
//
// Bad input is traceformat's to refuse. A schedule that cannot complete
// (unmatched receives or messages) is an error of Replay listing what is
// left. Nothing panics on bad data.
//
// # Imports
//
// goal imports only packages sensitivity, traceformat and internal/heap of
// emu's (ARCHITECTURE.md); it does no I/O, reads no clock and starts no
// goroutines.
package goal
