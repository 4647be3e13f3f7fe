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
		})
	}
}
