// Package golden pins test output that matters to files under a package's
// testdata/ folder, and rewrites them when the tests run with -update, so a
// change of output is reviewed as a diff of those files (STYLE.md habit 13).
//
// It is for tests only: importing it registers the -update flag, so a test
// package that imports it must not define a flag of that name itself. It does
// no I/O beyond the golden file named, and reports through testing.TB: a
// missing or different file is a test error, never a panic.
//
// Imports: nothing of ours (standard library only).
package golden
