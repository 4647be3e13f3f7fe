// Package hpl is a Go port of HPL 2.3 (High-Performance Linpack) that runs on
// emu's emulated MPI (package ranks) with its compute kernels behind package
// kernels, message for message as shared/reference/hpl.md describes HPL:
//
//   - 2-D block-cyclic distribution over P×Q, row- or column-major mapping
//     (grid.go); HPL's own binomial collectives on tag 9001 (tree.go);
//   - panel factorization: left, Crout and right base routines and their
//     recursive NBMIN/NDIV drivers, in the L1 "N" and "T" storage forms
//     (pfact.go, rfact.go), each column's pivot search with HPL's
//     fold-in / hypercube / fold-out exchange (pivot.go);
//   - the six panel broadcasts, the four rings progressing by Iprobe at HPL's
//     probe points inside the swaps and the trailing update, the two long
//     variants blocking as in 2.3 (bcast.go);
//   - row swapping: binary exchange, spread-roll with or without
//     equilibration, and mix with its threshold, in both U forms (swapindex.go,
//     swap00.go, swap01.go, laswp.go); the trailing update (update.go);
//   - the no-look-ahead and look-ahead (any depth) drivers (pdgesv.go), back
//     substitution (trsv.go), the matrix generator bit for bit (matgen.go), the
//     residual check (check.go) and HPL's printed output (output.go).
//
// Entry points: Run (one test, called by every rank of a ranks.World),
// RunTests (HPL.dat's loop), Output (the report, written by rank 0's caller).
// Params / Dat carry HPL.dat's content; Tests expands it in HPL's loop order.
//
// Modes follow the kernel set: Real and Timed run on real data and check the
// residual; Model allocates no matrix, messages carry only their sizes plus
// the values that steer control flow (pivot headers, DPIV/DINFO, the time),
// and pivots come from a rule (Options.Pivot: the SMPI peer's splitmix "MR"
// rule, diagonal, random, or replay of a real run recorded with
// Options.Record). A replayed model run reproduces the real run's simulated
// time and events exactly. Options.MaxIterations samples K panels and
// extrapolates (extrapolate.go). Options.Roll = RollMerged merges each
// rank's long-broadcast roll steps with the same neighbour into one
// exchange (HPL's bytes, two messages a rank instead of G−1), an
// approximation off by default; its pieces' data comes from the run's
// Shared, so real mode still solves the system. Options.PivotExchange =
// PivotUncontended times each column's pivot exchange as a whole
// (ranks.Comm.Uncontended: HPL_pdmxswp's messages, each alone on the
// network), another approximation off by default; every rank gets the
// winning candidate the binary exchange would give, so the pivots, the data
// and every other message are unchanged.
//
// Model mode is meant to run far faster than the machine it emulates, so the
// per-panel bookkeeping every rank repeats allocates nothing once warm: the
// swap index arrays live in per-rank scratch (scratch.go) and released panels
// are reused with their arrays (panel.go), and model mode skips the indices
// that only steer data.
//
// Deviations from HPL, all documented where they live: a busy wait on a ring
// broadcast blocks in
// Probe after its first failed Iprobe (same Iprobe count and cost when probes
// cost time, no livelock when they are free); HPL.dat's cursor quirk is the
// reader's (package scenario) business; the calendar times printed are an
// epoch plus simulated seconds.
//
// Units: sizes in doubles inside the algorithm, bytes on the wire (8 per double,
// 4 per int), time in simulated seconds. Error policy: invalid Params give an
// error naming the parameter; panics only for programmer misuse (a broken
// invariant of the algorithm). State is per rank: nothing is package-global.
// It imports ranks, kernels and models, never scenario or cmd.
package hpl
