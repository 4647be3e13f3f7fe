package traceformat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad reads a file as emu run --replay does (Load, the format guessed),
// beside per-rank TI files an index may name, and fuzzed per-rank text: a
// one-line error naming the file read (the index, or a file it names), or a
// trace of at least one rank.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("r0.txt\nr1.txt\n"), []byte("1 init\n1 recv 0 0 8\n1 finalize\n"))
	f.Add([]byte("# index\n\nall.txt\n"), []byte("1 init\n"))
	f.Add([]byte("0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n"), []byte(""))
	f.Add([]byte("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n"), []byte(""))
	f.Add([]byte("\xef\xbb\xbfr0.txt\nr1.txt extra\n"), []byte("1 isend 0 3 10\n"))
	f.Add([]byte("r0.txt\nr1.txt\nr0.txt\n"), []byte("0 init\n"))
	f.Fuzz(func(t *testing.T, data, rank1 []byte) {
		dir := t.TempDir()
		files := map[string][]byte{
			"trace.txt": data,
			"r0.txt":    []byte("0 init\n0 send 1 0 8\n0 finalize\n"),
			"r1.txt":    rank1,
			"all.txt":   []byte("0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n"),
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, "trace.txt")
		tr, err := Load(path, FormatAuto)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, dir) && !strings.Contains(msg, "open ") {
				t.Fatalf("error %q: want one line naming the file", msg)
			}
			return
		}
		if tr.Ranks() < 1 {
			t.Fatalf("accepted a trace of %d ranks", tr.Ranks())
		}
	})
}
