package replay

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseErrors: bad TI input is one line naming the file and the line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown action", "0 init\n0 frobnicate 3\n", "t.txt:2: unknown action \"frobnicate\""},
		{"rank out of range", "0 send 1 0 8\n1 recv 0 0 8\n0 send 5 0 8\n", "t.txt:3: send: rank 5 out of range (the trace has ranks 0..1)"},
		{"negative rank", "-1 compute 3\n", "t.txt:1: rank -1 out of range"},
		{"root out of range", "0 bcast 8 4\n1 bcast 8 4\n", "t.txt:1: bcast: rank 4 out of range"},
		{"no rank", "send 1 0 8\n", "t.txt:1: want a rank number first"},
		{"no action", "0\n0 compute 1\n", "t.txt:1: rank 0: want an action"},
		{"missing argument", "0 send 1 0\n", "t.txt:1: want 3 to 4 arguments, found 2 (send takes partner tag count [datatype])"},
		{"too many arguments", "0 compute 1 2\n", "t.txt:1: want 1 arguments, found 2"},
		{"bad count", "0 send 1 0 lots\n", "t.txt:1: count \"lots\": want a number ≥ 0"},
		{"negative count", "0 compute -5\n", "t.txt:1: compute's amount \"-5\": want a number ≥ 0"},
		{"bad datatype", "0 send 1 0 8 9\n1 recv 0 0 8\n", "t.txt:1: datatype \"9\": want an id 0..6"},
		{"bad tag", "0 send 1 x 8\n", "t.txt:1: tag \"x\""},
		{"wildcard source on a send", "0 send -1 0 8\n", "t.txt:1: partner \"-1\": want a rank"},
		{"wildcard tag on a send", "0 send 1 -1 8\n", "t.txt:1: tag \"-1\""},
		{"truncated", "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n", "t.txt:4: rank 1's trace ends without finalize (a truncated file?)"},
		{"after finalize", "0 init\n0 finalize\n0 compute 1\n", "t.txt:3: rank 0: compute after finalize"},
		{"v-collective too short", "0 alltoallv 1 2 3\n1 alltoallv 1 2 3\n", "t.txt:1: alltoallv: want 6 to 8 arguments for 2 ranks, found 3"},
		{"v-collective root out of range", "0 gatherv 1 1 1 5\n1 gatherv 1 1 1 5\n", "t.txt:1: gatherv: root 5 out of range (the trace has ranks 0..1)"},
		{"v-collective datatype", "0 allgatherv 1 1 1 9\n1 allgatherv 1 1 1\n", "t.txt:1: datatype 9: want an id 0..6"},
		{"empty", "\n# nothing\n", "t.txt: no action: not a TI trace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTI(strings.NewReader(tc.text), "t.txt")
			switch {
			case err == nil:
				t.Fatalf("no error, want %q", tc.want)
			case !strings.HasPrefix(err.Error(), tc.want):
				t.Errorf("error %q\nwant it to start with %q", err, tc.want)
			case strings.Contains(err.Error(), "\n"):
				t.Errorf("error of several lines: %q", err)
			}
		})
	}
}

// TestLoadForms: one file, an index of per-rank files, a GOAL schedule,
// and the format guessed or given.
func TestLoadForms(t *testing.T) {
	dir := writeFiles(t, map[string]string{
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
		format Format
		ranks  int
		err    string
	}{
		{"one.txt", FormatAuto, 2, ""},
		{"index.txt", FormatAuto, 2, ""},
		{"index.txt", FormatTI, 2, ""},
		{"s.goal", FormatAuto, 2, ""},
		{"goal.txt", FormatAuto, 1, ""},
		{"one.txt", FormatGOAL, 0, "one.txt:1: "},
		{"bad.txt", FormatAuto, 0, "bad.txt:2: rank 1's trace: open "},
		{"wrong.txt", FormatAuto, 2, ""}, // per-rank files: the rank field is not read, as in SimGrid
		{"mixed.txt", FormatAuto, 0, "mixed.txt:2: want one trace file name per line"},
		{"tagany.goal", FormatAuto, 0, "tagany.goal:3: a send with tag -1 (any tag) has no MPI equivalent"},
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

func TestParseFormat(t *testing.T) {
	for s, want := range map[string]Format{"": FormatAuto, "goal": FormatGOAL, "TI": FormatTI, "auto": FormatAuto} {
		if f, err := ParseFormat(s); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("otf2"); err == nil {
		t.Error("ParseFormat(otf2): no error")
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
		tr, err := ParseTI(strings.NewReader(s), "f.txt")
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

// TestVCollectiveLayout: the v-collectives' numbers are laid out by the
// number of ranks, counts turned into bytes with the datatype given or the
// rank's default.
func TestVCollectiveLayout(t *testing.T) {
	tr := ti(t,
		"0 init 1", // MPI_DOUBLE by default
		"0 alltoallv 10 1 2 3 10 4 5 6",
		"1 scatterv 1 2 3 7 2 1", // root 2, MPI_INT
		"2 reducescatter 1 2 3 99",
		"2 gatherv 4 1 1 1 1 6 6", // root 1, MPI_BYTE
		"0 finalize",
	)
	x := tr.ti
	at := func(r, i int) action { return x.rank[r].chunks[0][i] }
	counts := func(a action) []int64 { return x.counts[a.a : a.a+3] }
	if a := at(0, 0); !reflect.DeepEqual(counts(a), []int64{8, 16, 24}) {
		t.Errorf("alltoallv counts %v, want 1, 2, 3 doubles", counts(a))
	}
	if a := at(1, 0); a.peer != 2 || !reflect.DeepEqual(counts(a), []int64{4, 8, 12}) {
		t.Errorf("scatterv root %d counts %v, want root 2 and 1, 2, 3 ints", a.peer, counts(a))
	}
	if a := at(2, 0); a.flops != 99 || !reflect.DeepEqual(counts(a), []int64{1, 2, 3}) {
		t.Errorf("reducescatter flops %g counts %v", a.flops, counts(a))
	}
	if a := at(2, 1); a.peer != 1 || a.a != 4 {
		t.Errorf("gatherv root %d send %d bytes, want root 1 and 4 bytes", a.peer, a.a)
	}
}
