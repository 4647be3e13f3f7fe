// Package atomicfile writes a file so that a reader sees either the old
// content or the new, never half of it, and an interruption leaves the old:
// the data goes to a temporary file beside the target, is synced, and is
// renamed over it. (cmd/emu's staging commits several outputs as a group the
// same way; this is the single-file form.)
//
// Errors are the file system's, returned as they are; the temporary file is
// removed on any failure. Imports: nothing of ours.
package atomicfile

import (
	"os"
	"path/filepath"
)

// WriteFile replaces path with data, with permissions perm.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
