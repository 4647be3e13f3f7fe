// Package scenario says what to run: it turns what users write into a
// validated Plan — scenario files (TOML), HPL's own HPL.dat, SimGrid
// platform XML (a <cluster>, or zones, hosts, links and routes), smpirun hostfiles, and `--set
// key=value` overrides — checked in one place, with the [[jobs]] of a
// shared machine and the loggops semantics resolved. Running a Plan, and
// which observers watch it, is package runner's. The input formats that
// stop at the edge are packages of their own: HPL.dat is package hpldat's;
// the machine (the Platform type, SimGrid XML, hostfiles, its topology,
// rank placement and per-host speeds) is package platform's.
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
// Imports: the applications' configurations (apps/hpl, apps/pingpong,
// apps/replay), the formats (hpldat, platform, traceformat, loggops), ranks,
// kernels, models, fluid, units and internal/inputfile (the files it reads)
// (ARCHITECTURE.md, layers_test.go); never observe, sensitivity or runner.
// runner and cmd/emu import scenario.
package scenario
