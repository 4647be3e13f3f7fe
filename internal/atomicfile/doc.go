// Package atomicfile writes a file so that a reader sees either the old
// content or the new, never half of it, and an interruption leaves the old:
// the data goes to a temporary file beside the target, is synced, and is
// renamed over it. (cmd/emu's staging commits several outputs as a group the
// same way; this is the single-file form.)
//
// Errors are the file system's, returned as they are; the temporary file is
// removed on any failure. Imports: nothing of ours.
package atomicfile
