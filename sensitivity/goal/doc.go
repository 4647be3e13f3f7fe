// Package goal reads GOAL schedules (the text format of LogGOPSim's txt2bin
// and of Schedgen) and replays them under LogGOPSim's LogGOPS semantics,
// recording each rank's actual CPU and NIC order as edges of a sensitivity
// graph, so that the latency LP of package sensitivity reproduces
// LogGOPSim's runtime (shared/reference/goal-and-llamp.md §1, §5, §8).
//
// # What it owns
//
//   - Parse: GOAL text → Schedule, a compact struct-of-arrays form (int32
//     indices, one entry per op, successor lists in CSR form).
//   - Replay / ReplayGraph: a discrete-event replay that follows
//     LogGOPSim's event loop exactly (o on the CPU, g and (s−1)·G on the
//     NIC, eager up to S and rendezvous above, overhead charged at message
//     arrival, its type sort of newly ready ops with libstdc++'s unstable
//     std::sort, its (time, insertion) event order and its first-match
//     rule), but with matching queues hashed by (rank, source, tag) instead
//     of LogGOPSim's linear lists.
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
// goal imports only package sensitivity of emu's (ARCHITECTURE.md); it
// does no I/O beyond the io.Reader handed to Parse, reads no clock and
// starts no goroutines.
package goal
