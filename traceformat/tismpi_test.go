package traceformat

import (
	"strings"
	"testing"
)

// TestSMPIWriterForms: lines as SMPI's own tracer (smpirun -trace-ti) writes
// them, which its replayer reads, parse into the action they stand for. Each
// case is rank 0's first line of a two-rank trace whose rank 1 posts what
// makes it well formed.
func TestSMPIWriterForms(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		kind       TIKind
		bytes      int64
	}{
		// MPI_Waitall's trace line carries its request count (CpuTIData); the
		// replayer ignores it.
		{"waitall with its count", "0 waitall 3", TIWaitall, 0},
		{"waitall bare", "0 waitall", TIWaitall, 0},
		// Datatype ids past MPI_BYTE (SimGrid's smpi_datatype.cpp table), sizes
		// on LP64 by hand: a count times the C type's sizeof.
		{"MPI_LONG_LONG", "0 send 1 0 10 7", TISend, 80},
		{"MPI_UNSIGNED", "0 send 1 0 10 11", TISend, 40},
		{"MPI_LONG_DOUBLE", "0 isend 1 0 10 14", TIIsend, 160},
		{"MPI_INT64_T", "0 bcast 10 0 20", TIBcast, 80},
		{"MPI_C_DOUBLE_COMPLEX", "0 allreduce 10 5 26", TIAllreduce, 160},
		{"MPI_DOUBLE_INT (double + int, padded)", "0 allreduce 3 1 32", TIAllreduce, 48},
		{"MPI_SHORT_INT (short, pad, int)", "0 reduce 3 1 0 33", TIReduce, 24},
		{"MPI_LONG_DOUBLE_INT", "0 allreduce 1 1 50", TIAllreduce, 32},
		{"MPI_INTEGER8", "0 send 1 0 2 48", TISend, 16},
		{"MPI_PACKED", "0 send 1 0 100 57", TISend, 100},
		{"MPI_COUNT", "0 send 1 0 2 59", TISend, 16},
		{"MPI_DATATYPE_NULL", "0 send 1 0 100 -1", TISend, 0},
		{"allgatherv, send type MPI_DATATYPE_NULL", "0 allgatherv 5 2 3 -1 0", TIAllgatherv, 0},
		{"irecv from MPI_ANY_SOURCE, MPI_ANY_TAG (SMPI's -555, -444)", "0 irecv -555 -444 8", TIIrecv, 8},
		{"gather with two types, the send's counts", "0 gather 4 8 0 21 20", TIGather, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ParseTI(strings.NewReader(tc.line+"\n1 compute 1\n"), "t.txt")
			if err != nil {
				t.Fatal(err)
			}
			a := tr.TI.Chunks(0)[0][0]
			if a.Kind != tc.kind || a.Bytes != tc.bytes {
				t.Errorf("%q: %v of %d bytes, want %v of %d", tc.line, a.Kind, a.Bytes, tc.kind, tc.bytes)
			}
			if strings.Contains(tc.line, "-444") && (a.Tag != AnyTag || a.Peer != AnyTag) {
				t.Errorf("%q: source %d tag %d, want the wildcards %d", tc.line, a.Peer, a.Tag, AnyTag)
			}
		})
	}
}

// TestZeroSized: SMPI's tracer writes a derived datatype as -1, whose
// messages then carry 0 bytes; the trace counts the lines that give a
// count > 0 of a size-0 datatype (a sendRecv with two once) and keeps the
// first, for the run's note. A count of 0, or of MPI_BYTE, is not one.
func TestZeroSized(t *testing.T) {
	const text = "0 init\n1 init\n0 send 1 11 0 -1\n1 recv 0 11 0 -1\n" + // counts 0: not counted
		"0 sendRecv 1 1 1 1 -1 -1\n1 sendRecv 1 0 1 0 -1 -1\n" + // lines 5, 6
		"0 bcast 3 0 -1\n1 bcast 3 0 -1\n" + // lines 7, 8
		"0 allgatherv 2 2 2 -1 -1\n1 allgatherv 2 2 2 -1 -1\n" + // lines 9, 10 (decoded at the end)
		"0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n1 finalize\n"
	tr, err := ParseTI(strings.NewReader(text), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n, file, line := tr.TI.ZeroSized(); n != 6 || file != "t.txt" || line != 5 {
		t.Errorf("ZeroSized = %d lines, first %s:%d; want 6, t.txt:5", n, file, line)
	}
	if tr, err = ParseTI(strings.NewReader("0 send 1 0 8 6\n1 recv 0 0 8\n"), "u.txt"); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := tr.TI.ZeroSized(); n != 0 {
		t.Errorf("MPI_BYTE: ZeroSized = %d lines, want 0", n)
	}
}

// TestTIAllreduceElement: an allreduce keeps its datatype's size (Tag), by
// which SMPI's allreduce__rab_rdb cuts the vector: the line's datatype, or
// the rank's default (MPI_BYTE; MPI_DOUBLE after "init" with an argument).
func TestTIAllreduceElement(t *testing.T) {
	for _, tc := range []struct {
		text  string
		bytes int64
		elem  int32
	}{
		{"0 allreduce 10 5\n", 10, 1},
		{"0 init\n0 allreduce 10 5 1\n0 finalize\n", 40, 4},
		{"0 init 1\n0 allreduce 10 5\n0 finalize\n", 80, 8},
		{"0 allreduce 10 5 14\n", 160, 16},
		{"0 allreduce 10 5 -1\n", 0, 0},
	} {
		tr, err := ParseTI(strings.NewReader(tc.text+"1 compute 1\n"), "t.txt")
		if err != nil {
			t.Fatal(err)
		}
		if a := tr.TI.Chunks(0)[0][0]; a.Bytes != tc.bytes || a.Tag != tc.elem {
			t.Errorf("%q: %d bytes of elements of %d, want %d of %d", tc.text, a.Bytes, a.Tag, tc.bytes, tc.elem)
		}
	}
}
