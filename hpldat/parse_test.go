package hpldat

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
)

// peersDir holds the peer tools' input files (SimGrid platforms, HPL.dat files);
// they must all load.
const peersDir = "../validation/testdata" // the peer inputs, vendored from shared/peers/smpi

// peerFile reads a file of the peer inputs (vendored in the repository).
func peerFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(peersDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseShipped(t *testing.T) {
	// HPL's shipped example (hpl.md §1): 4 Ns × 4 NBs × 3 grids × 3 PFACTs × 2 NBMINs ×
	// 1 NDIV × 3 RFACTs × 1 BCAST × 1 DEPTH = 864 tests on 4 processes.
	d, err := Parse(readFile(t, "testdata/shipped.dat"), "shipped.dat", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := hpl.Dat{
		OutFile: "HPL.out", Device: 6, Ns: []int{29, 30, 34, 35}, NBs: []int{1, 2, 3, 4},
		PMap: hpl.RowMajor, Grids: []hpl.Grid{{P: 2, Q: 2}, {P: 1, Q: 4}, {P: 4, Q: 1}}, Threshold: 16,
		PFacts: []hpl.Fact{hpl.Left, hpl.Crout, hpl.Right}, NBMins: []int{2, 4}, NDivs: []int{2},
		RFacts: []hpl.Fact{hpl.Left, hpl.Crout, hpl.Right}, BCasts: []hpl.BCast{hpl.OneRing},
		Depths: []int{0}, Swap: hpl.Mix, SwapThreshold: 64, L1Transposed: true, UTransposed: true,
		Equilibration: true, Alignment: 8,
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("got  %+v\nwant %+v", d, want)
	}
	if n := len(d.Tests()); n != 864 {
		t.Errorf("%d tests, want 864", n)
	}
}

func TestParsePeers(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(peersDir, "hpl_dat", "*.dat"))
	if len(files) == 0 {
		t.Fatalf("no peer HPL.dat files in %s (vendored)", peersDir)
	}
	for _, f := range files {
		d, err := Parse(readFile(t, f), filepath.Base(f), 256)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		// The peers' files are named HPL_PxQ_N..._bcastB_depthD.dat; their fixed
		// parameters are listed in shared/peers/smpi/README.md §7.
		ts := d.Tests()
		if len(ts) != 1 || ts[0].NB != 128 || ts[0].PFact != hpl.Right || ts[0].RFact != hpl.Right ||
			ts[0].Swap != hpl.Mix || ts[0].SwapThreshold != 64 || !ts[0].L1Transposed || !ts[0].UTransposed {
			t.Errorf("%s: %+v", f, ts)
		}
		var p, q, n, b, dep int
		name := strings.NewReplacer("x", " ", "_N", " ", "_bcast", " ", "_depth", " ", ".dat", "", "HPL_", "").Replace(filepath.Base(f))
		if _, err := fmt.Sscan(name, &p, &q, &n, &b, &dep); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ts[0].P != p || ts[0].Q != q || ts[0].N != n || int(ts[0].BCast) != b || ts[0].Depth != dep {
			t.Errorf("%s: read %+v", f, ts[0])
		}
	}
}

func TestParseErrors(t *testing.T) {
	good := strings.Split(strings.TrimSuffix(string(readFile(t, "testdata/shipped.dat")), "\n"), "\n")
	edit := func(line int, text string) string {
		l := append([]string(nil), good...)
		l[line-1] = text
		return strings.Join(l, "\n")
	}
	tests := []struct {
		name, data string
		ranks      int
		want       string // the error must start with this
	}{
		{"empty", "", 0, "x.dat:1: missing line 1 of 31"},
		{"one blank line", "\n", 0, "x.dat:2: missing line 2 of 31"},
		{"one line, CRLF", "HPL\r\n", 0, "x.dat:2: missing line 2 of 31"},
		{"truncated", strings.Join(good[:20], "\n") + "\n", 0, "x.dat:21: missing line"},
		{"NB zero", edit(8, "0 2 3 4"), 0, "x.dat:8: NB = 0: must be ≥ 1"},
		{"N negative", edit(6, "29 -30 34 35"), 0, "x.dat:6: N = -30"},
		{"too few NBs", edit(8, "1 2"), 0, "x.dat:8: NB: want 4 values"},
		{"count 0", edit(5, "0"), 0, "x.dat:5: number of N values = 0"},
		{"count 21", edit(5, "21"), 0, "x.dat:5: number of N values = 21"},
		{"not a number", edit(6, "29 thirty 34 35"), 0, `x.dat:6: N: "thirty" is not an integer`},
		// fewer values than the count, the line's label next: said N: "Ns" is not an integer
		{"too few, then the label", edit(6, "29 30 Ns"), 0, `x.dat:6: N: want 4 values (line 5 says so), found 2 before "Ns"`},
		{"too few, then a comment", edit(8, "64 # NBs"), 0, `x.dat:8: NB: want 4 values (line 7 says so), found 1 before "#"`},
		{"a word among the values", edit(6, "29 30 thirty-four 35 Ns"), 0, `x.dat:6: N: "thirty-four" is not an integer`},
		{"unknown bcast", edit(23, "7"), 0, "x.dat:23: BCAST = 7: unknown variant"},
		{"unknown pfact", edit(15, "0 1 3"), 0, "x.dat:15: PFACT = 3: unknown variant"},
		{"unknown swap", edit(26, "3"), 0, "x.dat:26: SWAP = 3: unknown variant"},
		{"NDIV 1", edit(19, "1"), 0, "x.dat:19: NDIV = 1: must be ≥ 2"},
		{"Q zero", edit(12, "2 0 1"), 0, "x.dat:12: Q = 0"},
		// Ps and Qs both take their count from line 10.
		{"too few Ps", edit(11, "2 1"), 0, "x.dat:11: P: want 3 values (line 10 says so), found 2"},
		{"too few Qs", edit(12, "2 1"), 0, "x.dat:12: Q: want 3 values (line 10 says so), found 2"},
		{"depth negative", edit(25, "-1"), 0, "x.dat:25: DEPTH = -1"},
		{"threshold", edit(13, "high"), 0, `x.dat:13: threshold: "high" is not a number`},
		{"threshold NaN", edit(13, "nan"), 0, `x.dat:13: threshold: "nan" is not a number`},
		{"DEPTH huge", edit(25, "1000000"), 0, "x.dat:25: DEPTH = 1000000: at most 1024"},
		{"N beyond HPL's int", edit(6, "29 2147483648 34 35"), 0, "x.dat:6: N = 2147483648: at most 2147483647"},
		// An integer past int64 is out of range, not "not an integer" (it is one).
		{"N past int64", edit(6, "29 99999999999999999999 34 35"), 0, "x.dat:6: N = 99999999999999999999: at most 2147483647 (HPL reads it as a C int)"},
		{"count past int64", edit(5, "99999999999999999999"), 0, "x.dat:5: number of N values = 99999999999999999999: at most 2147483647"},
		{"P below int64", edit(11, "-99999999999999999999 2 1"), 0, "x.dat:11: P = -99999999999999999999: at least -2147483648 (HPL reads it as a C int)"},
		{"device past int64", edit(4, "99999999999999999999 device"), 0, "x.dat:4: device out = 99999999999999999999: at most 2147483647"},
		// Every integer of HPL.dat is a C int HPL reads with atoi, which wraps
		// NB = 99999999999 to 1215752191: emu ran NB 99999999999 and printed it.
		{"NB beyond HPL's int", edit(8, "1 2 99999999999 4"), 0, "x.dat:8: NB = 99999999999: at most 2147483647 (HPL reads it as a C int)"},
		{"NBMIN beyond HPL's int", edit(17, "2147483648 4"), 0, "x.dat:17: NBMIN = 2147483648: at most 2147483647"},
		{"swap threshold beyond HPL's int", edit(27, "-2147483649 thr"), 0, "x.dat:27: swapping threshold = -2147483649: at least -2147483648"},
		{"alignment beyond HPL's int", edit(31, "4294967304 align"), 0, "x.dat:31: alignment = 4294967304: at most 2147483647"},
		{"grid too large", strings.Join(good, "\n"), 3, "x.dat:12: a 4-process grid needs more ranks than the 3"},
		// A binary file (an execution graph given to --hpl-dat) quoted its
		// tokens whole, a screenful of escapes on one line (qa57).
		{"binary", "EMUGRAPH\x02\x00\x01\x00\xbf\x9a\n\x00\x00\n", 0, "x.dat:1: a NUL byte: binary data, not an HPL.dat (31 lines of text)"},
		{"NUL in line 31", strings.Join(good[:30], "\n") + "\n8\x00\n", 0, "x.dat:31: a NUL byte"},
		{"long token", edit(6, "29 "+strings.Repeat("x", 300)+" 34 35"), 0, `x.dat:6: N: "xxxxxxxxxxxxxxxxxxxxxxxx"… is not an integer`},
		{"no output file for device 8", strings.Join(append(append(append([]string(nil), good[:2]...), "", "8 device out"), good[4:]...), "\n"), 0,
			"x.dat:3: output file name: empty, but line 4's device 8 sends the report to it"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.data), "x.dat", tt.ranks)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q...", tt.name, err, tt.want)
		}
	}
}

func TestParseFallbacks(t *testing.T) {
	// hpl.md §1: swapping threshold ≤ 0 → 0, ALIGN ≤ 0 → 4; CRLF line ends are fine.
	good := strings.Split(strings.TrimSuffix(string(readFile(t, "testdata/shipped.dat")), "\n"), "\n")
	good[26], good[30] = "-5", "0"
	d, err := Parse([]byte(strings.Join(good, "\r\n")), "x.dat", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.SwapThreshold != 0 || d.Alignment != 4 {
		t.Errorf("threshold %d alignment %d; want 0 and 4", d.SwapThreshold, d.Alignment)
	}
}

// TestParseThresholdAsAtof: HPL 2.3 reads the threshold with atof, so a
// number past a double is ±inf, as "inf" is; emu said `"1e999" is not a
// number` while it took "inf".
func TestParseThresholdAsAtof(t *testing.T) {
	good := strings.Split(strings.TrimSuffix(string(readFile(t, "testdata/shipped.dat")), "\n"), "\n")
	for _, tc := range []struct {
		line string
		want float64
	}{
		{"inf threshold", math.Inf(1)}, {"1e999 threshold", math.Inf(1)}, {"-1e999", math.Inf(-1)}, {"1e-999", 0}, {"16.0", 16},
	} {
		l := append([]string(nil), good...)
		l[12] = tc.line
		d, err := Parse([]byte(strings.Join(l, "\n")), "x.dat", 0)
		if err != nil || d.Threshold != tc.want {
			t.Errorf("%q: threshold %v (%v), want %v", tc.line, d.Threshold, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(readFile(f, "testdata/shipped.dat"), 4)
	files, _ := filepath.Glob(filepath.Join(peersDir, "hpl_dat", "*.dat"))
	for _, file := range files[:min(3, len(files))] {
		f.Add(readFile(f, file), 16)
	}
	f.Add([]byte("a\nb\nc\n6\n1\n-1\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, ranks int) {
		d, err := Parse(data, "f.dat", ranks)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "f.dat") {
				t.Fatalf("error %q: want one line naming f.dat", msg)
			}
			return
		}
		for _, p := range d.Tests() {
			if err := p.Validate(); err != nil {
				t.Fatalf("accepted a test HPL rejects: %v", err)
			}
			if ranks > 0 && p.P*p.Q > ranks {
				t.Fatalf("grid %dx%d accepted with %d ranks", p.P, p.Q, ranks)
			}
		}
		for _, note := range CursorNotes(data, "f.dat", nil) {
			if strings.Contains(note, "\n") || !strings.HasPrefix(note, "f.dat:") {
				t.Fatalf("note %q: want one line naming f.dat and its line", note)
			}
		}
	})
}

// TestParseIgnoresBytesAfterLine31 checks that what follows line 31, which
// HPL never reads (hpcc keeps its PTRANS lines there), may be anything, a
// NUL byte included: only the significant lines are held to being text.
func TestParseIgnoresBytesAfterLine31(t *testing.T) {
	good := strings.TrimSuffix(string(readFile(t, "testdata/shipped.dat")), "\n")
	lines := strings.Split(good, "\n")
	for _, tail := range []string{"", "\n", "\n##### line 32\n\x00\x01binary", "\n\x00"} {
		data := strings.Join(lines[:31], "\n") + tail
		if _, err := Parse([]byte(data), "x.dat", 0); err != nil {
			t.Errorf("tail %q: %v", tail, err)
		}
	}
}

// TestParseThirtyLines: a file without line 31 (the alignment), as some
// HPL.dat files are, runs under a real HPL 2.3, whose fgets at the end of the
// file leaves line 30 in its buffer: the equilibration's 1 is read again as
// the alignment, its 0 falls back to 4 (HPL_pdinfo.c, lines 603-605). emu
// takes the same and says so in a note.
func TestParseThirtyLines(t *testing.T) {
	good := strings.Split(strings.TrimSuffix(string(readFile(t, "testdata/shipped.dat")), "\n"), "\n")
	for _, c := range []struct {
		name, equil, end string
		want             int
	}{
		{"equilibration 1", "1 Equilibration (0=no,1=yes)", "\n", 1},
		{"equilibration 0", "0 Equilibration (0=no,1=yes)", "\n", 4},
		{"no last newline", "1", "", 1},
		{"CRLF", "0", "\r\n", 4},
	} {
		l := append([]string(nil), good[:30]...)
		l[29] = c.equil
		sep := "\n"
		if c.end == "\r\n" {
			sep = "\r\n"
		}
		data := []byte(strings.Join(l, sep) + c.end)
		d, err := Parse(data, "x.dat", 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d.Alignment != c.want {
			t.Errorf("%s: alignment %d, want %d", c.name, d.Alignment, c.want)
		}
		want := []string{fmt.Sprintf("x.dat:31: the alignment line is missing; a real HPL 2.3 reads line 30 again in its place, so emu takes the alignment HPL does: %d", c.want)}
		if got := CursorNotes(data, "x.dat", nil); !slices.Equal(got, want) {
			t.Errorf("%s: notes %q, want %q", c.name, got, want)
		}
	}
	// 29 lines stay an error: HPL would read line 29 again twice.
	if _, err := Parse([]byte(strings.Join(good[:29], "\n")+"\n"), "x.dat", 0); err == nil || !strings.HasPrefix(err.Error(), "x.dat:30: missing line 30") {
		t.Errorf("29 lines: %v", err)
	}
}
