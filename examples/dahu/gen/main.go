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
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	data := flag.String("data", "examples/dahu/data", "folder of the published CSVs")
	out := flag.String("out", "examples/dahu", "folder to write dahu.toml and the models files into")
	flag.Parse()
	files, err := generate(os.DirFS(*data), *data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(*out, name)
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		fmt.Println("wrote", path)
	}
}
