// Package traceformat reads the two trace formats emu replays: GOAL
// schedules (the text format of LogGOPSim's txt2bin and of Schedgen;
// shared/reference/goal-and-llamp.md §1) and SimGrid's time-independent
// (TI) traces (smpirun -trace-ti, SimGrid 3.32's smpi_replay.cpp).
//
// # What it owns
//
//   - Parse: GOAL text → Schedule, one 32-byte record per op (Ops, for the
//     simulators' inner loops), successor and predecessor lists in CSR
//     form (int32 indices), built block by block as each rank block closes
//     (goalblock.go).
//   - Schedule.WriteTo and TI.WriteTo: a trace back as text that Parse or
//     ParseTI reads into the same schedule or actions (TestWriteRoundTrip,
//     TestTIWriteRoundTrip, and FuzzParse and FuzzTIWrite on whatever the
//     parsers accept).
//   - ParseTI and the TI type: a TI trace rank by rank, actions in chunks
//     that never move (TI.Chunks), sizes in bytes once parsed, the
//     v-collectives' per-rank counts decoded (TI.Counts), receive sizes
//     kept (TIAction.RecvBytes, TI.RecvCounts).
//   - Format, ParseFormat, Guess and Load: a trace file of either format
//     (the format guessed from the name and first bytes when not given), a
//     TI index file followed to its per-rank files; Trace holds the result.
//   - Validation of both: every check that needs only the file (syntax,
//     unknown operation or action, labels, dependency cycles, peers and
//     roots out of range, counts that do not fit, a truncated TI rank, and
//     a TI collective whose receive count on a rank is smaller than the
//     message another rank sends it in that call: MPI_ERR_TRUNCATE, on
//     which SimGrid's replayer aborts; ticolls.go).
//
// What a trace means when it runs is not here: apps/replay runs either
// format over ranks (MPI semantics), package loggops runs a GOAL schedule
// as LogGOPSim does, and sensitivity/goal records that run's graph.
//
// # Units
//
// GOAL sizes are bytes and calc durations nanoseconds (Schedgen's
// convention), kept as written. TI sizes are element counts times the
// datatype's size (MPI_BYTE by default, MPI_DOUBLE after an "init" with an
// argument), computes in flops, sleeps in seconds.
//
// # Error policy
//
// Bad input is one error "FILE:LINE: what" and never a panic (both parsers
// are fuzzed). The GOAL parser is stricter than txt2bin where txt2bin
// misbehaves silently (goalparse.go lists where).
//
// # Imports
//
// Nothing of emu's but internal/inputfile (a trace that is not a regular
// file is refused). File I/O only in Load; no clock, no goroutine.
package traceformat
