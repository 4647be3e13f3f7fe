// Package validation proves emu's numbers against independent references; it is
// tests, benchmarks and their data, plus the small reader of the peer's CSV:
//
//   - SimGrid/SMPI 3.32 emulating HPL (testdata/results.csv, copied from
//     shared/peers/smpi/): every row emu can reproduce — pivot rules MR (splitmix)
//     and MD (diagonal), net=cm02 and smpi-default, Iprobe 1e-4 and 1e-6, flat and
//     fat tree, the BCAST × DEPTH sweep — is rebuilt from the peer's own HPL.dat and
//     platform XML and must agree on HPL's Time within 2% (TestSMPIPeer). Rows of
//     more than 10,000 rank-panels (8×8 N ≥ 40000, 16×16) run only with -emu.slow:
//     go test ./validation -run TestSMPIPeer -emu.slow (about 5 CPU minutes).
//     Rows outside 2% are listed with the cause found (peerDepartures), rows emu
//     cannot reproduce by definition with the reason (PeerRow.Unreproducible).
//     testdata/smpi_comparison.md is the table, rewritten with -update.
//   - LLAMP's latency-injection validation (TestLLAMPInjection): the execution graph
//     recorded once predicts T(L0+ΔL), re-emulation at that latency must agree to an
//     RRMSE below 1%.
//   - Scale benchmarks (go test -bench Scale -run XXX ./validation): wall time, CPU
//     time and peak RSS of model-mode HPL against SMPI's figures.
//
// Units: seconds, bytes; the peer's memory is in MiB as its CSV gives it.
//
// Errors: ReadPeerRows names the file, line and column of bad data; PeerRow.Scenario
// refuses rows emu cannot reproduce (PeerRow.Unreproducible says why).
//
// Imports: everything of ours except cmd (ARCHITECTURE.md); nothing imports it.
package validation
