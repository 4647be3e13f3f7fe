package hpldat_test

import (
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/emu-hpc/emu/hpldat"
)

// HPL 2.3's shipped HPL.dat: 4 Ns, 4 NBs, grids 2×2, 1×4 and 4×1, 3
// PFACTs, 2 NBMINs, 1 NDIV, 3 RFACTs, 1 BCAST, 1 DEPTH, so HPL runs
// 4·4·3·3·2·1·3·1·1 = 864 tests on 4 processes (its own output ends
// "Finished 864 tests", shared/reference/hpl.md §1). The first, in HPL's
// loop order, is WR00L2L2 with N = 29, NB = 1 on the 2×2 grid, the first
// line of HPL's T/V table for this file.
func ExampleParse() {
	data, err := os.ReadFile("testdata/shipped.dat")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := hpldat.Parse(data, "HPL.dat", 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	tests := d.Tests()
	first := tests[0]
	fmt.Println("Ns", d.Ns, "NBs", d.NBs, "grids", len(d.Grids), "ranks", d.MaxRanks())
	fmt.Println(len(tests), "tests; first", first.Variant(), first.N, first.NB, first.P, first.Q)
	// Output:
	// Ns [29 30 34 35] NBs [1 2 3 4] grids 3 ranks 4
	// 864 tests; first WR00L2L2 29 1 2 2
}

// Errors name the file and the line: a grid larger than the platform's
// ranks (the 2×2 grid's Q is on line 12), and NB = 0 on line 8, the
// package doc's own example.
func ExampleParse_errors() {
	data, _ := os.ReadFile("testdata/shipped.dat")
	_, err := hpldat.Parse(data, "HPL.dat", 2) // the grids want 4 ranks
	fmt.Println(err)
	zeroNB := strings.Replace(string(data), "1 2 3 4      NBs", "0 2 3 4      NBs", 1)
	_, err = hpldat.Parse([]byte(zeroNB), "HPL.dat", 4)
	fmt.Println(err)
	// Output:
	// HPL.dat:12: a 4-process grid needs more ranks than the 2 the platform offers
	// HPL.dat:8: NB = 0: must be ≥ 1
}

// Format writes the file Parse reads back to the same parameters.
func ExampleFormat() {
	data, _ := os.ReadFile("testdata/shipped.dat")
	d, _ := hpldat.Parse(data, "HPL.dat", 0)
	again, err := hpldat.Parse(hpldat.Format(d), "written.dat", 0)
	fmt.Println(err, reflect.DeepEqual(d, again))
	// Output:
	// <nil> true
}
