// Package plots draws emu's figures as SVG, with gonum/plot: the per-rank
// time split (Breakdown: emu run --plot's rank_time.svg), the links'
// utilisation (LinkClasses and HottestLinks: --links with --plot), T, λ_L
// and ρ_L against the latency (Sensitivity: emu sensitivity and emu analyze
// --plot), each kernel's measured durations and relative residuals against
// its fitted model (Calibration: emu fit --plot) and the best Gflops per
// swept key (Tune: emu tune --plot).
//
// It is a package of its own so that what it links stays out of a program
// that only runs and watches, fits or sweeps: observe, sensitivity,
// calibration and tune compute what is drawn (calibration.PointsVsModel,
// tune.Envelopes) and link no plotting library, so a Go program of one's
// own over ranks, platform, observe and sensitivity (docs/library.md), or
// over calibration and tune, builds without gonum/plot, its fonts and its
// image packages (TestLayers lets only plots and cmd/emu link it).
//
// # Units
//
// Seconds in, as observe, sensitivity and calibration give them; the axes
// say theirs (µs for the sensitivity curves, s for the breakdown and the
// kernels' durations, 0–1 for utilisation, Gflops for tune's envelopes).
//
// # Error policy
//
// A figure that cannot be drawn or written is an error wrapped with what
// was being drawn; nothing panics on data.
//
// # Imports
//
// observe, sensitivity, calibration and tune of emu's (layers_test.go),
// and gonum/plot; none of them imports plots, and only cmd/emu does.
// Sensitivity, Calibration and Tune write their files into a folder; the
// others write to an io.Writer. No clock, no goroutine.
package plots
