package traceformat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/emu-hpc/emu/internal/inputfile"
)

// Trace is a loaded trace, ready to Run: a GOAL schedule or a TI trace.
type Trace struct {
	Name   string // the file it came from (the index file for a TI trace in one file per rank)
	Format Format
	GOAL   *Schedule
	TI     *TI
}

// Ranks is the number of ranks the trace was recorded for.
func (t *Trace) Ranks() int {
	if t.GOAL != nil {
		return t.GOAL.NumRanks()
	}
	return t.TI.Ranks()
}

// Events is the number of operations the trace holds: GOAL ops, or TI
// actions other than init, finalize and the ignored ones.
func (t *Trace) Events() int {
	if t.GOAL != nil {
		return t.GOAL.NumOps()
	}
	return t.TI.n
}

// headBytes is how much of a file Guess reads.
const headBytes = 4096

// Load reads the trace at path in format f (FormatAuto: Guess). A TI
// index file — one trace file name per line, rank 0's first, as smpirun
// -trace-ti writes them — is followed to its files, read relative to the
// index's folder (or, when not there, to the working directory, as SimGrid
// does); an index of one name is the trace of every rank in one file. The files are read as streams: a trace is held only in
// its parsed form.
func Load(path string, f Format) (*Trace, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	// A trace is read from its start twice (its head, then whole): a pipe
	// failed on "illegal seek", /dev/zero was read until memory ran out.
	if info, err := fh.Stat(); err == nil && !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
	}
	head := make([]byte, headBytes)
	n, err := io.ReadFull(fh, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head = bytes.TrimPrefix(head[:n], utf8BOM) // Guess and isIndex look past an editor's byte order mark
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f == FormatAuto {
		f = Guess(path, head)
	}
	if f == FormatGOAL {
		s, err := Parse(fh, path) // *os.File: the parser sizes its arrays from the file's length
		if err != nil {
			return nil, err
		}
		return &Trace{Name: path, Format: FormatGOAL, GOAL: s}, nil
	}
	if isIndex(head) {
		data, err := io.ReadAll(fh)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		files, lines, err := indexFiles(bytes.TrimPrefix(data, utf8BOM), path)
		if err != nil {
			return nil, err
		}
		if len(files) == 1 {
			// One name: the trace of every rank in one file, as SimGrid's
			// replayer reads an index of one line (ti-one-file mode).
			return loadShared(path, files[0], lines[0])
		}
		return loadTIFiles(path, files, lines)
	}
	ti, err := parseTI(fh, path)
	if err != nil {
		return nil, err
	}
	return &Trace{Name: path, Format: FormatTI, TI: ti}, nil
}

// ParseTI reads a TI trace in one file (every rank's lines, each
// starting with its rank).
func ParseTI(r io.Reader, name string) (*Trace, error) {
	ti, err := parseTI(r, name)
	if err != nil {
		return nil, err
	}
	return &Trace{Name: name, Format: FormatTI, TI: ti}, nil
}

// isIndex tells a TI index file from a trace by its first line: a single
// word that is not a rank number (a file name), where a trace line has a
// rank and an action.
func isIndex(head []byte) bool {
	for _, line := range bytes.Split(head, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		_, isRank := parseInt(f[0])
		return len(f) == 1 && !isRank
	}
	return false
}

// indexFiles reads an index file: one file name per line. It returns the
// names and the line of each.
func indexFiles(data []byte, name string) ([]string, []int, error) {
	var (
		files []string
		lines []int
	)
	for i, line := range bytes.Split(data, []byte("\n")) {
		f := bytes.Fields(line)
		switch {
		case len(f) == 0 || f[0][0] == '#':
			continue
		case len(f) > 1:
			return nil, nil, fmt.Errorf("%s:%d: want one trace file name per line (an index of per-rank files), found %q", name, i+1, clip(line))
		}
		files, lines = append(files, string(f[0])), append(lines, i+1)
	}
	return files, lines, nil
}

// errNotRegular refuses a trace that is no regular file.
var errNotRegular = errors.New("not a regular file (a trace is read from its start twice, a device such as /dev/zero never ends): give a file")

// openIndexed opens the file an index names (indexedPath); one that is not
// a regular file is read up to inputfile.MaxStream bytes.
func openIndexed(index, name string) (string, io.ReadCloser, error) {
	path := indexedPath(index, name)
	fh, err := inputfile.Open(path)
	switch {
	case errors.Is(err, syscall.EISDIR):
		// Refused at the open, so that the error names the index's line
		// that names the folder, not the folder's line 1 (qa47).
		err = fmt.Errorf("%s: a folder, want a trace file", path)
	case errors.Is(err, fs.ErrNotExist) && !filepath.IsAbs(name):
		err = fmt.Errorf("%w (nor %s from the working directory)", err, name)
	}
	return path, fh, err
}

// indexedPath is where the file an index names is read: an absolute path as
// it is, a relative one in the index's folder, or else, when it is not there,
// in the working directory, where SimGrid's replayer looks (smpirun -trace-ti
// writes the names relative to the directory it ran in).
func indexedPath(index, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	path := filepath.Join(filepath.Dir(index), name)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(name); err == nil {
			return name
		}
	}
	return path
}

// IndexedFiles returns the trace files the TI index at path names, each
// where Load reads it; none when path is not an index (a trace itself, or a
// GOAL schedule). Whoever must know when a replay's input changed (tune's
// sweep folders) needs these as well as the index.
func IndexedFiles(path string) ([]string, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	head := data[:min(len(data), headBytes)]
	if Guess(path, head) == FormatGOAL || !isIndex(head) {
		return nil, nil
	}
	names, _, err := indexFiles(data, path)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = indexedPath(path, name)
	}
	return out, nil
}

// loadShared reads the one trace file an index names, every rank's lines in it.
func loadShared(index, name string, line int) (*Trace, error) {
	path, fh, err := openIndexed(index, name)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: the trace: %w", index, line, err)
	}
	defer fh.Close()
	ti, err := parseTI(fh, path)
	if err != nil {
		return nil, err
	}
	return &Trace{Name: index, Format: FormatTI, TI: ti}, nil
}

// loadTIFiles reads one TI file per rank, in the index's order; lines are
// their lines in the index.
func loadTIFiles(index string, files []string, lines []int) (*Trace, error) {
	if len(files) > maxRanks {
		return nil, fmt.Errorf("%s: %d trace files, more than %d ranks", index, len(files), maxRanks)
	}
	ti := &TI{files: make([]string, len(files)), rank: make([]rankTrace, len(files))}
	for r := range ti.rank {
		ti.rank[r].dtype = 1
	}
	for r, name := range files {
		path, fh, err := openIndexed(index, name)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: rank %d's trace: %w", index, lines[r], r, err)
		}
		ti.files[r] = path
		err = ti.parse(fh, path, r, len(files))
		fh.Close()
		if err != nil {
			return nil, err
		}
	}
	if err := ti.finish(len(files)); err != nil {
		return nil, err
	}
	return &Trace{Name: index, Format: FormatTI, TI: ti}, nil
}
