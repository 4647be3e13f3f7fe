// Command emu predicts the performance of MPI applications, first of all HPL, by
// emulating them on one machine over a simulated network (see the README and
// shared/DESIGN.md). main is thin on purpose: everything happens in run, which the
// tests call in-process.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
