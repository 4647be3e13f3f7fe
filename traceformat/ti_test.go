package traceformat

import (
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
		{"waitall count not a number", "0 waitall x\n", "t.txt:1: waitall's request count \"x\""},
		{"waitall two arguments", "0 waitall 1 2\n", "t.txt:1: want 0 to 1 arguments, found 2"},
		{"bad count", "0 send 1 0 lots\n", "t.txt:1: count \"lots\": want a number ≥ 0"},
		{"negative count", "0 compute -5\n", "t.txt:1: compute's amount \"-5\": want a number ≥ 0"},
		{"endless sleep", "0 sleep 1e300\n", "t.txt:1: sleep's amount \"1e300\": at most 1e+06 s (11.6 days) an action, as a kernel call"},
		{"sleep past the bound", "0 init\n0 sleep 1000001\n", "t.txt:2: sleep's amount \"1000001\": at most 1e+06 s (11.6 days) an action, as a kernel call"},
		{"bad datatype", "0 send 1 0 8 60\n1 recv 0 0 8\n", "t.txt:1: datatype \"60\": want a SimGrid datatype id -1..59"},
		{"bad tag", "0 send 1 x 8\n", "t.txt:1: tag \"x\""},
		{"wildcard source on a send", "0 send -1 0 8\n", "t.txt:1: partner \"-1\": want a rank"},
		{"wildcard tag on a send", "0 send 1 -1 8\n", "t.txt:1: tag \"-1\""},
		{"SMPI's any tag on a send", "0 isend 1 -444 8\n", "t.txt:1: tag \"-444\": want an integer ≥ 0 (-1 or SMPI's -444, any tag, on a receive)"},
		{"truncated", "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n", "t.txt:4: rank 1's trace ends without finalize (a truncated file?)"},
		{"after finalize", "0 init\n0 finalize\n0 compute 1\n", "t.txt:3: rank 0: compute after finalize"},
		{"v-collective too short", "0 alltoallv 1 2 3\n1 alltoallv 1 2 3\n", "t.txt:1: alltoallv: want 6 to 8 arguments for 2 ranks, found 3"},
		{"v-collective root out of range", "0 gatherv 1 1 1 5\n1 gatherv 1 1 1 5\n", "t.txt:1: gatherv: root 5 out of range (the trace has ranks 0..1)"},
		{"v-collective datatype", "0 allgatherv 1 1 1 60\n1 allgatherv 1 1 1\n", "t.txt:1: datatype 60: want a SimGrid datatype id -1..59"},
		{"v-collective root -1", "0 gatherv 1 1 1 -1\n1 gatherv 1 1 1 -1\n", "t.txt:1: gatherv: argument 4 is -1: want a number ≥ 0"},
		{"v-collective count -1", "0 allgatherv 1 -1 1\n1 allgatherv 1 1 1\n", "t.txt:1: allgatherv: argument 2 is -1: want a number ≥ 0"},
		{"reducescatter flops -1", "0 reducescatter 1 1 -1\n1 reducescatter 1 1 1\n", "t.txt:1: reducescatter: argument 3 is -1: want a number ≥ 0"},
		{"empty", "\n# nothing\n", "t.txt: no action: not a TI trace"},
		// What SMPI 3.32's tracer writes that its replayer does not read: the
		// error says which MPI call made it (smpirun -trace-ti of a program
		// making the call, lines as written).
		{"MPI_Waitany", "0 init\n0 irecv 1 1 5000 0\n0 waitAny 1\n", "t.txt:3: unknown action \"waitAny\" (SMPI's tracer writes it for MPI_Waitany but SimGrid 3.32's replayer does not read it either; want init,"},
		{"MPI_Startall", "0 Startall\n", "t.txt:1: unknown action \"Startall\" (SMPI's tracer writes it for MPI_Startall (persistent requests) but"},
		{"MPI_Issend", "0 ISsend 1 7 10 0\n", "t.txt:1: unknown action \"ISsend\" (SMPI's tracer writes it for MPI_Issend but"},
		{"MPI_Iallreduce", "0 iallreduce 1000 0 0\n", "t.txt:1: unknown action \"iallreduce\" (SMPI's tracer writes it for MPI_Iallreduce, a nonblocking collective, but"},
		{"MPI_Win_fence", "0 Win_fence\n", "t.txt:1: unknown action \"Win_fence\" (SMPI's tracer writes it for MPI_Win_fence (one-sided) but"},
		{"irecv from MPI_UNDEFINED", "0 irecv -333 5 100 0\n", "t.txt:1: partner -333 is MPI_UNDEFINED: SMPI's tracer writes it for a receive from MPI_ANY_SOURCE or MPI_PROC_NULL"},
		{"send to MPI_UNDEFINED", "0 send -333 3 10 0\n", "t.txt:1: partner -333 is MPI_UNDEFINED"},
		{"wait on MPI_UNDEFINED", "0 wait -333 0 5\n", "t.txt:1: source -333 is MPI_UNDEFINED"},
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

// TestParseTornLastLine: an error on the file's last line, when that line
// has no newline, asks whether the file was cut short (a trace cut inside
// "compute" said only `unknown action "compu"`); an error elsewhere, or on
// a last line that ends its newline, does not; a trace whose last line
// lacks a newline but is whole reads.
func TestParseTornLastLine(t *testing.T) {
	const hint = " (the file's last line, without a newline: is the file cut short?)"
	for _, tc := range []struct {
		text, want string // want "" when the trace reads
		torn       bool
	}{
		{"0 init\n0 compu", `t.txt:2: unknown action "compu"`, true},
		{"0 init\n0 send 1 0", "t.txt:2: want 3 to 4 arguments, found 2", true},
		{"0 init\r\n0 compute 1e", `t.txt:2: compute's amount "1e"`, true},
		{"0 init\n0 compu\n", `t.txt:2: unknown action "compu"`, false},
		{"0 frob\n0 compute 5", `t.txt:1: unknown action "frob"`, false},
		{"0 init\n0 compute 5\n0 finalize", "", false},
	} {
		_, err := ParseTI(strings.NewReader(tc.text), "t.txt")
		switch {
		case tc.want == "":
			if err != nil {
				t.Errorf("%q: %v", tc.text, err)
			}
		case err == nil:
			t.Errorf("%q: no error, want %q", tc.text, tc.want)
		case !strings.HasPrefix(err.Error(), tc.want) || strings.HasSuffix(err.Error(), hint) != tc.torn:
			t.Errorf("%q: error %q, want %q (with the hint: %v)", tc.text, err, tc.want, tc.torn)
		}
	}
}

// zeros reads as /dev/zero does: a line that never ends.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) { clear(b); return len(b), nil }

// TestParseEndlessLine: a TI index naming /dev/zero (or a binary file) is
// refused at its first line in words, not with bufio's "token too long".
func TestParseEndlessLine(t *testing.T) {
	_, err := ParseTI(zeros{}, "/dev/zero")
	if want := "/dev/zero:1: a line longer than 64 MiB: not a TI trace"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
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

// TestVCollectiveLayout: the v-collectives' numbers are laid out by the
// number of ranks, counts turned into bytes with the datatype given or the
// rank's default.
func TestVCollectiveLayout(t *testing.T) {
	tr, err := ParseTI(strings.NewReader(strings.Join([]string{
		"0 init 1", // MPI_DOUBLE by default
		"0 alltoallv 10 1 2 3 10 4 5 6",
		"1 scatterv 1 2 3 7 2 1", // root 2, MPI_INT
		"2 reducescatter 1 2 3 99",
		"2 gatherv 4 1 1 1 1 6 6", // root 1, MPI_BYTE
		"0 finalize",
	}, "\n")+"\n"), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	x := tr.TI
	at := func(r, i int) TIAction { return x.Chunks(r)[0][i] }
	counts := func(a TIAction) []int64 { return x.Counts(&a) }
	if a := at(0, 0); !reflect.DeepEqual(counts(a), []int64{8, 16, 24}) {
		t.Errorf("alltoallv counts %v, want 1, 2, 3 doubles", counts(a))
	}
	if a := at(1, 0); a.Peer != 2 || !reflect.DeepEqual(counts(a), []int64{4, 8, 12}) {
		t.Errorf("scatterv root %d counts %v, want root 2 and 1, 2, 3 ints", a.Peer, counts(a))
	}
	if a := at(2, 0); a.Flops != 99 || !reflect.DeepEqual(counts(a), []int64{1, 2, 3}) {
		t.Errorf("reducescatter flops %g counts %v", a.Flops, counts(a))
	}
	if a := at(2, 1); a.Peer != 1 || a.Bytes != 4 {
		t.Errorf("gatherv root %d send %d bytes, want root 1 and 4 bytes", a.Peer, a.Bytes)
	}
}
