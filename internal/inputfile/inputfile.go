package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxStream bounds what is read from an input that is not a regular file
// (a pipe, a device): `emu run --replay /dev/zero` read until the system
// killed it, or the Go runtime did ("fatal error: out of memory").
const MaxStream = 256 << 20

// ErrEndless is the Err of the *fs.PathError for an input that is not a
// regular file and gave more than MaxStream bytes.
var ErrEndless = fmt.Errorf("not a regular file, and more than %d MiB came from it (a device such as /dev/zero never ends): give a file", MaxStream>>20)

// ReadFile reads path whole: a regular file as os.ReadFile does, anything
// else up to MaxStream bytes.
func ReadFile(path string) ([]byte, error) {
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		return os.ReadFile(path)
	}
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Open opens path for reading. Reading a regular file is reading it; from
// anything else the reader fails with ErrEndless (in a *fs.PathError) once
// MaxStream bytes have come. A folder is refused at once, with the error
// (syscall.EISDIR in a *fs.PathError) its first read would give.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if info.IsDir() {
		// The error its first read would give, told before any: whoever
		// opened it can name the line that named the folder.
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	return &bounded{f: f, path: path, regular: info.Mode().IsRegular(), left: MaxStream}, nil
}

type bounded struct {
	f       *os.File
	path    string
	regular bool
	left    int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.regular {
		return b.f.Read(p)
	}
	if b.left <= 0 {
		// one byte more says whether the stream ended right at the bound
		var one [1]byte
		if n, err := b.f.Read(one[:]); n == 0 && errors.Is(err, io.EOF) {
			return 0, io.EOF
		}
		return 0, &fs.PathError{Op: "read", Path: b.path, Err: ErrEndless}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.f.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *bounded) Close() error { return b.f.Close() }
