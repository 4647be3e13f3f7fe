// Package scenario turns what users write into a run of emu: scenario files (TOML),
// HPL's own HPL.dat, SimGrid platform XML (the <cluster> subset), smpirun hostfiles, and
// `--set key=value` overrides; it validates them in one place, builds the topology, the
// rank placement,
// the MPI world, the kernel sets and the application, runs it, and records what the
// CLI writes (JSON results, the execution graph for sensitivity, a Chrome trace).
//
// Units: user units ("10Gbps", "1us", "64KiB", "1Gf") are converted here, and only
// here, into the core's: bytes, seconds, bytes per second, flop/s (ParseSize,
// ParseTime, ParseBandwidth, ParseSpeed). A bandwidth without a unit is refused.
//
// Error policy: every error caused by input names its origin and what is wrong, as
// "FILE:LINE: key: what" (or "FILE: key: what" when the line is not known, or
// "--set key: what" for an override). Bad input never panics; the parsers are fuzzed.
//
// Imports: scenario sits just under cmd/emu and may import every package of ours but
// cmd (ARCHITECTURE.md); nothing but cmd/emu imports scenario.
package scenario
