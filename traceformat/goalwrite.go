package traceformat

import (
	"bufio"
	"io"
	"strconv"
)

// WriteTo writes s as GOAL text that Parse reads back into the same
// schedule (the same ops, in the same order, with the same successor lists
// in the same order; only the source lines differ): a num_ranks header,
// then one block per rank whose ops are labelled l1, l2, … in order and
// followed by their dependencies, grouped by predecessor in the order of
// its successor lists (LogGOPSim releases ready ops in that order). A tag
// is written unsigned (txt2bin's uint32) or -1; cpu and nic clauses only
// when not 0.
func (s *Schedule) WriteTo(w io.Writer) (int64, error) {
	bw := &countWriter{w: bufio.NewWriterSize(w, 1<<16)}
	var buf []byte
	buf = append(append(buf[:0], "num_ranks "...), strconv.Itoa(s.NumRanks())...)
	bw.line(buf)
	for r := 0; r < s.NumRanks(); r++ {
		first, end := s.RankOps(r)
		buf = append(append(append(buf[:0], "\nrank "...), strconv.Itoa(r)...), " {"...)
		bw.line(buf)
		for i := first; i < end; i++ {
			bw.line(s.appendOp(buf[:0], i, i-first+1))
		}
		for i := first; i < end; i++ {
			for _, dep := range [2]struct {
				succ []int32
				kw   string
			}{{s.Requires(i), " requires l"}, {s.IRequires(i), " irequires l"}} {
				for _, v := range dep.succ {
					buf = append(append(buf[:0], 'l'), strconv.Itoa(int(v)-first+1)...)
					buf = append(append(buf, dep.kw...), strconv.Itoa(i-first+1)...)
					bw.line(buf)
				}
			}
		}
		bw.line(append(buf[:0], '}'))
	}
	if bw.err == nil {
		bw.err = bw.w.Flush()
	}
	return bw.n, bw.err
}

// appendOp appends op i's statement, labelled l<label>.
func (s *Schedule) appendOp(b []byte, i, label int) []byte {
	o := &s.ops[i]
	b = append(append(append(b, 'l'), strconv.Itoa(label)...), ": "...)
	b = append(append(append(b, o.Kind.String()...), ' '), strconv.FormatInt(o.Size, 10)...)
	if o.Kind != OpCalc {
		if o.Kind == OpSend {
			b = append(b, "b to "...)
		} else {
			b = append(b, "b from "...)
		}
		b = strconv.AppendInt(b, int64(o.Peer), 10)
		b = append(b, " tag "...)
		if o.Tag == AnyTag {
			b = append(b, "-1"...)
		} else {
			b = strconv.AppendUint(b, uint64(uint32(o.Tag)), 10)
		}
	}
	if o.CPU != 0 {
		b = strconv.AppendInt(append(b, " cpu "...), int64(o.CPU), 10)
	}
	if o.NIC != 0 {
		b = strconv.AppendInt(append(b, " nic "...), int64(o.NIC), 10)
	}
	return b
}

// countWriter writes lines, keeping the first error and the bytes written.
type countWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countWriter) line(b []byte) {
	if c.err != nil {
		return
	}
	var k int
	k, c.err = c.w.Write(b)
	c.n += int64(k)
	if c.err == nil {
		c.err = c.w.WriteByte('\n')
		if c.err == nil {
			c.n++
		}
	}
}
