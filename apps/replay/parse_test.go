package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/traceformat"
)

// TestLoadForms: one file, an index of per-rank files, a GOAL schedule,
// and the format guessed or given.
func TestLoadForms(t *testing.T) {
	dir := scenariotest.WriteScenario(t, map[string]string{
		"one.txt":     "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n1 finalize\n",
		"index.txt":   "r0.txt\nr1.txt\n",
		"r0.txt":      "0 init\n0 send 1 0 8\n0 finalize\n",
		"r1.txt":      "1 init\n1 recv 0 0 8\n1 finalize\n",
		"bad.txt":     "r0.txt\nmissing.txt\n",
		"wrong.txt":   "r0.txt\nr1b.txt\n",
		"r1b.txt":     "7 init\n7 recv 0 0 8\n7 finalize\n",
		"mixed.txt":   "r0.txt\n0 send 1 0 8\n",
		"s.goal":      "num_ranks 2\nrank 0 {\nsend 8b to 1\n}\nrank 1 {\nrecv 8b from 0\n}\n",
		"goal.txt":    "// a GOAL schedule without the .goal extension\nnum_ranks 1\nrank 0 {\ncalc 5\n}\n",
		"tagany.goal": "num_ranks 2\nrank 0 {\nsend 8b to 1 tag -1\n}\nrank 1 {\nrecv 8b from 0\n}\n",
	})
	for _, tc := range []struct {
		file   string
		format traceformat.Format
		ranks  int
		err    string
	}{
		{"one.txt", traceformat.FormatAuto, 2, ""},
		{"index.txt", traceformat.FormatAuto, 2, ""},
		{"index.txt", traceformat.FormatTI, 2, ""},
		{"s.goal", traceformat.FormatAuto, 2, ""},
		{"goal.txt", traceformat.FormatAuto, 1, ""},
		{"one.txt", traceformat.FormatGOAL, 0, "one.txt:1: "},
		{"bad.txt", traceformat.FormatAuto, 0, "bad.txt:2: rank 1's trace: open "},
		{"wrong.txt", traceformat.FormatAuto, 2, ""}, // per-rank files: the rank field is not read, as in SimGrid
		{"mixed.txt", traceformat.FormatAuto, 0, "mixed.txt:2: want one trace file name per line"},
		{"tagany.goal", traceformat.FormatAuto, 0, "tagany.goal:3: a send with tag -1 (any tag) has no MPI equivalent"},
	} {
		tr, err := Load(filepath.Join(dir, tc.file), tc.format)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s as %v: err = %v, want %q", tc.file, tc.format, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s as %v: %v", tc.file, tc.format, err)
			continue
		}
		if tr.Ranks() != tc.ranks {
			t.Errorf("%s: %d ranks, want %d", tc.file, tr.Ranks(), tc.ranks)
		}
		if _, err := replayOn(t, cm02(), tr, nil); err != nil {
			t.Errorf("%s: %v", tc.file, err)
		}
	}
}

// FuzzParseTI: any input parses or fails with one line naming the file,
// never panics, and a trace that parses replays without a panic.
func FuzzParseTI(f *testing.F) {
	for _, s := range []string{
		"0 init\n0 send 1 0 8\n1 recv 0 0 8\n",
		"0 alltoallv 4 1 1 1 1 4 1 1 1 1\n",
		"0 isend 1 3 10 6\n1 irecv 0 3 10\n0 wait 0 1 3\n1 waitall\n",
		"1 bcast 1e3 0 0\n0 bcast 1e3\n",
		"0 reducescatter 1 2 5 0\n1 reducescatter 1 2 5\n",
		"3 gatherv 1 1 1 1 1 2 0 0\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := traceformat.ParseTI(strings.NewReader(s), "f.txt")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.txt") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q: want one line naming the file", err)
			}
			return
		}
		if tr.Ranks() > testHosts || tr.Events() > 64 {
			return // replaying is checked on small traces
		}
		_, _ = replayOn(t, cm02(), tr, nil)
	})
}
