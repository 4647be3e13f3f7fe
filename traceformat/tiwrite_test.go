package traceformat

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sameTI reports where a and b differ, but for file names and lines.
func sameTI(a, b *TI) string {
	if a.Ranks() != b.Ranks() || a.n != b.n {
		return fmt.Sprintf("ranks %d/%d, actions %d/%d", a.Ranks(), b.Ranks(), a.n, b.n)
	}
	for r := range a.Ranks() {
		var x, y []TIAction
		for _, c := range a.Chunks(r) {
			x = append(x, c...)
		}
		for _, c := range b.Chunks(r) {
			y = append(y, c...)
		}
		if len(x) != len(y) {
			return fmt.Sprintf("rank %d: %d actions, %d", r, len(x), len(y))
		}
		for i := range x {
			p, q := x[i], y[i]
			p.Line, q.Line = 0, 0
			switch p.Kind {
			case TIAlltoallv, TIScatterv, TIReducescatter:
				if !slices.Equal(a.Counts(&x[i]), b.Counts(&y[i])) {
					return fmt.Sprintf("rank %d action %d (%v): counts %v, %v", r, i, p.Kind, a.Counts(&x[i]), b.Counts(&y[i]))
				}
				p.Bytes, q.Bytes = 0, 0 // offsets into the counts
			}
			if p != q {
				return fmt.Sprintf("rank %d action %d: %+v, %+v", r, i, p, q)
			}
		}
	}
	return ""
}

// tiEvery holds every action TI keeps, with datatypes, wildcards and
// per-rank default datatypes (rank 0 in doubles).
const tiEvery = `0 init 1
1 init
2 init
0 isend 1 7 10
1 irecv -555 -1 80
0 wait 0 1 7
1 wait -1 1 -1
0 send 2 3 5 2
2 recv 0 3 5 2
1 sendrecv 16 2 16 2
2 sendrecv 16 1 16 1
0 waitall
1 test 1 0 0
0 barrier
1 barrier
2 barrier
0 bcast 3 2
1 bcast 24 2 2
2 bcast 24 2 2
0 reduce 4 1e6 1
1 reduce 32 1e6 1 2
2 reduce 32 2.5e-3 1
0 allreduce 2 10
1 allreduce 16 10 1
2 scan 16 0.5
2 exscan 16 0
0 alltoall 1 1
1 alltoall 8 8 4
2 allgather 8 8
0 gather 1 1 2
1 scatter 8 8 0 1 1
0 gatherv 2 1 1 1 0
1 allgatherv 4 1 2 3 1 1
2 scatterv 1 2 3 1 1 4
0 alltoallv 6 1 2 3 6 1 2 3
1 alltoallv 6 1 2 3 6 1 2 3 2 2
2 reducescatter 1 2 3 7.25
0 compute 1234567.5
1 sleep 0.001
0 finalize
1 finalize
2 finalize
`

// TestTIWriteRoundTrip: what TI.WriteTo writes, ParseTI reads back into the
// same actions, for every kind, datatype and wildcard (tiEvery), for a trace
// read from an index of per-rank files, and for the fuzz seeds.
func TestTIWriteRoundTrip(t *testing.T) {
	check := func(name string, tr *Trace) {
		var text bytes.Buffer
		if n, err := tr.TI.WriteTo(&text); err != nil || n != int64(text.Len()) {
			t.Fatalf("%s: WriteTo = %d, %v; wrote %d bytes", name, n, err, text.Len())
		}
		back, err := ParseTI(bytes.NewReader(text.Bytes()), name+" written")
		if err != nil {
			t.Fatalf("%s: the written trace does not parse: %v\n%s", name, err, text.String())
		}
		if d := sameTI(tr.TI, back.TI); d != "" {
			t.Errorf("%s: written and read back: %s", name, d)
		}
	}
	tr, err := ParseTI(strings.NewReader(tiEvery), "every.txt")
	if err != nil {
		t.Fatal(err)
	}
	check("every.txt", tr)
	dir := t.TempDir()
	for name, text := range map[string]string{"index.txt": "r0.txt\nr1.txt\n", "r0.txt": "0 init\n0 send 1 0 8\n0 alltoallv 2 1 1 9 1 8\n0 finalize\n", "r1.txt": "7 init 1\n7 recv 0 0 1\n7 alltoallv 2 1 1 2 1 1\n7 finalize\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = Load(filepath.Join(dir, "index.txt"), FormatAuto); err != nil {
		t.Fatal(err)
	}
	check("index.txt", tr)
}

// FuzzTIWrite: whatever ParseTI accepts, WriteTo writes back as a trace
// that parses into the same actions.
func FuzzTIWrite(f *testing.F) {
	f.Add(tiEvery)
	f.Add("0 init\n0 send 1 0 8\n1 recv 0 0 8\n")
	f.Add("0 alltoallv 4 1 1 1 1 4 1 1 1 1\n1 reducescatter 1 2 5\n")
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseTI(strings.NewReader(s), "f.txt")
		if err != nil {
			return
		}
		var text bytes.Buffer
		if _, err := tr.TI.WriteTo(&text); err != nil {
			t.Fatal(err)
		}
		back, err := ParseTI(&text, "written.txt")
		if err != nil {
			t.Fatalf("the written trace does not parse: %v", err)
		}
		if d := sameTI(tr.TI, back.TI); d != "" {
			t.Fatalf("written and read back: %s", d)
		}
	})
}
