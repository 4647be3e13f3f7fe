// Package emuproject is the module root. It holds no code, only the test that enforces
// the import rules of ARCHITECTURE.md; emu's packages live in the folders listed there.
package emuproject
