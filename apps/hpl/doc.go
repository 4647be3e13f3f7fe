// Package hpl is a Go port of HPL 2.3 (High-Performance Linpack) running on emu's
// emulated MPI (package ranks) with its compute kernels behind package kernels.
//
// It owns HPL's algorithm and communication, message for message, as described in
// shared/reference/hpl.md: the 2-D block-cyclic distribution, the panel factorizations
// (left, Crout, right; recursive with NBMIN/NDIV), the pivot search exchange, the six
// panel broadcasts, the three row-swap algorithms, look-ahead, back substitution, the
// residual check and HPL's printed output.
//
// Units: sizes in doubles inside the algorithm, bytes on the wire (8 per double), time in
// seconds of simulated time. Error policy: bad parameters give errors naming the
// parameter; panics only for programmer misuse. It imports ranks and kernels (and
// models for kernel dimensions), never scenario or cmd.
package hpl
