package traceformat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadIndex: an index names its traces relative to its folder or, as
// SimGrid's replayer reads them, to the working directory; an index of one
// name is the trace of every rank in one file (smpirun's ti-one-file mode,
// and SimGrid's own one-line index examples); errors name the index's line.
func TestLoadIndex(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"run/all.txt":      "0 init\n1 init\n2 init\n0 send 1 0 8\n1 recv 0 0 8\n2 compute 5\n0 finalize\n1 finalize\n2 finalize\n",
		"run/one.txt":      "all.txt\n",
		"run/r0.txt":       "0 init\n0 send 1 0 8\n0 finalize\n",
		"run/r1.txt":       "1 init\n1 recv 0 0 8\n1 finalize\n",
		"run/local.txt":    "# per-rank files beside the index\n\nr0.txt\n\nr1.txt\n",
		"run/fromcwd.txt":  "run/r0.txt\nrun/r1.txt\n",             // as smpirun writes them: from where it ran
		"run/onecwd.txt":   "run/all.txt\n",                        // SimGrid's examples/smpi/replay one_trace shape
		"run/missing.txt":  "# a comment\n\nr0.txt\nnothere.txt\n", // the missing file is on line 4
		"run/missing1.txt": "\nnothere.txt\n",
		"run/folder1.txt":  "# one name: a folder\nsub\n",
		"run/folder2.txt":  "r0.txt\nsub\n",
		"run/sub/x.txt":    "0 init\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		file     string
		ranks    int
		rank2ops int // actions of rank 2 (one-file traces)
		err      string
	}{
		{"run/one.txt", 3, 1, ""},
		{"run/onecwd.txt", 3, 1, ""},
		{"run/local.txt", 2, 0, ""},
		{"run/fromcwd.txt", 2, 0, ""},
		{"run/missing.txt", 0, 0, "run/missing.txt:4: rank 1's trace: open run/nothere.txt: no such file or directory (nor nothere.txt from the working directory)"},
		{"run/missing1.txt", 0, 0, "run/missing1.txt:2: the trace: open run/nothere.txt"},
		// A folder named the folder's own line 1 (qa47: "adir:1: adir: is a
		// directory"), not the index's line that names it.
		{"run/folder1.txt", 0, 0, "run/folder1.txt:2: the trace: run/sub: a folder, want a trace file"},
		{"run/folder2.txt", 0, 0, "run/folder2.txt:2: rank 1's trace: run/sub: a folder, want a trace file"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tr, err := Load(tc.file, FormatAuto)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.Ranks() != tc.ranks {
				t.Fatalf("%d ranks, want %d", tr.Ranks(), tc.ranks)
			}
			if tc.ranks == 3 {
				if n := len(tr.TI.Chunks(2)[0]); n != tc.rank2ops {
					t.Errorf("rank 2 has %d actions, want %d", n, tc.rank2ops)
				}
			}
		})
	}
}

// TestIndexedFiles: an index's files are found where Load reads them (the
// index's folder, an absolute path as it is); a trace or a GOAL schedule is
// no index.
func TestIndexedFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	r0 := write("r0.txt", "0 init\n0 send 1 0 8\n0 finalize\n")
	r1 := write("r1.txt", "1 init\n1 recv 0 0 8\n1 finalize\n")
	tests := []struct {
		name, body string
		want       []string
	}{
		{"two.idx", "# rank 0 first\nr0.txt\n" + r1 + "\n", []string{r0, r1}},
		{"bom.idx", "\ufeffr1.txt\n", []string{r1}},
		{"trace.txt", "0 init\n0 finalize\n", nil},
		{"sched.goal", "num_ranks 1\nrank 0 {\nl1: calc 5\n}\n", nil},
	}
	for _, tc := range tests {
		got, err := IndexedFiles(write(tc.name, tc.body))
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if _, err := IndexedFiles(filepath.Join(dir, "missing.idx")); err == nil {
		t.Error("a missing index read as no index")
	}
}
