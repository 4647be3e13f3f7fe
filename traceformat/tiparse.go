package traceformat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
)

// parseTI reads a one-file TI trace.
func parseTI(r io.Reader, name string) (*TI, error) {
	t := &TI{files: []string{name}}
	if err := t.parse(r, name, -1, 0); err != nil {
		return nil, err
	}
	if err := t.finish(len(t.rank)); err != nil {
		return nil, err
	}
	return t, nil
}

// parse reads lines into t.rank. only is the rank of a per-rank file
// (whose lines belong to it whatever rank they start with), or -1 for a
// one-file trace; n is the number of ranks when known (per-rank files),
// else 0.
func (t *TI) parse(r io.Reader, name string, only, n int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxTILine)
	// torn is set when the line read last ends the file without a newline:
	// an error there may be a file cut short (a copy or a download
	// stopped), not the action it names (qa47: "unknown action \"compu\"").
	torn := false
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		torn = tok != nil && atEOF && len(data) > 0 && bytes.IndexByte(data, '\n') < 0
		return adv, tok, err
	})
	var fields [][]byte
	var lineNo int32
	p := tiParser{t: t, name: name}
	for sc.Scan() {
		lineNo++
		if lineNo == math.MaxInt32 {
			return fmt.Errorf("%s:%d: more than %d lines", name, lineNo, math.MaxInt32-1)
		}
		line := sc.Bytes()
		if lineNo == 1 {
			// A UTF-8 byte order mark, which some editors save, is not text.
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		fields = splitFields(fields[:0], line)
		if len(fields) == 0 || fields[0][0] == '#' {
			continue
		}
		p.line = lineNo
		if err := p.line1(fields, only, n); err != nil {
			if torn {
				return fmt.Errorf("%w (the file's last line, without a newline: is the file cut short?)", err)
			}
			return err
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		// /dev/zero, a binary file: Scanner's own "token too long" says nothing.
		return fmt.Errorf("%s:%d: a line longer than %d MiB: not a TI trace", name, lineNo+1, maxTILine>>20)
	} else if err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	return nil
}

// maxTILine is the longest line a TI trace may hold, bytes (a collective
// with per-rank counts of a large job).
const maxTILine = 64 << 20

// splitFields appends the blank-separated fields of line to dst.
func splitFields(dst [][]byte, line []byte) [][]byte {
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

// tiParser parses one line at a time.
type tiParser struct {
	t    *TI
	name string
	line int32
	low  [32]byte // the lower-cased action name
}

func (p *tiParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// line1 parses one non-blank line.
func (p *tiParser) line1(f [][]byte, only, n int) error {
	rank, ok := parseInt(f[0])
	switch {
	case !ok:
		return p.errorf("want a rank number first, found %q", clip(f[0]))
	case only >= 0:
		// A per-rank file's lines are its rank's whatever they say, as in
		// SimGrid's replayer (which never reads the field there).
		rank = int64(only)
	case rank < 0 || rank >= maxRanks:
		return p.errorf("rank %d out of range%s", rank, p.rangeHint(n))
	}
	switch {
	case len(f) < 2:
		return p.errorf("rank %d: want an action after the rank", rank)
	}
	name := f[1]
	if len(name) > len(p.low) {
		return p.errorf("unknown action %q (want %s)", clip(name), actionList)
	}
	low := p.low[:len(name)]
	for i, c := range name {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	k, ok := kinds[string(low)]
	if !ok {
		return p.errorf("unknown action %q (%swant %s)", clip(name), unknownHint(string(low)), actionList)
	}
	t := p.t
	for int(rank) >= len(t.rank) {
		t.rank = append(t.rank, rankTrace{dtype: 1})
	}
	st := &t.rank[rank]
	if st.finalized {
		return p.errorf("rank %d: %s after finalize", rank, low)
	}
	st.lastLine = p.line
	args := f[2:]
	a := TIAction{Kind: k, Line: p.line}
	var err error
	switch k {
	case tiInit:
		if err = p.nargs(args, 0, 1); err == nil {
			st.init = true
			if len(args) == 1 {
				st.dtype = 8 // MPI_DOUBLE, as SimGrid's InitAction
			}
		}
		return err
	case tiFinalize:
		st.finalized = true
		return nil
	case tiIgnored:
		return nil
	case TISend, TIIsend, TIRecv, TIIrecv:
		err = p.p2p(&a, args, st.dtype)
	case TISendrecv:
		err = p.sendrecv(&a, args, st.dtype)
	case TIWait, TITest:
		err = p.waitArgs(&a, args)
	case TIWaitall: // [count]: SMPI's tracer writes the number of requests, its replayer ignores it
		if err = p.nargs(args, 0, 1); err == nil && len(args) == 1 {
			_, err = p.float(args[0], "waitall's request count")
		}
	case TIBarrier:
		err = p.nargs(args, 0, 0)
	case TIBcast: // count [root [dt]]
		if err = p.nargs(args, 1, 2); err == nil {
			a.Peer, err = p.optRank(args, 1)
		}
		if err == nil {
			a.Bytes, err = p.size(args, 0, 2, st.dtype)
		}
	case TIReduce, TIAllreduce, TIScan, TIExscan: // count flops [root [dt]] | count flops [dt]
		opt, dt := 2, 3
		if k != TIReduce {
			opt, dt = 1, 2
		}
		if err = p.nargs(args, 2, opt); err == nil && k == TIReduce {
			a.Peer, err = p.optRank(args, 2)
		}
		if err == nil {
			a.Bytes, err = p.size(args, 0, dt, st.dtype)
		}
		if err == nil && k == TIAllreduce { // the element size, by which SMPI's allreduce__rab_rdb cuts the vector
			a.Tag = st.dtype
			if dt < len(args) {
				a.Tag, err = p.datatype(args[dt])
			}
		}
		if err == nil {
			a.Flops, err = p.float(args[1], "flops")
		}
	case TIAlltoall, TIAllgather, TIGather, TIScatter: // send recv [root] [dt1 [dt2]]
		dt := 2
		if k == TIGather || k == TIScatter {
			dt = 3
		}
		if err = p.nargs(args, 2, dt); err == nil && dt == 3 {
			a.Peer, err = p.optRank(args, 2)
		}
		if err == nil {
			a.Bytes, err = p.size(args, 0, dt, st.dtype)
		}
		var recv int64
		if err == nil {
			recv, err = p.size(args, 1, dt+1, st.dtype)
			a.Flops = float64(recv) // RecvBytes: exact, ≤ maxBytes < 2^53
		}
	case TIAlltoallv, TIGatherv, TIAllgatherv, TIScatterv, TIReducescatter:
		err = p.rawArgs(&a, args, st.dtype)
	case TICompute, TISleep:
		if err = p.nargs(args, 1, 0); err == nil {
			a.Flops, err = p.float(args[0], k.String()+"'s amount")
		}
		if err == nil && k == TISleep && a.Flops > MaxActionSeconds {
			err = p.errorf("sleep's amount %q: at most %g s (%.1f days) an action, as a kernel call", clip(args[0]), float64(MaxActionSeconds), MaxActionSeconds/86400)
		}
	}
	if err != nil {
		return err
	}
	st.add(a)
	t.n++
	return nil
}

func (p *tiParser) rangeHint(n int) string {
	if n > 0 {
		return fmt.Sprintf(" (the trace has ranks 0..%d)", n-1)
	}
	return fmt.Sprintf(" (0..%d)", maxRanks-1)
}
