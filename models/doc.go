// Package models owns emu's kernel time models: what a compute kernel call
// costs as a function of its dimensions, how that cost varies from call to
// call, and how such models are fitted from measured samples.
//
// # Families
//
// Following the SMPI/HPL study (shared/seeds/003, section VI) a model is a
// mean part and a noise part:
//
//	M0   constant: T = a
//	M1   one product term: T = a·S + b (S = m*n*k for dgemm, ...)
//	M2   the kernel's full polynomial (dgemm: m*n*k, m*n, m*k, n*k, m, n, k, 1)
//	Mp   piecewise M1 (the study's M′): different coefficients within ranges
//	     of one variable (breaks_on), breakpoints found from the data,
//	     possibly discontinuous; a level-3 kernel's pieces also carry the
//	     output term m*n (PieceTerms)
//	N0   no noise; N1 Gaussian with constant σ; N2 Gaussian with σ a
//	     polynomial of the dimensions (heteroscedastic); Nmix a mixture of
//	     Gaussians for multi-modal timings (the study's N′); halfnormal the
//	     study's published noise (shared/peers/dahu): the mean plus a
//	     half-normal shifted to mean 0 with SD σ (constant or a polynomial
//	     of the dimensions), a draw ≤ 0 costing 0 and σ not bounded by the
//	     mean; it is written by hand or by a conversion, not fitted
//	Mh   per-host variants, and per-CPU ones keyed "HOST/cpuS" (Set.ForCPU:
//	     the CPU's, else the host's, else the platform-wide model)
//
// A Spec is the TOML table form of one model ([kernels.NAME] in models.toml or
// in a scenario); Spec.Build compiles it into a Model; a Set maps kernel and
// host names to models (Set.For: the host's override, else the platform-wide
// model, else nil). ParseSet and Set.MarshalTOML read and write models.toml.
// ProductTerm and PolyTerms give each kernel's natural M1 and M2 terms.
//
// # Fitting
//
// Fit estimates a Spec from samples and reports its Quality (outliers, R²,
// RMSE, k-fold CV RMSE and relative errors, log-likelihood, AIC, BIC;
// Quality.Problems says in words what is wrong with a fit):
//
//   - Every mean (FitOptions.Loss, default LossRobust): iteratively
//     reweighted least squares of the relative residual (y − ŷ)/ŷ, each
//     call's squared relative error weighted by its duration (weights 1/ŷ:
//     the fit keeps the inliers' total time, and no intercept exceeds what
//     the small calls show). A call both beyond 4.685 spreads of calls of
//     similar duration (MADs in blocks, σ(ŷ) = a + b·ŷ through them) and
//     over 2× off its prediction is an outlier (weight 0,
//     Quality.Outliers), at most 5% of the calls, the farthest first;
//     Huber's weights lead the first rounds. Intercepts are kept between 0
//     and the median duration of the fit's (or piece's) smallest 5% of
//     calls.
//     LossSquares is plain least squares, as before issue 10.
//   - M0, M1, M2: (weighted) least squares by QR (gonum/mat) on column-normalised
//     terms; terms that are linear combinations of others get coefficient 0.
//   - Mr, the rate: T = r·S, r the median of T/S; the baseline of auto.
//   - Mp: segmented regression on relative errors (dynamic programme over a
//     grid of cuts, then exact refinement), pieces chosen by BIC.
//   - Noise parts are fitted on the inliers. N1: σ from the residuals.
//     N2: σ(v) fitted on |residuals|·√(π/2), alternating with a
//     1/σ(v)²-weighted refit of the mean. Nmix: the robust mean (under
//     LossSquares refitted on relative errors), then EM on duration/center
//     ratios, modes
//     chosen by BIC; the heaviest mode is put on the center; a mode of under
//     1% of the samples (or 10 samples) is outliers, not a mode.
//   - auto: each family is scored by k-fold CV of its mean: median relative
//     error of a held-out call plus relative error of the held-out total
//     (outliers of the best mean by median left out); no family scoring
//     worse than the rate Mr is chosen; among the rest those within 10% (or
//     half a point) of the best, then the lowest BIC (outliers charged a uniform density, so
//     no noise part wins on them); exact data (no residual) gets the
//     simplest exact mean and N0; Mp needs two pieces and Nmix two
//     well-separated modes to compete.
//   - per host (Mh): each host with enough samples is refitted (for auto,
//     choosing its own family) and stored as Spec.Host overrides.
//
// FitFactors fits SMPI-style piecewise latency/bandwidth factor tables from
// ping-pong measurements with the same segmented regression.
//
// # Units
//
// Durations, means, σ and offsets are in seconds; dimensions are element
// counts (m, n, k) and w is a derived work term chosen by the caller (see the
// kernels package). Message sizes in FitFactors are bytes, bandwidth bytes per
// second.
//
// # Determinism
//
// Nothing here does I/O, reads the clock or starts goroutines. Randomness
// comes only from the *rand.Rand (math/rand/v2) a caller passes in, or from
// FitOptions.Seed; maps are ranged over in sorted order, so the same inputs
// and seed give the same models, draws and bytes. Sample never allocates and
// never returns a negative duration.
//
// # Errors
//
// Bad data (a malformed or inconsistent TOML table, unknown keys or terms,
// too few samples, non-finite values) is reported as an error that names the
// file, the line when it can be found, and the key; nothing panics on bad
// data. Calling a method on a nil Model is a programmer error.
//
// # Imports
//
// models imports none of emu's packages (ARCHITECTURE.md); it uses
// gonum (mat, stat), BurntSushi/toml and math/rand/v2 only.
package models
