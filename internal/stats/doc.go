// Package stats summarises an ensemble of runs: the same scenario emulated
// under several seeds, or with its inputs moved by parts in 10⁹ (emu run
// --seeds, --perturb). A Summary holds the mean, the extremes and a 90% band
// (the 5th and 95th percentiles) of one figure over the runs.
//
// Quantiles of a small ensemble (3 to 30 runs) are interpolated between the
// sorted runs (Hyndman and Fan's definition 7, R's and NumPy's default): the
// band then always lies within [min, max], and for K runs p05 is min plus
// 0.05·(K−1) of the gap to the second smallest. It describes the runs drawn;
// it is not a confidence interval on the mean. For K runs, an independent
// draw of the same figure falls inside [min, max] with probability only
// (K−1)/(K+1) (a half for three runs), so a Summary also gives the normal
// prediction interval of one more run (Next), which is what a real run or
// another simulator's draw should be held against.
//
// Units are the caller's (seconds, Gflop/s). The package does no I/O and
// imports nothing of ours (gonum's Student's t); an empty sample is a programmer error (panic).
package stats
