package calibration

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/models"
)

// Durability of a sample file: every row reaches the kernel with one write
// (so kill -9 of emu loses at most the row being written, which the next
// open cuts off), and the file is fsync'd every syncRows rows or syncPeriod,
// whichever comes first, and on Close (so a machine crash loses little).
const (
	syncRows   = 64
	syncPeriod = time.Second
)

// Writer appends samples to a sample file.
type Writer struct {
	f        *os.File
	path     string
	buf      []byte
	unsynced int
	lastSync time.Time
	// midRow, when set (tests only), runs between the two halves of a row
	// written in two writes, to let a test kill the process mid-row.
	midRow func()
}

// OpenSampleFile opens path for appending campaign rows, creating it with a
// header if it is missing or empty. An existing file must have this
// package's header; its torn last line (one without a newline, left by an
// interrupted write) is cut off, and the complete rows it holds are returned
// so the campaign can skip them.
func OpenSampleFile(path string) (*Writer, []Sample, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	var done []Sample
	if len(data) > 0 {
		keep := bytes.LastIndexByte(data, '\n') + 1
		if keep < len(data) {
			if err := os.Truncate(path, int64(keep)); err != nil {
				return nil, nil, fmt.Errorf("cutting torn last line of %s: %w", path, err)
			}
			data = data[:keep]
		}
		first, _, _ := bytes.Cut(data, []byte("\n"))
		if want := bytes.TrimSuffix(headerLine(), []byte("\n")); !bytes.Equal(bytes.TrimSpace(first), want) {
			return nil, nil, fmt.Errorf("%s:1: not a campaign file of this emu (header %q, want %q); choose another --out", path, first, want)
		}
		if done, err = ReadSamples(data, path); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	w := &Writer{f: f, path: path, lastSync: time.Now()}
	if len(data) == 0 {
		if _, err := f.Write(headerLine()); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return w, done, nil
}

// checkName refuses names that would need CSV quoting: rows are written as
// plain comma-separated text.
func checkName(what, s string) error {
	if strings.ContainsAny(s, ",\"\r\n") {
		return fmt.Errorf("%s %q may not contain commas, quotes or newlines", what, s)
	}
	return nil
}

// Write appends one row with a single write and syncs periodically.
func (w *Writer) Write(s Sample) error {
	for _, n := range [][2]string{{"host", s.Host}, {"kernel", s.Kernel}, {"backend", s.Backend}, {"plan", s.Plan}, {"clock", s.Clock}} {
		if err := checkName(n[0], n[1]); err != nil {
			return err
		}
	}
	w.buf = appendRow(w.buf[:0], s)
	if w.midRow != nil {
		half := len(w.buf) / 2
		if _, err := w.f.Write(w.buf[:half]); err != nil {
			return err
		}
		w.midRow()
		if _, err := w.f.Write(w.buf[half:]); err != nil {
			return err
		}
	} else if _, err := w.f.Write(w.buf); err != nil {
		return err
	}
	w.unsynced++
	if w.unsynced >= syncRows || time.Since(w.lastSync) >= syncPeriod {
		return w.Sync()
	}
	return nil
}

// WriteProbe appends the node's reference probe as a comment line that
// readers of samples skip (ReadProbes reads it), with one write, synced.
func (w *Writer) WriteProbe(p models.Probe) error {
	b, err := appendProbe(nil, p)
	if err != nil {
		return err
	}
	if _, err := w.f.Write(b); err != nil {
		return err
	}
	return w.Sync()
}

// Sync forces the rows written so far to stable storage.
func (w *Writer) Sync() error {
	w.unsynced, w.lastSync = 0, time.Now()
	return w.f.Sync()
}

// Close syncs and closes the file.
func (w *Writer) Close() error {
	return errors.Join(w.f.Sync(), w.f.Close())
}

// WriteSamples writes a complete sample file (header and rows) to out, as
// merge does.
func WriteSamples(out io.Writer, samples []Sample) error {
	return WriteSampleFile(out, samples, nil)
}

// WriteSampleFile writes a complete sample file: the header, a line per
// probe (the nodes' references, models.Probe), then the rows.
func WriteSampleFile(out io.Writer, samples []Sample, probes []models.Probe) error {
	buf := headerLine()
	for _, p := range probes {
		var err error
		if buf, err = appendProbe(buf, p); err != nil {
			return err
		}
	}
	for _, s := range samples {
		for _, n := range [][2]string{{"host", s.Host}, {"kernel", s.Kernel}, {"backend", s.Backend}, {"plan", s.Plan}, {"clock", s.Clock}} {
			if err := checkName(n[0], n[1]); err != nil {
				return err
			}
		}
		buf = appendRow(buf, s)
	}
	_, err := out.Write(buf)
	return err
}
