// Package observe watches a run: ranks hooks and listeners that turn a
// World's events into what the CLI writes beside the result, each
// independent of the others and of what runs (an HPL, a replayed trace, a
// pingpong, several jobs on one machine).
//
// # What it owns
//
//   - TraceWriter: the run as Chrome trace-event JSON (Perfetto), one
//     process per rank, streamed as events come; JobHook names the jobs
//     of a shared machine (ParseTraceWindow reads --trace-window).
//   - Traffic (traffic.go, traffic_out.go): bytes and busy time per link
//     and per link class, and how far each message travels (ReachCounter),
//     as CSV (emu run --links).
//   - Breakdown (breakdown.go, breakdown_csv.go): each rank's time split
//     into compute, MPI and idle, as CSV (emu run --plot).
//   - KernelLog: per-kernel totals and each distinct call shape, from the
//     kernels' Observe callback (--json "kernels", emu explain, emu
//     calibrate --hpl-dat).
//   - MPICalls: time and count per outermost MPI call (--json "mpi_calls").
//   - GraphRecorder (record*.go): the execution graph for package
//     sensitivity (LLAMP Algorithm 1), per link class and per latency mode
//     (RecordOptions, LatencyMode), and ClassGraph, its per-class view.
//   - MPISplit: the event-based split of MPI time into stack, sync and
//     network, per protocol and per call (emu sensitivity --mpi-time).
//
// The trace and the graph recorder read only TimelineKinds (timeline.go):
// add them with their Listener, not AddHook, or the World fires every poll
// of a blocking probe loop that it could otherwise let sleep.
//
// What runs is scenario's (the Plan); which observers a run gets is runner's (Options);
// observe never decides what to run. Their figures are package plots':
// observe draws nothing, so a program that watches its own run links no
// plotting library.
//
// # Units
//
// Seconds, bytes, bytes per second, as the core; the trace's JSON is in
// microseconds, as the format wants. User units (a --trace-window of
// "2ms:5ms") are read with package units.
//
// # Error policy
//
// Observers do not fail a run: a write error is kept and returned by
// Close (TraceWriter) or by the method that writes; a graph that cannot be
// built is an error of GraphRecorder.Graph.
//
// # Imports
//
// ranks (the events), fluid (links and their classes), kernels (the
// observed calls), sensitivity (the graph and the MPI split's types) and
// units; never scenario, plots or cmd, and no gonum/plot (layers_test.go).
// No goroutine of its own; no wall clock.
package observe
