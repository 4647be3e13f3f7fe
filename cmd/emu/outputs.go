package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// outputPath is one output a command was asked to write: the flag that named it,
// the path, and whether it is a folder (--plot) or a file.
type outputPath struct {
	flag, path string
	folder     bool
}

// checkOutputs refuses, before any work is done, outputs that cannot all be
// written: a file that names a folder, a folder that names a file, a file in a
// folder that does not exist, two outputs naming one path. These are input errors
// (exit 2); found after a long run they would cost the run and leave the outputs
// written before the failing one behind.
func checkOutputs(outs ...outputPath) error {
	seen := map[string]string{} // absolute path → the flag that named it
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		abs, err := filepath.Abs(o.path)
		if err != nil {
			return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
		}
		info, err := os.Stat(o.path)
		if err == nil && isStream(info) {
			continue // /dev/null, a pipe: written in place, by as many flags as like
		}
		if first, ok := seen[abs]; ok {
			return fmt.Errorf("%s %s: also named by %s", o.flag, o.path, first)
		}
		seen[abs] = o.flag
		switch {
		case err == nil && o.folder && !info.IsDir():
			return fmt.Errorf("%s %s: is a file, want a folder", o.flag, o.path)
		case err == nil && !o.folder && info.IsDir():
			return fmt.Errorf("%s %s: is a folder, want a file name", o.flag, o.path)
		case err == nil || o.folder: // a folder is created with its parents
		default:
			dir := filepath.Dir(o.path)
			if d, err := os.Stat(dir); err != nil || !d.IsDir() {
				return fmt.Errorf("%s %s: folder %s does not exist", o.flag, o.path, dir)
			}
		}
	}
	return nil
}

// isStream reports whether an existing path is neither a regular file nor a
// folder: a device such as /dev/null, a pipe, a socket.
func isStream(info os.FileInfo) bool { return !info.Mode().IsRegular() && !info.IsDir() }

// outputFailed is the error of an output that could not be written after the
// run (a full disk): the flag and the file, then what the system said, without
// its path (the file's own, or its staging file's, a name the user never gave).
// Exit 1.
func outputFailed(flag, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return asFailure(fmt.Errorf("%s %s: %w", flag, path, err))
}

// firstError passes writes to w and keeps the first error one returned, so
// that an output written during a run (the trace) can be told apart from the
// run's own errors, which the runner returns with it.
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

// staging writes a command's output files to temporary files beside their targets
// and renames them all once every one is written, so that an error part-way
// leaves none of them behind (nor a half-written one). A target that is a device
// or a pipe is written in place: a rename would replace it (as root, /dev/null
// itself) by a regular file.
type staging struct{ tmp, dst []string }

// create opens a temporary file for path, or path itself when it is a device or
// a pipe; the caller writes and closes it.
func (s *staging) create(path string) (*os.File, error) {
	if info, err := os.Stat(path); err == nil && isStream(info) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		return f, asFailure(err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, asFailure(err)
	}
	s.tmp, s.dst = append(s.tmp, f.Name()), append(s.dst, path)
	pending.add(f.Name())
	return f, nil
}

// write stages path's content. write's own error is returned as it is.
func (s *staging) write(path string, write func(w io.Writer) error) error {
	f, err := s.create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return asFailure(f.Close())
}

// commit renames every staged file to its target; CreateTemp made them private
// (0600), a result file is an ordinary file (0644).
func (s *staging) commit() error {
	for i, tmp := range s.tmp {
		if err := os.Chmod(tmp, 0o644); err != nil {
			return asFailure(err)
		}
		if err := os.Rename(tmp, s.dst[i]); err != nil {
			return asFailure(err)
		}
		pending.remove(tmp)
	}
	s.tmp, s.dst = nil, nil
	return nil
}

// discard removes what is still staged (nothing after commit).
func (s *staging) discard() {
	for _, tmp := range s.tmp {
		os.Remove(tmp)
		pending.remove(tmp)
	}
	s.tmp, s.dst = nil, nil
}

// pending holds the staging files of this process not yet renamed or removed,
// for removeStagedOnSignal.
var pending = stagedFiles{paths: map[string]bool{}}

type stagedFiles struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (p *stagedFiles) add(path string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paths[path] = true
}

func (p *stagedFiles) remove(path string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.paths, path)
}

// removeAll removes every pending staging file and holds the lock for good, so
// that none is added while the process dies.
func (p *stagedFiles) removeAll() {
	p.mu.Lock()
	for path := range p.paths {
		os.Remove(path)
	}
}
