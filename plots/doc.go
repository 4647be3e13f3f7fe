// Package plots draws the figures of a run and of its sensitivity analysis
// as SVG, with gonum/plot: the per-rank time split (Breakdown: emu run
// --plot's rank_time.svg), the links' utilisation (LinkClasses and
// HottestLinks: --links with --plot) and T, λ_L and ρ_L against the latency
// (Sensitivity: emu sensitivity and emu analyze --plot).
//
// It is a package of its own so that what it links stays out of a program
// that only runs and watches: observe and sensitivity compute what is drawn
// and link no plotting library, so a Go program of one's own over ranks,
// platform, observe and sensitivity (docs/library.md) builds without
// gonum/plot, its fonts and its image packages (TestLayers holds every
// package but the ones that draw to that).
//
// # Units
//
// Seconds in, as observe and sensitivity give them; the axes say theirs
// (µs for the sensitivity curves, s for the breakdown, 0–1 for
// utilisation).
//
// # Error policy
//
// A figure that cannot be drawn or written is an error wrapped with what
// was being drawn; nothing panics on data.
//
// # Imports
//
// observe and sensitivity of emu's (layers_test.go), and gonum/plot.
// Sensitivity writes its files into a folder; the others write to an
// io.Writer. No clock, no goroutine.
package plots
