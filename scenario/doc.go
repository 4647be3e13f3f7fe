// Package scenario says what to run: it turns what users write into a run
// of emu — scenario files (TOML), HPL's own HPL.dat, SimGrid platform XML
// (the <cluster> subset), smpirun hostfiles, and `--set key=value`
// overrides — validates them in one place into a Plan, builds the
// topology, the rank placement, the MPI world, the kernel sets and the
// application, and runs it (one app, or the [[jobs]] of a shared machine).
// What watches the run (trace, traffic, breakdown, kernel log, MPI calls,
// the execution graph, the MPI split) is package observe's; RunOptions
// says which observers a run gets. The input formats that stop at the
// edge are packages of their own: HPL.dat is package hpldat's; the machine
// (the Platform type, SimGrid XML, hostfiles, its topology and rank
// placement) is package platform's.
//
// Units: user units ("10Gbps", "1us", "64KiB", "1Gf") are read by package
// units, whose value types the schema uses (valuetypes.go), into the
// core's: bytes, seconds, bytes per second, flop/s. A bandwidth without a
// unit is refused.
//
// Error policy: every error caused by input names its origin and what is wrong, as
// "FILE:LINE: key: what" (or "FILE: key: what" when the line is not known, or
// "--set key: what" for an override). Bad input never panics; the parsers are fuzzed.
//
// Imports: scenario sits just under cmd/emu and may import every package of ours but
// cmd (ARCHITECTURE.md); nothing but cmd/emu imports scenario.
package scenario
