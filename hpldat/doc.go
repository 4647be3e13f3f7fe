// Package hpldat reads and writes HPL's own input file, HPL.dat
// (shared/reference/hpl.md §1), as an hpl.Dat: Parse checks its 31
// significant lines the way HPL reads them (stricter where HPL would
// silently fall back), Format writes the file Parse reads back to the same
// parameters, and LineOutFile names the line of the output file name, which
// emu run checks before a run. CursorNotes names the lines a real HPL reads
// otherwise than Parse (HPL's cursor quirk with runs of blanks, which Parse
// does not reproduce).
//
// # Error policy
//
// Every error names the file and the line, as "HPL.dat:8: NB = 0: must be
// ≥ 1". Bad input never panics; Parse and Format are fuzzed.
//
// # Imports
//
// apps/hpl only (the Dat it fills). It knows nothing of scenarios: scenario
// calls it for --hpl-dat and platform.hpl_dat, and checks the grid against
// its platform. No I/O: the caller reads the file.
package hpldat
