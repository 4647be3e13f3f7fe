package traceformat

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadByteOrderMark: a trace, an index or a GOAL schedule (without the
// .goal extension, so the format is guessed from its text) saved by an editor
// with a UTF-8 byte order mark loads as the same file without it (the TI
// parser read "\ufeff0" as rank 0's rank field and stopped with an error).
func TestLoadByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	dir := t.TempDir()
	files := map[string]string{
		"all.txt":   bom + "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n1 finalize\n",
		"r0.txt":    bom + "0 init\n0 send 1 0 8\n0 finalize\n",
		"r1.txt":    "1 init\n1 recv 0 0 8\n1 finalize\n",
		"index.txt": bom + "r0.txt\nr1.txt\n",
		"sched.txt": bom + "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file   string
		format Format
		events int
	}{
		{"all.txt", FormatTI, 2},
		{"index.txt", FormatTI, 2},
		{"sched.txt", FormatGOAL, 2},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tr, err := Load(filepath.Join(dir, tc.file), FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != tc.format || tr.Ranks() != 2 || tr.Events() != tc.events {
				t.Errorf("format %v, %d ranks, %d events; want %v, 2, %d", tr.Format, tr.Ranks(), tr.Events(), tc.format, tc.events)
			}
		})
	}
}
