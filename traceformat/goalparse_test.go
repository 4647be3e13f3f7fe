package traceformat

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
)

// TestParseBad parses every file of testdata/bad and compares the error
// with NAME.err (regenerate with -update and review the diff).
func TestParseBad(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.goal")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad GOAL files: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".goal")
		t.Run(name, func(t *testing.T) {
			r, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			_, perr := Parse(r, filepath.Base(f))
			if perr == nil {
				t.Fatalf("Parse accepted %s", f)
			}
			got := perr.Error() + "\n"
			if strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, filepath.Base(f)+":") {
				t.Errorf("error is not one line naming the file and line: %q", got)
			}
			golden.Check(t, strings.TrimSuffix(f, ".goal")+".err", []byte(got))
		})
	}
}

// TestParseFields checks every field txt2bin stores on a hand-written file
// that uses the less common syntax: comments between and inside blocks,
// unlabelled ops, "8 b" with a blank, -1 wildcards, cpu/nic clauses,
// labels that are not l<k>, CRLF line ends and no final newline.
func TestParseFields(t *testing.T) {
	const src = "// header comment\r\nnum_ranks 3\n\n/* a comment\nover lines */\nrank 0 {\n" +
		"start: calc 100 cpu 1\n" +
		"send 8 b to 2 tag 7 cpu 0 nic 1\n" +
		"l2 : send 16b to 1\n" +
		"l2 requires start\n" +
		"}\n" +
		"rank 1 {\n" +
		"l1: recv 16b from -1 tag -1\n" +
		"l9: calc 0\n" +
		"l9 irequires l1\n" +
		"}\nrank 2 {\nx_1: recv 8b from 0 tag 7 nic 1\n}"
	s, err := Parse(strings.NewReader(src), "fields.goal")
	if err != nil {
		t.Fatal(err)
	}
	want := []Op{
		{Kind: OpCalc, Rank: 0, Size: 100, CPU: 1, Line: 7},
		{Kind: OpSend, Rank: 0, Peer: 2, Tag: 7, Size: 8, NIC: 1, Line: 8},
		{Kind: OpSend, Rank: 0, Peer: 1, Size: 16, Line: 9},
		{Kind: OpRecv, Rank: 1, Peer: AnySource, Tag: AnyTag, Size: 16, Line: 13},
		{Kind: OpCalc, Rank: 1, Line: 14},
		{Kind: OpRecv, Rank: 2, Peer: 0, Tag: 7, Size: 8, NIC: 1, Line: 18},
	}
	if s.NumOps() != len(want) || s.NumRanks() != 3 || s.CPUs() != 2 || s.NICs() != 2 {
		t.Fatalf("ops %d ranks %d cpus %d nics %d", s.NumOps(), s.NumRanks(), s.CPUs(), s.NICs())
	}
	for i, w := range want {
		if got := s.Op(i); got != w {
			t.Errorf("op %d = %+v, want %+v", i, got, w)
		}
	}
	if r := s.Requires(0); len(r) != 1 || r[0] != 2 {
		t.Errorf("successors of op 0 = %v, want [2]", r)
	}
	if r := s.IRequires(3); len(r) != 1 || r[0] != 4 {
		t.Errorf("start-successors of op 3 = %v, want [4]", r)
	}
	if s.NumPreds(2) != 1 || s.NumPreds(4) != 1 || s.NumPreds(0) != 0 {
		t.Errorf("dependencies of ops 0, 2, 4 = %d, %d, %d, want 0, 1, 1", s.NumPreds(0), s.NumPreds(2), s.NumPreds(4))
	}
	if p := s.Preds(2); len(p) != 1 || p[0] != 0 {
		t.Errorf("predecessors of op 2 = %v, want [0]", p)
	}
	if p := s.Preds(4); len(p) != 1 || p[0] != -1-3 {
		t.Errorf("predecessors of op 4 = %v, want [-4] (irequires op 3)", p)
	}
	if first, end := s.RankOps(1); first != 3 || end != 5 {
		t.Errorf("RankOps(1) = %d, %d", first, end)
	}
}

// TestParsePeers parses the peer schedules and checks the op and message
// counts that LogGOPSim's txt2bin reported for them (results.csv columns
// goal_ops and messages).
func TestParsePeers(t *testing.T) {
	rows := loadPeerCounts(t)
	for _, name := range peerSchedules(t) {
		t.Run(name, func(t *testing.T) {
			s := parsePeer(t, name)
			row, ok := rows[name]
			if !ok {
				t.Skipf("%s has no row in results.csv", name)
			}
			if s.NumOps() != row.goalOps || s.NumMessages() != row.messages || s.NumRanks() != row.ranks {
				t.Errorf("ops %d msgs %d ranks %d; LogGOPSim: %d, %d, %d",
					s.NumOps(), s.NumMessages(), s.NumRanks(), row.goalOps, row.messages, row.ranks)
			}
		})
	}
}

// FuzzParse checks that Parse never panics and that what it accepts is
// consistent: every dependency points inside its rank and forward counts
// add up.
func FuzzParse(f *testing.F) {
	f.Add("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 3\nl2: calc 10\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 3\n}\n")
	f.Add("num_ranks 1\nrank 0 {\na: calc 1 cpu 2\nb: calc 2\nb irequires a\n}\n")
	f.Add("num_ranks 1\n/* x */\nrank 0 {\n// c\n}\n")
	if files, _ := filepath.Glob("testdata/bad/*.goal"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(peerDir, "goal", "sample_llamp_non_blocking.goal")); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(strings.NewReader(src), "fuzz.goal")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.goal:") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error does not name the file, or is on several lines: %q", err)
			}
			return
		}
		deps := 0
		for v := 0; v < s.NumOps(); v++ {
			r := s.rankOf(int32(v))
			if r != int(s.ops[v].Rank) {
				t.Fatalf("op %d: rank %d in its record, %d by its block", v, s.ops[v].Rank, r)
			}
			for _, list := range [2][]int32{s.Requires(v), s.IRequires(v)} {
				for _, w := range list {
					deps++
					if s.rankOf(w) != r {
						t.Fatalf("dependency %d→%d crosses ranks", v, w)
					}
				}
			}
		}
		// The predecessor lists are the successor lists turned around,
		// each in increasing order, requires before irequires.
		want := make([][]int32, s.NumOps())
		for v := 0; v < s.NumOps(); v++ {
			for _, w := range s.Requires(v) {
				want[w] = append(want[w], int32(v))
			}
			for _, w := range s.IRequires(v) {
				want[w] = append(want[w], -1-int32(v))
			}
		}
		total := 0
		for v := range want {
			total += int(s.NumPreds(v))
			if !slices.Equal(s.Preds(v), want[v]) {
				t.Fatalf("predecessors of op %d = %v, want %v", v, s.Preds(v), want[v])
			}
		}
		if total != deps {
			t.Fatalf("dependency counts sum to %d, %d dependencies", total, deps)
		}
		// What it accepts, WriteTo writes back as text that parses to it.
		var text bytes.Buffer
		if _, err := s.WriteTo(&text); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&text, "written.goal")
		if err != nil {
			t.Fatalf("the written schedule does not parse: %v", err)
		}
		if d := sameSchedule(s, back); d != "" {
			t.Fatalf("written and read back, its %s differ", d)
		}
	})
}

// TestParseLongLine reads a line longer than the reader's 1 MiB buffer.
func TestParseLongLine(t *testing.T) {
	src := "// " + strings.Repeat("x", 3<<20) + "\r\nnum_ranks 1\nrank 0 {\nl1: calc 5\n}"
	s, err := Parse(strings.NewReader(src), "long.goal")
	if err != nil {
		t.Fatal(err)
	}
	if s.NumOps() != 1 || s.Op(0).Line != 4 {
		t.Fatalf("ops %d, line %d", s.NumOps(), s.Op(0).Line)
	}
}

// TestParseByteOrderMark: a schedule an editor saved with a UTF-8 byte
// order mark reads as without it, with the same line numbers; a mark
// anywhere else is still an error.
func TestParseByteOrderMark(t *testing.T) {
	const body = "num_ranks 1\nrank 0 {\nl1: calc 5\n}\n"
	s, err := Parse(strings.NewReader("\ufeff"+body), "bom.goal")
	if err != nil {
		t.Fatal(err)
	}
	if s.NumOps() != 1 || s.Op(0).Line != 3 {
		t.Fatalf("ops %d, line %d", s.NumOps(), s.Op(0).Line)
	}
	if _, err := Parse(strings.NewReader("num_ranks 1\n\ufeffrank 0 {\nl1: calc 5\n}\n"), "mid.goal"); err == nil || !strings.Contains(err.Error(), "mid.goal:2") {
		t.Errorf("a mark on line 2: %v, want an error at mid.goal:2", err)
	}
}

// rankOf finds the rank of a global op index by binary search over the
// rank boundaries: an independent check of the records' rank field.
func (s *Schedule) rankOf(op int32) int {
	lo, hi := 0, len(s.rankStart)-1 // invariant: rankStart[lo] <= op < rankStart[hi]
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if s.rankStart[mid] <= op {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// TestParseNumberedLabels parses each peer schedule as it is (Schedgen's
// labels l1, l2, …, which take the fast path for "l<k>: op" and
// "l<k> requires l<m>") and with every label renamed so that only the
// general path can read it: the schedules must be the same.
func TestParseNumberedLabels(t *testing.T) {
	label := regexp.MustCompile(`\bl([0-9]+)\b`)
	for _, name := range peerSchedules(t) {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(peerDir, "goal", name+".goal"))
			if err != nil {
				t.Fatal(err)
			}
			fast, err := Parse(bytes.NewReader(src), name)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := Parse(bytes.NewReader(label.ReplaceAll(src, []byte("lab_$1"))), name)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fast.ops, slow.ops) || !slices.Equal(fast.line, slow.line) ||
				!slices.Equal(fast.succ, slow.succ) || !slices.Equal(fast.isucc, slow.isucc) ||
				!slices.Equal(fast.predStart, slow.predStart) || !slices.Equal(fast.pred, slow.pred) ||
				!slices.Equal(fast.rankStart, slow.rankStart) {
				t.Errorf("the schedule differs when its labels are renamed")
			}
		})
	}
}
