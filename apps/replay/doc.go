// Package replay runs a recorded MPI schedule as an application: a GOAL
// schedule (LogGOPSim's and Schedgen's text format) or SimGrid's
// time-independent (TI) trace, executed by emu's ranks over the fluid
// network with everything an HPL run gets (eager/rendezvous, overheads,
// factor tables, topologies, placement).
//
// # What it owns
//
//   - Load: a trace as package traceformat reads it (a TI trace in one
//     file of "RANK ACTION ARGS..." lines or an index of per-rank files, as
//     smpirun -trace-ti writes them, or a GOAL schedule), less what has no
//     MPI meaning (a GOAL send with tag -1).
//   - Run: one rank per trace rank, each executing its actions in order
//     (TI) or its operations as their dependencies allow (GOAL), and the
//     report of a schedule that cannot complete (DeadlockError, which names
//     the blocked ranks and the trace line each is at) or that leaves a
//     message never received (UnmatchedError), or a receive smaller than
//     its message (TruncateError).
//
// # Semantics
//
// TI (SimGrid 3.32's smpi_replay.cpp): sizes are element counts times the
// datatype's size (MPI_BYTE by default, MPI_DOUBLE after an "init" with an
// argument); send/recv/isend/irecv take "partner tag count [datatype]" (a
// receive's partner -1 or -555, SMPI's MPI_ANY_SOURCE, and tag -1 are
// wildcards); wait and test name a request by "src dst tag", oldest first
// (a failed test puts it back last, a successful one leaves a done
// placeholder the key's next wait or test pops, as SimGrid's RequestStorage);
// waitall waits for every pending request of the rank, and so does the end
// of a rank's trace, but only the newest of each key (SimGrid's); compute is in flops
// and runs for flops / Config.Speed seconds; sleep is in seconds; reduce,
// allreduce, reducescatter, scan and exscan charge their flops after the
// exchange. The collectives call the ranks package's (whose algorithm the
// scenario's [network] keys choose; TestTIReplayAgainstSMPI in validation
// gives SimGrid's replayer's times with SMPI's); reducescatter is ranks'
// ReduceScatter, SMPI's default (a Reduce to rank 0 then a Scatter for
// equal counts, MPICH's algorithms for unequal ones); scan and exscan
// are ranks' linear Scan and Exscan, SMPI's only ones. Matching is MPI's,
// by source, tag and posting order. The count of a recv, an irecv or a
// sendrecv's receive is MPI's upper bound (ranks.Comm.RecvUpTo): a longer
// message is MPI_ERR_TRUNCATE, a *TruncateError naming the receive's
// line, where SimGrid 3.32's replayer aborts ("recv - returned
// MPI_ERR_TRUNCATE"); a shorter one is received whole. A collective's
// messages are its senders' sizes; its receive counts (alltoall,
// allgather, gather, scatter and their v forms) bound them as in SMPI, whose
// collectives post their receives with them: a smaller one is refused as
// the trace is read (traceformat), a larger one changes nothing.
//
// GOAL (shared/reference/goal-and-llamp.md §1): send and recv become Isend
// and Irecv posted as soon as their requires/irequires dependencies allow
// (a rank waits for its posted ops on a ranks.WaitSet, in completion order),
// calc N runs for N nanoseconds (GOAL's unit, not scaled by the host's
// speed), -1 is MPI's wildcard on a receive's source or tag; a send with
// tag -1 has no MPI meaning and is refused. The cpu and nic indices are
// ignored: each rank is one MPI process. The network is emu's, not
// LogGOPSim's LogGP parameters. A recv's size bounds nothing: LogGOPSim
// matches by source and tag alone and never compares sizes, so a receive
// takes its message whole whatever either size (under both semantics).
//
// # The loggops semantics
//
// RunLogGOPS (scenario key replay.semantics = "loggops") replays a GOAL
// schedule as LogGOPSim does instead (reference §5): a rank's CPU pays o
// per send and per received message, the receiver's at the message's
// arrival with its (s−1)·G, whether or not the receive is posted; its NIC
// spaces sends, and receives, by g + (s−1)·G; a message takes L; one of
// more than S bytes is rendezvous (the send completes at the match, with no
// handshake latency); matching happens when the receiver processes the
// message; cpu and nic indices are separate timelines, as in LogGOPSim;
// nothing is shared between ranks. It gives LogGOPSim's printed runtime on
// every schedule of the study, to the picosecond (TestLogGOPSimSemantics).
//
// It is a switch of the replay, not a network model of ranks, because what
// differs is the MPI layer, not only the network: under ranks' MPI a
// message matches at posting and moves as a flow while both CPUs work, and
// the receive overhead is paid after the match; LogGOPSim pays the payload
// on the receiving CPU and matches at processing. emu has one
// implementation of those semantics, package loggops (the one
// `emu analyze` checks against LogGOPSim), and RunLogGOPS runs it; a second
// copy inside ranks would be a replica to keep in lockstep (STYLE.md
// habit 16). The price: TI traces and the other applications have no
// loggops reading, and a loggops replay has no ranks' hooks (no trace, no
// execution graph from the scenario; sensitivity/goal records its own).
//
// # Units and errors
//
// Seconds, bytes, flop/s. Bad input is an error "FILE:LINE: what" and never
// a panic (the parser is fuzzed). A run that cannot complete is a
// *DeadlockError or an *UnmatchedError, a receive smaller than its message
// a *TruncateError, each one line.
//
// # Imports
//
// ranks, traceformat for the traces, and loggops for the loggops
// semantics; nothing of sensitivity (layers_test.go). No wall clock, no
// goroutine of its own; file I/O only in Load.
package replay
