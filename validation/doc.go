// Package validation checks emu's numbers against references outside its own
// code — SimGrid/SMPI, real HPL — and, where said, against emu itself; it is
// tests, benchmarks and their data, plus the small reader of the peer's CSV:
//
//   - SimGrid/SMPI 3.32 emulating HPL (testdata/results.csv, copied from
//     shared/peers/smpi/): every row emu can reproduce — pivot rules MR (splitmix)
//     and MD (diagonal), net=cm02 and smpi-default, Iprobe 1e-4 and 1e-6, flat and
//     fat tree, the BCAST × DEPTH sweep — is rebuilt from the peer's own HPL.dat and
//     platform XML under SimGrid's order (network.wake_order = "simgrid") and must
//     give HPL's Time to SMPI's printed microsecond, but for the rows listed in
//     peerExactMiss, and within 2%, but for peerDepartures (TestSMPIPeer); emu's
//     default order must stay within 2% up to 8×8 (TestSMPIPeerRankOrder). Rows of
//     more than 10,000 rank-panels (8×8 N ≥ 40000, 16×16) run only with -emu.slow,
//     but for one CI-sized sample (the smallest of them, slowSample), which always runs:
//     go test ./validation -run TestSMPIPeer -emu.slow (about 5 CPU minutes).
//     Rows emu cannot reproduce by definition are logged with the reason
//     (PeerRow.Unreproducible). testdata/smpi_comparison.md is the table,
//     rewritten with -update.
//   - SimGrid/SMPI 3.32 run by emu's developers (testdata/smpi_reruns.csv): 16×16
//     runs with the Iprobe cost moved by parts in 1e11, where SMPI's time swings by
//     up to 9%, the peer rows emu misses, re-run from the peer's README, and the
//     campaign's two 16×16 MR rows that are not in results.csv; emu must give
//     each to the microsecond (TestSMPIRerunsReproduced, -emu.slow). The file's
//     head records how SMPI was built and run.
//   - SimGrid/SMPI 3.32 and emu timed alternately on the development VM, the
//     8×8 N = 80,000 MR row with Iprobe 1e-6 on cm02 (testdata/smpi_speed_vm.csv,
//     every run with its wall, CPU, RSS and load; docs/evidence/smpihere.md says
//     what was run). No test reads it: it is the like-for-like baseline on this
//     machine for a benchmark that wants one.
//   - SimGrid/SMPI of 2019 emulating HPL on Dahu, seed 003's Figure 10
//     (examples/dahu/data/simulated.csv): examples/dahu/dahu.toml with the
//     models files of lines a, c and d, under SMPI's host naming, within 2% of
//     SMPI's Time; every run is a row of testdata/dahu_smpi.csv, checked
//     against SMPI's CSV (TestDahuRecorded) and run again with -emu.slow
//     (N = 50,000) or EMU_LONG=1 (larger N) (TestDahuReproduced); line e's
//     seeds are logged against SMPI's D1_het.
//   - LLAMP's latency-injection validation (TestLLAMPInjection), a self-consistency
//     check of emu against emu: the execution graph recorded once predicts
//     T(L0+ΔL), and re-emulation at that latency must agree to an RRMSE below 1%.
//   - Real HPL on this node (TestPredictsRealHPL, -tags cblas, Debian's hpcc and
//     Open MPI, both installed by .ci/run): calibrate (in three pieces between
//     hpcc runs), fit and run predict each test of testdata/realhpl/hpccinf.txt
//     within 10% of the median of its twelve real runs, the whole comparison
//     made again, up to three times, while it misses.
//   - HPL's row moves and a 1×1 run's kernels against an HPL 2.3 instrumented to
//     time each call (CPU time of the calling thread), each real call billed with
//     a calibration made between the real runs (TestRowCopiesAgainstRealHPL,
//     TestOneByOneKernelsAgainstRealHPL, TestUInterchangesAgainstRealHPL; data
//     and how it was made: testdata/realhpl/vm-2026-11-28 and -28b).
//   - The one-node loop as one command, validation/nodeloop (docs/node.md): real
//     runs of 16 HPL tests around each calibration, the bar of issue 32 item 7.
//   - Scale benchmarks (go test -bench Scale -run XXX ./validation): wall time, CPU
//     time and peak RSS of model-mode HPL against SMPI's figures, like for like
//     (the same pivot rule and settings as the SMPI row, wall against wall).
//   - Seed 003's Fig. 6 grid run whole (BenchmarkFig6, EMU_LONG=1; -update records
//     a point in testdata/fig6_whole.csv, which TestReadmeFig6Table ties to the
//     README), and extrapolation's stated error bar against whole runs
//     (BenchmarkExtrapolationError, the recorded Fig. 6 points included).
//   - examples/stampede.toml run whole (BenchmarkStampedeWhole, EMU_LONG=1;
//     -update records it in testdata/stampede_whole.csv) and checked against
//     its 16-panel extrapolation's interval (TestStampedeWholeInsideBar,
//     -emu.slow; it skips until a run is recorded).
//
// Units: seconds, bytes; the peer's memory is in MiB as its CSV gives it.
//
// Errors: ReadPeerRows names the file, line and column of bad data; PeerRow.Scenario
// refuses rows emu cannot reproduce (PeerRow.Unreproducible says why).
//
// Imports: everything of ours except cmd (ARCHITECTURE.md); nothing imports it.
package validation
