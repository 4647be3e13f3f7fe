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
