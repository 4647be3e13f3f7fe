// Package goal reads GOAL schedules (the text format of LogGOPSim's txt2bin
// and of Schedgen) and replays them under LogGOPSim's LogGOPS semantics,
// recording each rank's actual CPU and NIC order as edges of a sensitivity
// graph, so that the latency LP of package sensitivity reproduces
// LogGOPSim's runtime (shared/reference/goal-and-llamp.md §1, §5, §8;
// README.md beside this file has the validation).
//
// # What it owns
//
//   - Parse: GOAL text → Schedule, one 32-byte record per op, and
//     successor and predecessor lists in CSR form (int32 indices), built
//     block by block as each rank block closes (block.go).
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
// Bad input (syntax, unknown operation, undefined or duplicate label,
// dependency cycle, peer out of range) is an error naming the file and line.
// A schedule that cannot complete (unmatched receives or messages) is an
// error of Replay listing what is left. Nothing panics on bad data.
//
// # Imports
//
// goal imports only packages sensitivity and internal/heap of emu's
// (ARCHITECTURE.md); it does no I/O beyond the io.Reader handed to Parse,
// reads no clock and starts no goroutines.
package goal
