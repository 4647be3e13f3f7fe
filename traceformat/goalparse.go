package traceformat

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
)

// Parse reads a GOAL schedule as LogGOPSim's txt2bin accepts it
// (shared/reference/goal-and-llamp.md §1): a num_ranks header, then rank
// blocks 0..N−1 in order, each holding labelled or unlabelled
// send/recv/calc statements (with optional tag, cpu and nic clauses in that
// order) and requires/irequires dependencies on labels defined earlier in
// the block; // and /* */ comments where a statement could start.
//
// Parse is stricter than txt2bin where txt2bin misbehaves silently or
// crashes, and says so with the file name and line: a statement indented
// from column 0, a duplicate label, a missing, repeated or out-of-order rank
// block, a peer outside 0..N−1, numbers that do not fit (txt2bin truncates
// them), and a dependency cycle (which LogGOPSim skips without a word).
func Parse(r io.Reader, name string) (*Schedule, error) {
	p := &parser{name: name, s: &Schedule{Name: name}, curRank: -1}
	p.lr = lineReader{r: r, buf: make([]byte, 1<<20)}
	p.reserve(r)
	if err := p.run(); err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	return p.s, nil
}

// Schedgen's GOAL text runs at 60–70 bytes per op (an op line and one or
// two dependency lines of 15–25 bytes). When the reader can tell its
// length, the op and dependency arrays are reserved for more than that, at
// bytesPerOpReserve and bytesPerDepReserve, so that they never grow on
// such files: growing doubles a 0.3 GB array and copies it (on the 64×64
// stencil 0.4 s of CPU, most of it page faults). Capacity never written
// costs address space only.
const (
	bytesPerOpReserve  = 48
	bytesPerDepReserve = 32
)

// reserve sizes the op and dependency arrays from the input's length, if
// r is a file or an in-memory reader, to save the copies of growing them.
func (p *parser) reserve(r io.Reader) {
	var n int64
	switch v := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			n = st.Size()
		}
	case interface{ Len() int }:
		n = int64(v.Len())
	}
	ops := int(min(n/bytesPerOpReserve, maxOps))
	deps := int(min(n/bytesPerDepReserve, maxDeps))
	p.s.ops = make([]OpRec, 0, ops)
	p.s.line = make([]int32, 0, ops)
	p.s.predStart = make([]int32, 0, ops+1)
	p.s.succ = make([]int32, 0, deps)
	p.s.pred = make([]int32, 0, deps)
}

// parser holds the state of one Parse call. Lines are handled one at a
// time; the only state carried across lines is the open block, an open
// /* comment and the block's label table.
type parser struct {
	name string
	lr   lineReader
	s    *Schedule
	line int32 // current line, 1-based

	numRanks    int // -1 until the header is read
	haveHeader  bool
	curRank     int  // rank of the open block, -1 outside blocks
	nextRank    int  // the rank the next block must have
	inComment   bool // inside /* ... */
	commentLine int32

	labels labelTable

	// backward is set once a dependency waits for a later op of its block
	// ("l1 requires l4"); only then can there be a cycle to look for.
	backward bool

	// The open block's dependencies in file order (requires and
	// irequires), grouped into the Schedule's lists when it closes
	// (block.go); blockFirst is its first op.
	blockFirst  int32
	deps, ideps []dep
	count       []int32 // scratch of the grouping
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// run reads the input line by line.
func (p *parser) run() error {
	for {
		line, err := p.readLine()
		if p.line == 0 {
			// A UTF-8 byte order mark, which some editors save, is not text.
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if len(line) > 0 || err == nil {
			p.line++
			if perr := p.parseLine(line); perr != nil {
				return perr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", p.name, p.line, err)
		}
	}
}

func (p *parser) readLine() ([]byte, error) { return p.lr.next() }

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// lineReader splits its input into lines over one buffer that grows to the
// longest line: cheaper per line than bufio.Reader.ReadSlice, which
// matters at 20 M lines.
type lineReader struct {
	r          io.Reader
	buf        []byte
	start, end int   // unread bytes are buf[start:end]
	err        error // the error that ended the input, once seen
}

// next returns the next line without its "\n" or "\r\n", valid until the
// next call; the last line comes with the input's final error (io.EOF).
func (l *lineReader) next() ([]byte, error) {
	for {
		if i := bytes.IndexByte(l.buf[l.start:l.end], '\n'); i >= 0 {
			b := l.buf[l.start : l.start+i]
			l.start += i + 1
			if n := len(b); n > 0 && b[n-1] == '\r' {
				b = b[:n-1]
			}
			return b, nil
		}
		if l.err != nil {
			b := l.buf[l.start:l.end]
			l.start = l.end
			return b, l.err
		}
		if l.start > 0 {
			l.end = copy(l.buf, l.buf[l.start:l.end])
			l.start = 0
		}
		if l.end == len(l.buf) {
			l.buf = append(l.buf, make([]byte, len(l.buf))...)
		}
		n, err := l.r.Read(l.buf[l.end:])
		l.end += n
		if err != nil {
			l.err = err
		}
	}
}

func isBlank(c byte) bool  { return c == ' ' || c == '\t' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isIdent(c byte) bool  { return isLetter(c) || isDigit(c) || c == '_' }

func skipBlanks(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	return b
}

// parseLine handles one line; a line may hold comments and at most one
// statement.
func (p *parser) parseLine(b []byte) error {
	for {
		if p.inComment {
			i := indexOf(b, "*/")
			if i < 0 {
				return nil
			}
			p.inComment = false
			b = b[i+2:]
			if len(skipBlanks(b)) == 0 {
				return nil
			}
		}
		rest := skipBlanks(b)
		switch {
		case len(rest) == 0:
			return nil // blank line
		case len(rest) != len(b):
			return p.errorf("statement does not start in column 0 (txt2bin drops the first character after leading blanks)")
		case hasPrefix(b, "//"):
			return nil
		case hasPrefix(b, "/*"):
			p.inComment, p.commentLine = true, p.line
			b = b[2:]
			continue
		}
		return p.statement(b)
	}
}

// statement parses a non-comment statement starting in column 0.
func (p *parser) statement(b []byte) error {
	if b[0] == '}' {
		if p.curRank < 0 {
			return p.errorf("'}' outside a rank block")
		}
		if err := p.endOfLine(b[1:], "'}'"); err != nil {
			return err
		}
		return p.closeBlock()
	}
	if !isLetter(b[0]) {
		return p.errorf("unexpected %q at the start of a statement", b[0])
	}
	if done, err := p.numberedLabel(b); done {
		return err
	}
	word, rest := ident(b)
	switch string(word) {
	case "num_ranks":
		return p.header(rest)
	case "rank":
		return p.openBlock(rest)
	case "send":
		return p.op(nil, -1, OpSend, rest)
	case "recv":
		return p.op(nil, -1, OpRecv, rest)
	case "calc":
		return p.op(nil, -1, OpCalc, rest)
	}
	// A label: "LABEL: op" or "LABEL requires|irequires LABEL".
	rest = skipBlanks(rest)
	if len(rest) > 0 && rest[0] == ':' {
		rest = skipBlanks(rest[1:])
		kw, after := ident(rest)
		switch string(kw) {
		case "send":
			return p.op(word, -1, OpSend, after)
		case "recv":
			return p.op(word, -1, OpRecv, after)
		case "calc":
			return p.op(word, -1, OpCalc, after)
		}
		if len(kw) == 0 {
			return p.errorf("label %q: want send, recv or calc after ':'", word)
		}
		return p.errorf("unknown operation %q (want send, recv or calc)", kw)
	}
	switch {
	case hasPrefix(rest, "requires"):
		return p.dependency(word, rest[len("requires"):], false)
	case hasPrefix(rest, "irequires"):
		return p.dependency(word, rest[len("irequires"):], true)
	}
	return p.errorf("unknown operation %q (want send, recv, calc, LABEL: op or LABEL requires LABEL)", word)
}

// ident splits a leading identifier [a-zA-Z][a-zA-Z0-9_]* off b.
func ident(b []byte) (word, rest []byte) {
	if len(b) == 0 || !isLetter(b[0]) {
		return nil, b
	}
	i := 1
	for i < len(b) && isIdent(b[i]) {
		i++
	}
	return b[:i], b[i:]
}

// endOfLine checks that only blanks follow what.
func (p *parser) endOfLine(b []byte, what string) error {
	if b = skipBlanks(b); len(b) > 0 {
		return p.errorf("unexpected %q after %s (one statement per line, no trailing comments)", clip(b), what)
	}
	return nil
}

func (p *parser) header(b []byte) error {
	if p.haveHeader {
		return p.errorf("second num_ranks")
	}
	n, rest, err := p.number(b, "the number of ranks")
	if err != nil {
		return err
	}
	if n < 1 || n > math.MaxInt32-1 {
		return p.errorf("num_ranks %d, want 1..%d", n, math.MaxInt32-1)
	}
	if err := p.endOfLine(rest, "num_ranks"); err != nil {
		return err
	}
	p.haveHeader, p.numRanks = true, int(n)
	// Capacity grows with the blocks actually read: a huge num_ranks alone
	// must not allocate (found by FuzzParse).
	p.s.rankStart = make([]int32, 1, min(n, 1<<16)+1)
	return nil
}

func (p *parser) openBlock(b []byte) error {
	if !p.haveHeader {
		return p.errorf("rank block before num_ranks")
	}
	if p.curRank >= 0 {
		return p.errorf("rank block inside rank %d's block (missing '}')", p.curRank)
	}
	r, rest, err := p.number(b, "a rank number")
	if err != nil {
		return err
	}
	rest = skipBlanks(rest)
	if len(rest) == 0 || rest[0] != '{' {
		return p.errorf("want '{' after rank %d", r)
	}
	if err := p.endOfLine(rest[1:], "'{'"); err != nil {
		return err
	}
	switch {
	case r >= int64(p.numRanks):
		return p.errorf("rank %d outside 0..%d (num_ranks %d)", r, p.numRanks-1, p.numRanks)
	case r != int64(p.nextRank):
		return p.errorf("rank %d's block where rank %d's is due (blocks must come in order 0..%d)", r, p.nextRank, p.numRanks-1)
	}
	p.curRank = int(r)
	p.labels.reset()
	p.blockFirst = int32(len(p.s.ops))
	return nil
}

func (p *parser) closeBlock() error {
	p.groupBlock()
	p.s.rankStart = append(p.s.rankStart, int32(len(p.s.ops)))
	p.curRank = -1
	p.nextRank++
	return nil
}

// finish checks the end of the file and builds the successor lists.
func (p *parser) finish() error {
	switch {
	case p.inComment:
		return fmt.Errorf("%s:%d: /* comment never closed", p.name, p.commentLine)
	case !p.haveHeader:
		return fmt.Errorf("%s:%d: no num_ranks header", p.name, max(p.line, 1)) // an empty file: line 1
	case p.curRank >= 0:
		return fmt.Errorf("%s:%d: rank %d's block is not closed with '}'", p.name, p.line, p.curRank)
	case p.nextRank < p.numRanks:
		return fmt.Errorf("%s:%d: %d rank blocks, num_ranks says %d", p.name, p.line, p.nextRank, p.numRanks)
	}
	p.s.predStart = append(p.s.predStart, int32(len(p.s.pred)))
	return p.checkAcyclic()
}

func hasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }

func indexOf(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// clip shortens a piece of input for an error message.
func clip(b []byte) string {
	if len(b) > 24 {
		return string(b[:24]) + "…"
	}
	return string(b)
}
