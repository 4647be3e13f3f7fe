// Package runner runs what package scenario planned: Run builds the plan's
// topology, places its ranks, makes the MPI world, gives every rank its
// kernel set and runs the application (one app, the [[jobs]] of a shared
// ranks.Machine each also alone, or a GOAL schedule under the loggops
// semantics), wiring the observers Options asks for (package observe);
// DelaySweep runs a plan once per injected message delay.
//
// # What it owns
//
//   - Options: what a run records besides its results (graph, trace,
//     breakdown, MPI split, kernel log, MPI calls, link traffic, pivots)
//     and the what-ifs applied to the built topology (ClassBandwidth,
//     Topology).
//   - Result: one run's outcome; its JSON form is the contract of
//     shared/DESIGN.md. JobResult: one [[jobs]] entry's.
//   - The memory limit of real- and timed-mode HPL (this machine's
//     physical memory, memory.go).
//
// # Imports
//
// scenario (the Plan), platform (the machine it names), the applications
// (apps/hpl, apps/pingpong, apps/replay), ranks, kernels, fluid, observe and
// sensitivity (the delay sweep's points). Never cmd; scenario never imports
// runner (it says what to run, not how a run is watched). Wall time is
// read here, outside the deterministic core, for Result.WallTime only.
package runner
