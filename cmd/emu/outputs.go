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
// folder that does not exist, two outputs naming one path, and a file that is
// one of inputs, the files the command reads (its scenario, HPL.dat, models,
// graph or samples), which the output would replace. These are input errors
// (exit 2); found after a long run they would cost the run and leave the outputs
// written before the failing one behind.
func checkOutputs(inputs []string, outs ...outputPath) error {
	seen := map[string]string{} // absolute path → the flag that named it
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			// Where "-" means standard output (fit's and merge's -o) the
			// caller takes it before; here it would be a file named "-".
			if o.folder {
				return fmt.Errorf("%s -: want a folder name", o.flag)
			}
			return fmt.Errorf("%s -: want a file name (not standard output, which holds the report; /dev/stdout is a file name for it)", o.flag)
		}
		abs, err := filepath.Abs(o.path)
		if err != nil {
			return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
		}
		dir := filepath.Dir(o.path) // where a file is staged
		if to := followLink(abs); to != abs {
			abs, dir = to, filepath.Dir(to) // a link and the file it names are one output (staging.create)
		}
		info, err := os.Stat(o.path)
		if err == nil && isStream(info) {
			continue // /dev/null, a pipe: written in place, by as many flags as like
		}
		if err == nil && !info.IsDir() {
			for _, in := range inputs {
				if i, err := os.Stat(in); err == nil && os.SameFile(info, i) {
					return fmt.Errorf("%s %s: is an input of this command (%s); writing it would replace it, give another file", o.flag, o.path, in)
				}
			}
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
		case err == nil && o.folder:
			if err := canCreateIn(o.path); err != nil {
				return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
			}
		case o.folder: // a folder is created with its parents, below folders only
			if f := fileAbove(o.path); f != "" {
				return fmt.Errorf("%s %s: %s is a file, not a folder", o.flag, o.path, f)
			}
			if err := canCreateIn(folderAbove(o.path)); err != nil {
				return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
			}
		default:
			if d, err := os.Stat(dir); err == nil && !d.IsDir() {
				return fmt.Errorf("%s %s: %s is a file, not a folder", o.flag, o.path, dir)
			} else if err != nil {
				return fmt.Errorf("%s %s: folder %s does not exist", o.flag, o.path, dir)
			}
			// A file is written beside itself and renamed over (an existing
			// one too): its folder must take a new file.
			if err := canCreateIn(dir); err != nil {
				return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
			}
		}
	}
	return nil
}

// canCreateIn tries a file in folder dir, removed at once: a folder the
// user may not write (or /proc, /sys) failed after the whole run, exit 1.
func canCreateIn(dir string) error {
	f, err := os.CreateTemp(dir, ".emu-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create a file in folder %s (%v)", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// folderAbove returns the nearest existing ancestor of path (a folder, when
// fileAbove found no file).
func folderAbove(path string) string {
	dir := filepath.Dir(filepath.Clean(path))
	for {
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// fileAbove returns the nearest existing ancestor of path when it is not a
// folder (a file that creating path's folders would fail on), else "".
func fileAbove(path string) string {
	for dir := filepath.Dir(filepath.Clean(path)); ; dir = filepath.Dir(dir) {
		if info, err := os.Stat(dir); err == nil {
			if info.IsDir() {
				return ""
			}
			return dir
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

// followLink is the file an output path names: path itself, or where its
// links lead (the file it names may not exist yet: a link to a file to
// make). The staging file is renamed there, so that the link stays.
func followLink(path string) string {
	for range 40 { // as the kernel, a loop of links ends somewhere
		li, err := os.Lstat(path)
		if err != nil || li.Mode()&os.ModeSymlink == 0 {
			return path
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real
		}
		to, err := os.Readlink(path) // dangling: to a file not made yet
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
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
// itself) by a regular file. A folder of figures (--plot DIR) is staged as a
// temporary folder beside DIR, its files moved into DIR with the others.
type staging struct {
	tmp, dst       []string
	tmpDir, dstDir []string
}

// create opens a temporary file for path, or path itself when it is a device or
// a pipe; the caller writes and closes it.
func (s *staging) create(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err == nil && isStream(info) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		return f, asFailure(err)
	}
	if err == nil {
		// --json /dev/stdout with the output redirected to a file: that
		// file is emu's own standard output, written through it (the
		// staging file's rename replaced the link /dev/stdout itself with
		// a file of the JSON, and the redirected file got none).
		for _, std := range []*os.File{os.Stdout, os.Stderr} {
			if si, err := std.Stat(); err == nil && os.SameFile(si, info) {
				f, err := dupFile(std)
				return f, asFailure(err)
			}
		}
	}
	path = followLink(path) // a link to a result file stays a link (the rename replaced it)
	var f *os.File
	err = pending.made(func() (string, error) {
		var err error
		f, err = os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
		if err != nil {
			return "", err
		}
		return f.Name(), nil
	})
	if err != nil {
		return nil, asFailure(err)
	}
	s.tmp, s.dst = append(s.tmp, f.Name()), append(s.dst, path)
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

// folder stages the folder path: it returns a new empty folder beside it (its
// parents made) for the caller to fill; commit moves what the caller wrote
// into path, made if need be, replacing files of the same names and keeping
// the others.
func (s *staging) folder(path string) (string, error) {
	path = filepath.Clean(path)
	parent := filepath.Dir(path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", asFailure(err)
	}
	var tmp string
	err := pending.made(func() (string, error) {
		var err error
		tmp, err = os.MkdirTemp(parent, "."+filepath.Base(path)+".tmp*")
		return tmp, err
	})
	if err != nil {
		return "", asFailure(err)
	}
	s.tmpDir, s.dstDir = append(s.tmpDir, tmp), append(s.dstDir, path)
	return tmp, nil
}

// plots stages the --plot folder path and has draw fill the staged folder;
// a figure that cannot be drawn fails as an output, naming the flag.
func (s *staging) plots(path string, draw func(dir string) error) error {
	dir, err := s.folder(path)
	if err != nil {
		return err
	}
	if err := draw(dir); err != nil {
		return outputFailed("--plot", path, err)
	}
	return nil
}

// commit renames every staged file to its target; CreateTemp made them private
// (0600), a result file is an ordinary file (0644). A staged folder whose
// target does not exist is renamed whole; otherwise its files are moved into
// the target. Every target is checked before the first rename: one that a
// folder takes (a figure's name) would stop the renames part-way.
func (s *staging) commit() error {
	tmp, dst := s.tmp, s.dst
	var whole []int // staged folders renamed whole
	for i, dir := range s.tmpDir {
		info, err := os.Stat(s.dstDir[i])
		switch {
		case errors.Is(err, fs.ErrNotExist):
			whole = append(whole, i)
			continue
		case err != nil:
			return asFailure(err)
		case !info.IsDir():
			return asFailure(fmt.Errorf("%s: is a file, want a folder", s.dstDir[i]))
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return asFailure(err)
		}
		for _, e := range entries {
			tmp, dst = append(tmp, filepath.Join(dir, e.Name())), append(dst, filepath.Join(s.dstDir[i], e.Name()))
		}
	}
	for _, d := range dst {
		if info, err := os.Lstat(d); err == nil && info.IsDir() {
			return asFailure(fmt.Errorf("%s: is a folder, want a file name", d))
		}
	}
	for i, t := range tmp {
		if i < len(s.tmp) {
			if err := os.Chmod(t, 0o644); err != nil {
				return asFailure(err)
			}
		}
		if err := os.Rename(t, dst[i]); err != nil {
			return asFailure(err)
		}
		if i < len(s.tmp) {
			pending.remove(t)
		}
	}
	for _, i := range whole {
		if err := os.Chmod(s.tmpDir[i], 0o755); err != nil { // MkdirTemp's 0700
			return asFailure(err)
		}
		if err := os.Rename(s.tmpDir[i], s.dstDir[i]); err != nil {
			return asFailure(err)
		}
	}
	for _, dir := range s.tmpDir {
		os.Remove(dir) // emptied, or renamed
		pending.remove(dir)
	}
	s.tmp, s.dst, s.tmpDir, s.dstDir = nil, nil, nil, nil
	return nil
}

// discard removes what is still staged (nothing after commit).
func (s *staging) discard() {
	for _, tmp := range append(s.tmp, s.tmpDir...) {
		os.RemoveAll(tmp)
		pending.remove(tmp)
	}
	s.tmp, s.dst, s.tmpDir, s.dstDir = nil, nil, nil, nil
}

// pending holds the staging files of this process not yet renamed or removed,
// for removeStagedOnSignal.
var pending = stagedFiles{paths: map[string]bool{}}

type stagedFiles struct {
	mu    sync.Mutex
	paths map[string]bool
}

// made runs create, which makes a staging file or folder and returns its
// path, and holds it pending: both under the lock, so that a signal that
// comes between the two (removeAll) still finds it, or waits for it.
func (p *stagedFiles) made(create func() (string, error)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	path, err := create()
	if err != nil {
		return err
	}
	p.paths[path] = true
	return nil
}

func (p *stagedFiles) remove(path string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.paths, path)
}

// removeAll removes every pending staging file and folder and holds the lock
// for good, so that none is added while the process dies.
func (p *stagedFiles) removeAll() {
	p.mu.Lock()
	for path := range p.paths {
		os.RemoveAll(path)
	}
}
