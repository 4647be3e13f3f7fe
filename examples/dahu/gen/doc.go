// Command gen writes the Dahu example (examples/dahu) from the published data
// of seed 003's Figure 10 (examples/dahu/data, a copy of shared/peers/dahu):
// the scenario dahu.toml (the platform and SMPI's piecewise network of
// network_model.csv) and one models file per line of the figure's ladder:
//
//	a.toml  homogeneous linear dgemm (hom_linear), deterministic       SMPI's A1
//	c.toml  per-CPU linear dgemm (het_linear), deterministic           A1_het
//	d.toml  per-CPU polynomial dgemm (het_poly), deterministic         C1_het
//	e.toml  d with the published half-normal noise on every kernel     D1_het
//
// Run it from the repository root after the CSVs change:
//
//	go run ./examples/dahu/gen
//
// TestGenerated checks that the committed files are what it writes. Bad CSV
// input is reported as file:line: column: what is wrong, exit status 2.
//
// It imports models only, to write and check the models files, and runs no
// emulation.
package main
