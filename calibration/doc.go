// Package calibration measures emu's compute kernels on the node it runs on
// and turns measurements into inputs for the models package.
//
// It owns:
//
//   - campaigns (Campaign): a seeded plan of kernel calls with randomized
//     dimensions covering how HPL calls them (tall and skinny updates with
//     K = NB, NB-wide chunks, small K from the recursive panel, both forms of
//     U, triangles of order NB, or smaller inside the panel, on either side
//     in each L1/U form, level-1/2 calls of panel length, HPL's copies on
//     ≤ 2·NB rows; NB drawn from Plan.NBs, the runs' own NB at best),
//     executed on real data through a
//     kernels.Backend on one core (kernels.OneCore, as Timed mode runs
//     calls), optionally one worker per core at once (in lockstep rounds of
//     neighbouring calls, the rounds in an order shuffled by the seed, so a
//     slow stretch of a shared machine is not read as a range of sizes;
//     or, with Campaign.Beside, every kernel but one timed by a single
//     worker while the others run that kernel's largest call, as a rank's
//     row moves run beside its neighbours' updates),
//     each call run once to
//     warm caches and then timed Repeats times (the sample is the median;
//     HPL's row interchanges on A, dlaswp, instead run cold: the caches are
//     swept before each run, as HPL's update leaves them) with
//     kernels.Measure on the clock the runs will use (wall, or process CPU
//     time on a shared machine; the clock's own cost is subtracted, so a tiny
//     call may measure 0). A single worker measures in the calling goroutine
//     and writes each row before the next call, so nothing else of emu runs
//     while a call is timed;
//   - the sample file: CSV with a header, one row per measured call, appended
//     and written with one write per row (fsync'd periodically), so that a
//     campaign stopped by SIGINT or kill -9 is resumed by rerunning it: the
//     plan is a pure function of (seed, index), rows carry their index and a
//     plan fingerprint, a torn last line is cut off, and only missing indices
//     are measured — nothing lost, nothing duplicated;
//   - reading sample files from any tool (ReadSamples: any column order, at
//     least kernel,host,m,n,k,seconds) and merging several nodes' files;
//   - network calibration input: ping-pong CSV (bytes,seconds) and the text
//     output of osu_latency / osu_bw, as points for models.FitFactors;
//   - the node's reference probe (MeasureProbe: a 512³ dgemm on one core,
//     with the node's host, CPU model and cores), written into the sample
//     file as a comment line, carried by Merge and by fit into the models
//     file, measured again to read the models' drift (Compare) and rescale
//     them (Rescale);
//   - the fitting driver (FitSamples): per kernel (and per host) fits through
//     models.Fit, giving a models.Set and a quality table.
//
// # Units
//
// Durations are seconds, dimensions element counts with the kernels
// package's conventions (kernels.VarsFor; dtrsm's k is the triangle order),
// message sizes bytes, bandwidths bytes per second.
//
// # Errors
//
// Bad input (a malformed or inconsistent file) gives an error naming the file
// and line and what is wrong, never a panic. I/O failures are wrapped with
// %w. Measurement reads the wall clock and does I/O by design: this package
// is an edge of emu, not part of its deterministic core.
//
// # Imports
//
// calibration imports kernels and models only among emu's packages, and
// internal/atomicfile for the screened sample file, internal/inputfile for
// the files it reads, internal/jsonout for the fit's JSON report
// (layers_test.go).
package calibration
