// Package goal records the execution graph of a LogGOPS replay: while
// package loggops replays a GOAL schedule (read by package traceformat)
// under LogGOPSim's semantics, the recorder hears its decisions through
// loggops.Hooks and writes each rank's actual CPU and NIC order as edges
// of a sensitivity graph, so that the latency LP of package sensitivity
// reproduces LogGOPSim's runtime (shared/reference/goal-and-llamp.md §5,
// §8; README.md beside this file has the validation).
//
// # What it owns
//
//   - ReplayGraph: loggops.Replay plus the graph.
//   - The recorder (record.go, record_hooks.go): the graph whose longest
//     path at ℓ = L is the replay's runtime, and which keeps the replay's
//     order of each CPU and NIC when ℓ changes. It keeps its vertices in
//     the engine's per-op record (loggops.OpState), one cache miss per op.
//
// # Units
//
// The replay's integer picoseconds become the graph's float64 seconds
// (loggops.PsPerSecond).
//
// # Error policy
//
// Bad input is traceformat's to refuse, bad parameters and incomplete
// schedules loggops'. Nothing panics on bad data.
//
// # Imports
//
// goal imports only packages sensitivity, loggops and traceformat of emu's
// (ARCHITECTURE.md); it does no I/O, reads no clock and starts no
// goroutines.
package goal
