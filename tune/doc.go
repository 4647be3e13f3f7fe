// Package tune runs what-if sweeps: the cross product (or a seeded random subset) of
// scenario overrides, evaluated in parallel on local cores or as a Slurm job array, with
// results appended to a journal so that an interrupted sweep resumes without redoing a
// finished point, and ranked best first. Search (search.go) instead finds a good point
// without evaluating them all whole: successive halving over a cheap fidelity that the
// caller names (for HPL, hpl.max_iterations: a few panels emulated, Time extrapolated).
//
// A point run as an ensemble (the runner's several seeds or perturbed copies)
// carries an Ensemble: its Gflops and times are then the means, which Rank orders by,
// and Undecided names the neighbours whose 90% bands overlap.
//
// A point is a list of `key=value` overrides in the scenario's dotted-key syntax (the same
// strings `--set` takes). tune knows nothing of scenarios: a Runner, supplied by the
// caller (cmd/emu wires scenario in), checks and evaluates a point. That keeps tune free of
// imports of ours (but internal/stats, the ensemble's statistics, internal/atomicfile,
// its plan and job files, and internal/jsonout, its --json), and testable with a toy runner.
//
// Units: a Result's times are seconds, simulated (TimeS, SimulatedS) or of the host's
// wall clock (WallS, the one clock tune reads, through Options.Clock); Gflops is the
// application's simulated Gflop/s.
//
// Error policy: malformed sweep specifications and journals return errors naming the
// offending spec, file and line; a point whose evaluation fails is recorded with its
// error and ranked last, so one bad corner of a sweep does not sink the others.
package tune
