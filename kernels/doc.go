// Package kernels is the set of compute kernels HPL calls — dgemm, dtrsm,
// dgemv, dger, dtrsv, dscal, daxpy, dcopy, dswap, idamax — plus a Charge
// entry point for HPL's own copy and row-interchange routines (dlaswp, dgather,
// dscatter, duswp, dlacpy, dlatcpy), behind one per-rank Set that runs in one of three modes:
//
//   - Real: the kernel is executed on real data (gonum's pure-Go BLAS, or
//     OpenBLAS when built with it) and the time charged is the kernel model's
//     duration, so a real run and a model run of the same program give the same
//     simulated time.
//   - Timed: the kernel is executed and its measured duration, multiplied by
//     Config.SpeedRatio, is charged. Config.Clock chooses wall time (as SMPI,
//     the default) or the process's CPU time (robust on a loaded machine). The
//     call runs on the calling goroutine only (OneCore), as on the one core a
//     rank has. This and calibration are the only places of emu that read a
//     clock.
//   - Model: nothing is executed and no matrix exists (slices are nil); the
//     model's duration is charged. Idamax returns a deterministic pseudo-random
//     index so control flow stays realistic.
//
// In every mode, Config.HostSpeed (node variability as a what-if) divides each
// duration charged on the rank's host by that host's speed factor.
//
// # Conventions
//
// Every matrix argument is column-major in HPL's (Fortran BLAS) argument
// order: element (i, j) of an m×n matrix with leading dimension lda is
// a[i+j*lda]. gonum's Implementation is row-major; the gonum backend maps each
// call onto the row-major transpose (see gonum.go).
//
// Each call is described to its time model by models.Vars{M, N, K, W}:
//
//	dgemm        M, N, K as called             W = M·N·K
//	dtrsm        M, N of B, K = triangle order W = M·N·K (M²·N side left, M·N² side right)
//	dgemv, dger  M, N of A                     W = M·N
//	dtrsv        N = order                     W = N²
//	level 1      N = vector length             W = N
//	Charge       M = rows, N = columns         W = M·N unless the caller sets it
//	dlaswp       M rows of A moved in N columns W = M·N; K = the local rows they are scattered over
//	dgather      M rows of A copied out, as dlaswp
//	dscatter     M rows copied into A, as dlaswp
//
// Putting the triangle order of dtrsm in K lets one calibration sample file
// (columns m, n, k) describe both sides, and lets a model use "m*n*k" or "w".
//
// HPL's row moves are several kernels because they live in different memory
// regimes (see Laswp and Gather): rows of the local matrix A, scattered over
// its K rows and cold (one cache line per element), interchanged in place
// (dlaswp), copied out into a compact buffer (dgather) or written from one
// (dscatter), and rows within the compact U and W buffers (duswp, in cache).
// A models file without duswp, dgather or dscatter charges them with
// dlaswp's model.
//
// A call with an empty dimension costs nothing and charges nothing; a kernel
// without a model costs zero. Time is in seconds.
//
// # Errors
//
// Bad configuration is reported by Config.Validate (and ParseMode). Calling a
// kernel with arguments that violate BLAS rules (short slices, bad leading
// dimensions) is programmer misuse and panics, as in gonum.
//
// # Optimized BLAS
//
// The default build is pure Go. Built with the cblas tag, backend "openblas"
// links the node's OpenBLAS through cgo (Debian: apt install libopenblas-dev):
//
//	go build -tags cblas ./cmd/emu
//	go test -tags cblas ./kernels/...
//
// and is selected with Config.Backend = "openblas" (emu calibrate --backend
// openblas). OpenBLAS is limited to one thread per process unless
// OPENBLAS_NUM_THREADS says otherwise: emu runs one rank per core.
//
// # Imports
//
// kernels imports only models among emu's packages; it must not import ranks,
// emu, fluid, apps or cmd (the Charger interface decouples it from ranks).
package kernels
