package sensitivity

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

func TestGraphFileRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i, nv := range []int{0, 1, 2, 10, 300, 5000} {
		b := randomDAG(rng, 1+rng.IntN(8), nv, 3, 3, i%2 == 0)
		if i%3 == 1 {
			b.SetBaseline([]float64{3e-6, 0.1e-6})
		}
		g := mustBuild(t, b)
		var buf bytes.Buffer
		n, err := g.WriteTo(&buf)
		if err != nil || n != int64(buf.Len()) {
			t.Fatalf("WriteTo: %d, %v (buffer %d)", n, err, buf.Len())
		}
		h, err := ReadGraph(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("nv=%d: %v", nv, err)
		}
		sameGraph(t, g, h)
	}
}

// A header claiming the most vertices and edges in a small file is refused
// without making room for them: the arrays grow a block at a time as the
// data comes, not at the header's word.
func TestReadGraphBoundsTheHeader(t *testing.T) {
	var body []byte
	for _, x := range []uint64{graphVersion, 1, 1<<31 - 1, 1<<31 - 1, 0, 0} {
		body = binary.AppendUvarint(body, x)
	}
	file := append([]byte(graphMagic), body...)
	file = append(file, make([]byte, 64)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadGraph(bytes.NewReader(file))
	runtime.ReadMemStats(&after)
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a FormatError", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<22 { // a first block per array, not the header's 2³¹
		t.Errorf("allocated %d bytes for a %d-byte file", got, len(file))
	}
}

func TestGraphFileBytesPerEdge(t *testing.T) {
	// LogGP-like graph: ns-round costs should take a few bytes, not 8 each.
	rng := rand.New(rand.NewPCG(3, 4))
	g := mustBuild(t, randomDAG(rng, 16, 20000, 2, 1, false))
	var buf bytes.Buffer
	if _, err := g.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	perItem := float64(buf.Len()) / float64(g.NumVertices()+g.NumEdges())
	// Fixed-width arrays would take 4+1+8 bytes per vertex and 4+8+8+4 per
	// edge (about 20 per item here); rest is a random float (9–10 bytes),
	// everything else shrinks.
	const maxBytesPerItem = 16
	if perItem > maxBytesPerItem {
		t.Errorf("%.1f bytes per vertex+edge, want ≤ %d", perItem, maxBytesPerItem)
	}
}

func TestReadGraphErrors(t *testing.T) {
	g := mustBuild(t, pingPong(1e-6, 2e-6, 3e-7))
	var buf bytes.Buffer
	if _, err := g.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	// Every truncation is an error, never a panic.
	for n := 0; n < len(good); n++ {
		_, err := ReadGraph(bytes.NewReader(good[:n]))
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("prefix %d: err = %v, want a FormatError", n, err)
		}
	}
	// Every single-byte change is detected (by a field check or the checksum).
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x5a
		if _, err := ReadGraph(bytes.NewReader(bad)); err == nil {
			t.Errorf("flipping byte %d went unnoticed", i)
		}
	}
	cases := []struct{ data, want string }{
		{"EMUGRAPX", "not an emu graph file"},
		{"EMUGRAPH\x03\x01", "version 3, this reader knows 1..2"},
		{"EMUGRAPH\x02\x01\x00\x00\x00\x01\xf0\xff\x01", "baseline latency of class 0"},
		{"EMUGRAPH\x01\x00\x01", "0 ranks but 1 vertices"},
		{"EMUGRAPH\x01\x01\x01\x00\x00\x05", "rank 5 outside"},
		{"EMUGRAPH\x01\x01\x01\x00\x00\x00\x07", "unknown kind 7"},
		{"EMUGRAPH\x01\x01\x02\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00", "does not precede"},
	}
	// Two graphs joined (cat a.graph b.graph) were read as the first alone,
	// exit 0 (qa51).
	_, err := ReadGraph(bytes.NewReader(append(append([]byte(nil), good...), good...)))
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Offset != int64(len(good)) || !strings.Contains(err.Error(), "bytes after the graph's checksum") {
		t.Errorf("two graphs joined: err = %v, want a FormatError at byte %d", err, len(good))
	}
	for _, c := range cases {
		_, err := ReadGraph(strings.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.data, err, c.want)
		}
	}
}

// TestReadGraphShortHeaders: a file that ends in the header says so, at the
// byte it ends: "EMUGRAPH\n" (9 bytes, a text file's line) was read as a
// version 10 (qa46).
func TestReadGraphShortHeaders(t *testing.T) {
	cases := []struct {
		data string
		off  int64
		want string
	}{
		{"", 0, "empty file, not an emu graph file"},
		{"EMU", 3, `truncated header: the file ends inside the magic number "EMUGRAPH"`},
		{"XYZ", 0, `magic "XYZ", want "EMUGRAPH": not an emu graph file`},
		{"EMUGRAPH", 8, "truncated header: the file ends inside the version"},
		{"EMUGRAPH\n", 9, "truncated header: the file ends after the magic and one byte (10, no version: this reader knows 1..2)"},
		{"EMUGRAPH\r\n", 10, "version 13, this reader knows 1..2"},
		{"EMUGRAPH\x02", 9, "truncated header: the file ends inside the ranks"},
		{"EMUGRAPH\x02\x01\x02", 11, "truncated header: the file ends inside the edge count"},
		{"EMUGRAPH\x02\x01\x02\x01\x00\x01", 14, "truncated header: the file ends inside the baseline latency"},
		{"EMUGRAPH\x02\x01\x00\x00\x00\x00", 14, "file ends inside the checksum (truncated?)"},
	}
	for _, c := range cases {
		_, err := ReadGraph(strings.NewReader(c.data))
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != c.off || fe.What != c.want {
			t.Errorf("%q: err = %v, want byte %d: %s", c.data, err, c.off, c.want)
		}
	}
}

// TestReadGraphVersion1 reads a file of the first version (no baseline).
func TestReadGraphVersion1(t *testing.T) {
	g := mustBuild(t, pingPong(1e-6, 2e-6, 3e-7))
	var buf bytes.Buffer
	g.WriteTo(&buf)
	v2 := buf.Bytes()
	// Version 2 with an empty baseline is version 1 plus one 0 byte after the
	// counts (magic 8, version, ranks, 5 vertices, 5 edges, 0 multi = 5 bytes).
	v1 := append(append([]byte{}, v2[:8]...), 1)
	v1 = append(v1, v2[9:13]...)
	v1 = append(v1, v2[14:len(v2)-4]...)
	crc := crc32.Checksum(v1[8:], castagnoli)
	v1 = binary.LittleEndian.AppendUint32(v1, crc)
	h, err := ReadGraph(bytes.NewReader(v1))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, h)
}

func FuzzReadGraph(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, nv := range []int{0, 3, 20} {
		var buf bytes.Buffer
		mustBuild(f, randomDAG(rng, 3, nv, 3, 3, true)).WriteTo(&buf)
		f.Add(buf.Bytes())
	}
	f.Add([]byte("EMUGRAPH\x01\xff\xff\xff\xff\x07\xff\xff\xff\xff\x07"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadGraph(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on several lines: %q", err)
			}
			return
		}
		// Whatever reads must evaluate and round-trip.
		g.Runtime([]float64{1e-6})
		var buf bytes.Buffer
		if _, err := g.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		h, err := ReadGraph(&buf)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		sameGraph(t, g, h)
	})
}
