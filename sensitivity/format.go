package sensitivity

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
)

// The graph file format (all integers unsigned LEB128 varints unless said):
//
//	magic "EMUGRAPH" (8 bytes), version (2; 1 is read too)
//	ranks, vertices, edges, multi-term edges
//	version ≥ 2: number of baseline latencies, then each (float)
//	per vertex, in topological order: rank, kind (1 byte), cost (float)
//	per vertex: in-degree, then per in-edge: v−from−1, rest (float),
//	    bytes (float), latency word (the packed form of graph.go)
//	per multi-term edge: number of terms, then per term: class (1 byte), count
//	CRC-32C of everything after the magic (4 bytes, little endian)
//
// A float is the varint of its IEEE bits with the bytes reversed, so that
// 0 takes one byte and round numbers (5000 ns, 1e-6 s) a few; it is exact.
const (
	graphMagic   = "EMUGRAPH"
	graphVersion = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func floatWord(f float64) uint64 { return bits.ReverseBytes64(math.Float64bits(f)) }
func wordFloat(w uint64) float64 { return math.Float64frombits(bits.ReverseBytes64(w)) }

// fileWriter buffers, counts and checksums what it writes.
type fileWriter struct {
	w   io.Writer
	buf []byte
	n   int64
	crc uint32
	err error
}

func (fw *fileWriter) flush() {
	if fw.err == nil && len(fw.buf) > 0 {
		fw.crc = crc32.Update(fw.crc, castagnoli, fw.buf)
		var k int
		k, fw.err = fw.w.Write(fw.buf)
		fw.n += int64(k)
	}
	fw.buf = fw.buf[:0]
}

func (fw *fileWriter) uvarint(x uint64) {
	fw.buf = binary.AppendUvarint(fw.buf, x)
	if len(fw.buf) >= 1<<16 {
		fw.flush()
	}
}

func (fw *fileWriter) byte1(c byte) { fw.buf = append(fw.buf, c) }

// WriteTo writes the graph in the binary graph format (see format.go).
func (g *Graph) WriteTo(w io.Writer) (int64, error) {
	fw := &fileWriter{w: w, buf: make([]byte, 0, 1<<16+32)}
	k, err := io.WriteString(w, graphMagic)
	fw.n = int64(k)
	if err != nil {
		return fw.n, err
	}
	nmulti := len(g.multiStart) - 1
	if len(g.multiStart) == 0 {
		nmulti = 0
	}
	for _, x := range []uint64{graphVersion, uint64(g.ranks), uint64(g.vRank.len()), uint64(g.eFrom.len()), uint64(nmulti)} {
		fw.uvarint(x)
	}
	fw.uvarint(uint64(len(g.baseline)))
	for _, l := range g.baseline {
		fw.uvarint(floatWord(l))
	}
	nv := g.vRank.len()
	for v := range nv {
		fw.uvarint(uint64(g.vRank.at(v)))
		fw.byte1(byte(g.vtab.kind[g.vPay.at(v)]))
		fw.uvarint(floatWord(g.vtab.cost[g.vPay.at(v)]))
	}
	for v := range nv {
		first, end := g.inStart.at(v), g.inStart.at(v+1)
		fw.uvarint(uint64(end - first))
		for e := first; e < end; e++ {
			fw.uvarint(uint64(int32(v) - g.eFrom.at(int(e)) - 1))
			k := g.ePay.at(int(e))
			fw.uvarint(floatWord(g.pay.rest[k]))
			fw.uvarint(floatWord(g.pay.bytes[k]))
			fw.uvarint(uint64(g.pay.lat[k]))
		}
	}
	for k := 0; k < nmulti; k++ {
		terms := g.multi[g.multiStart[k]:g.multiStart[k+1]]
		fw.uvarint(uint64(len(terms)))
		for _, t := range terms {
			fw.byte1(t.Class)
			fw.uvarint(uint64(t.Count))
		}
	}
	fw.flush()
	if fw.err != nil {
		return fw.n, fw.err
	}
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], fw.crc)
	k, err = w.Write(tail[:])
	return fw.n + int64(k), err
}

// fileReader buffers, checksums and tracks the offset of what it reads.
type fileReader struct {
	r      io.Reader
	buf    []byte
	i, n   int
	hashed int // buf[:hashed] is already in crc
	crc    uint32
	off    int64 // offset of buf[0] in the file
	err    error
}

func (fr *fileReader) ReadByte() (byte, error) {
	if fr.i == fr.n {
		fr.fill()
		if fr.i == fr.n {
			return 0, fr.err
		}
	}
	c := fr.buf[fr.i]
	fr.i++
	return c, nil
}

func (fr *fileReader) fill() {
	fr.crc = crc32.Update(fr.crc, castagnoli, fr.buf[fr.hashed:fr.i])
	fr.off += int64(fr.n)
	fr.i, fr.n, fr.hashed = 0, 0, 0
	if fr.err != nil {
		return
	}
	for fr.n == 0 && fr.err == nil {
		fr.n, fr.err = fr.r.Read(fr.buf)
	}
	if fr.err == io.EOF && fr.n > 0 {
		fr.err = nil
	}
}

// sum is the checksum of everything consumed so far.
func (fr *fileReader) sum() uint32 {
	fr.crc = crc32.Update(fr.crc, castagnoli, fr.buf[fr.hashed:fr.i])
	fr.hashed = fr.i
	return fr.crc
}

func (fr *fileReader) offset() int64 { return fr.off + int64(fr.i) }

// FormatError says what is wrong with a graph file and where.
type FormatError struct {
	Offset int64 // byte offset in the file where the problem was noticed
	What   string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("sensitivity: graph file, byte %d: %s", e.Offset, e.What)
}

// decoder reads the fields of a graph file, stopping at the first error.
type decoder struct {
	fr  *fileReader
	err error
	// header is set while the header (magic to baseline latencies) is
	// read: a file that ends there is named a truncated header.
	header bool
}

// ends is the error of a file that ends inside what.
func (d *decoder) ends(what string) {
	if d.header {
		d.failf("truncated header: the file ends inside the %s", what)
		return
	}
	d.failf("file ends inside %s (truncated?)", what)
}

func (d *decoder) failf(format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{Offset: d.fr.offset(), What: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	x, err := binary.ReadUvarint(d.fr)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			d.ends(what)
		} else if d.fr.err != nil && !errors.Is(d.fr.err, io.EOF) {
			d.failf("reading %s: %v", what, d.fr.err)
		} else {
			d.failf("%s: bad varint: %v", what, err)
		}
	}
	return x
}

func (d *decoder) byte1(what string) byte {
	if d.err != nil {
		return 0
	}
	c, err := d.fr.ReadByte()
	if err != nil {
		d.ends(what)
	}
	return c
}

// bounded reads a count that must not exceed limit.
func (d *decoder) bounded(what string, limit uint64) int {
	x := d.uvarint(what)
	if x > limit {
		d.failf("%s = %d, more than %d", what, x, limit)
		return 0
	}
	return int(x)
}

// preallocation caps what a header may make us allocate before the data
// behind it has been seen, so that a corrupt count cannot exhaust memory.
const preallocation = 1 << 20

// ReadGraph reads a graph written by WriteTo, checking every field, the
// topological order and the checksum. Its vertex and edge arrays grow in
// blocks (column.go), with no copy of what they hold and no room made for
// the header's counts before the data is there, so a corrupt header cannot
// exhaust memory.
func ReadGraph(r io.Reader) (*Graph, error) {
	fr := &fileReader{r: r, buf: make([]byte, 1<<16)}
	d := &decoder{fr: fr, header: true}
	var magic []byte
	for range len(graphMagic) {
		c, err := fr.ReadByte()
		if err != nil {
			break
		}
		magic = append(magic, c)
	}
	switch {
	case fr.err != nil && !errors.Is(fr.err, io.EOF):
		return nil, &FormatError{int64(len(magic)), fmt.Sprintf("reading the magic number: %v", fr.err)}
	case len(magic) == 0:
		return nil, &FormatError{0, "empty file, not an emu graph file"}
	case string(magic) != graphMagic[:len(magic)]:
		return nil, &FormatError{0, fmt.Sprintf("magic %q, want %q: not an emu graph file", magic, graphMagic)}
	case len(magic) < len(graphMagic):
		return nil, &FormatError{int64(len(magic)), fmt.Sprintf("truncated header: the file ends inside the magic number %q", graphMagic)}
	}
	fr.sum()
	fr.crc = 0 // the checksum starts after the magic
	version := d.uvarint("version")
	if d.err == nil && (version < 1 || version > graphVersion) {
		if _, err := fr.ReadByte(); err != nil {
			// "EMUGRAPH\n": the one byte after the magic is no version
			// (a newline read as 10), and the header ends there.
			d.failf("truncated header: the file ends after the magic and one byte (%d, no version: this reader knows 1..%d)", version, graphVersion)
		} else {
			d.failf("version %d, this reader knows 1..%d", version, graphVersion)
		}
	}
	g := &Graph{classes: 1}
	g.ranks = d.bounded("ranks", math.MaxInt32)
	nv := d.bounded("vertex count", math.MaxInt32)
	if d.err == nil && g.ranks == 0 && nv > 0 {
		d.failf("0 ranks but %d vertices", nv)
	}
	ne := d.bounded("edge count", math.MaxInt32)
	nmulti := d.bounded("multi-term edge count", maxTermCount+1)
	if version >= 2 {
		nb := d.bounded("baseline latency count", MaxClass+1)
		for c := 0; c < nb && d.err == nil; c++ {
			l := wordFloat(d.uvarint("baseline latency"))
			if d.err == nil && (!(l >= 0) || math.IsInf(l, 1)) {
				d.failf("baseline latency of class %d: %v s, want finite and ≥ 0", c, l)
			}
			g.baseline = append(g.baseline, l)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	d.header = false
	d.vertices(g, nv)
	d.edges(g, nv, ne, nmulti)
	d.multis(g, nmulti)
	if d.err != nil {
		return nil, d.err
	}
	want := fr.sum()
	var tail [4]byte
	for i := range tail {
		tail[i] = d.byte1("the checksum")
	}
	if d.err != nil {
		return nil, d.err
	}
	if got := binary.LittleEndian.Uint32(tail[:]); got != want {
		return nil, &FormatError{fr.offset() - 4, fmt.Sprintf("checksum %08x, content sums to %08x: the file is corrupt", got, want)}
	}
	// A graph ends at its checksum: more bytes are another file joined to
	// it (cat a.graph b.graph), which would be read as the first alone.
	if _, err := fr.ReadByte(); err == nil {
		return nil, &FormatError{fr.offset() - 1, "bytes after the graph's checksum: more than one graph, or another file joined to it"}
	}
	return g, nil
}

func (d *decoder) vertices(g *Graph, nv int) {
	g.vRank.reserve(nv)
	g.vPay.reserve(nv)
	vtab := newVertexTable()
	for v := 0; v < nv && d.err == nil; v++ {
		rank := d.uvarint("vertex rank")
		if d.err == nil && rank >= uint64(g.ranks) {
			d.failf("vertex %d: rank %d outside 0..%d", v, rank, g.ranks-1)
		}
		kind := Kind(d.byte1("vertex kind"))
		if d.err == nil && kind >= numKinds {
			d.failf("vertex %d: unknown kind %d", v, kind)
		}
		cost := wordFloat(d.uvarint("vertex cost"))
		if d.err == nil && (!(cost >= 0) || math.IsInf(cost, 1)) {
			d.failf("vertex %d: cost %v s, want finite and ≥ 0", v, cost)
		}
		g.vRank.append(int32(rank))
		g.vPay.append(vtab.add(kind, cost))
	}
	g.vtab = vtab.vertexPayloads
}

func (d *decoder) edges(g *Graph, nv, ne, nmulti int) {
	g.inStart.reserve(nv + 1)
	g.inStart.append(0)
	g.eFrom.reserve(ne)
	g.ePay.reserve(ne)
	pay := newPayTable()
	for v := 0; v < nv && d.err == nil; v++ {
		deg := d.bounded("in-degree", uint64(ne-g.eFrom.len()))
		for k := 0; k < deg && d.err == nil; k++ {
			back := d.uvarint("edge source")
			if d.err == nil && back >= uint64(v) {
				d.failf("vertex %d, in-edge %d: source %d back does not precede it", v, k, back+1)
			}
			rest := wordFloat(d.uvarint("edge rest"))
			if d.err == nil && (math.IsNaN(rest) || math.IsInf(rest, 0)) {
				d.failf("vertex %d, in-edge %d: rest %v s is not finite", v, k, rest)
			}
			by := wordFloat(d.uvarint("edge bytes"))
			if d.err == nil && (!(by >= 0) || math.IsInf(by, 1)) {
				d.failf("vertex %d, in-edge %d: bytes %v, want finite and ≥ 0", v, k, by)
			}
			word := d.uvarint("edge latency")
			switch {
			case d.err != nil:
			case word > math.MaxUint32:
				d.failf("vertex %d, in-edge %d: latency word %#x too large", v, k, word)
			case word>>24 == multiClass && int(word&maxTermCount) >= nmulti:
				d.failf("vertex %d, in-edge %d: multi-term index %d, only %d", v, k, word&maxTermCount, nmulti)
			case word != 0 && word>>24 != multiClass && word&maxTermCount == 0:
				d.failf("vertex %d, in-edge %d: latency term with count 0", v, k)
			case word != 0 && word>>24 != multiClass:
				g.classes = max(g.classes, int(word>>24)+1)
			}
			g.eFrom.append(int32(v) - int32(back) - 1)
			g.ePay.append(pay.add(rest, by, uint32(word)))
		}
		g.inStart.append(int32(g.eFrom.len()))
	}
	g.pay = pay.payloads
	if d.err == nil && g.eFrom.len() != ne {
		d.failf("%d edges, header says %d", g.eFrom.len(), ne)
	}
}

func (d *decoder) multis(g *Graph, nmulti int) {
	g.multiStart = make([]int32, 1, min(nmulti, preallocation)+1)
	for k := 0; k < nmulti && d.err == nil; k++ {
		n := d.bounded("term count", MaxClass+1)
		if d.err == nil && n < 2 {
			d.failf("multi-term edge %d has %d terms, want ≥ 2", k, n)
		}
		for j := 0; j < n && d.err == nil; j++ {
			class := d.byte1("term class")
			count := d.uvarint("term count")
			switch {
			case d.err != nil:
			case class > MaxClass:
				d.failf("multi-term edge %d: class %d > %d", k, class, MaxClass)
			case count == 0 || count > maxTermCount:
				d.failf("multi-term edge %d: count %d outside 1..%d", k, count, maxTermCount)
			}
			g.multi = append(g.multi, LatTerm{Class: class, Count: int32(count)})
			g.classes = max(g.classes, int(class)+1)
		}
		g.multiStart = append(g.multiStart, int32(len(g.multi)))
	}
}
