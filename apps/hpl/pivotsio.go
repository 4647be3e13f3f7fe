package hpl

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The pivot record's file form, so that a model-mode run can replay pivots a
// real-mode run recorded in another process: a header line "# hpl pivots N=<n>",
// then one line per column, "<column> <pivot row>", in column order. Blank
// lines and lines starting with '#' after the header are ignored.

// WriteTo writes the record; columns never seen are written with row −1.
func (p *Pivots) WriteTo(w io.Writer) (int64, error) {
	rows := p.Rows()
	bw := bufio.NewWriter(w)
	var n int64
	c, err := fmt.Fprintf(bw, "# hpl pivots N=%d\n", len(rows))
	n += int64(c)
	if err != nil {
		return n, err
	}
	for col, r := range rows {
		c, err = fmt.Fprintf(bw, "%d %d\n", col, r)
		n += int64(c)
		if err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

// ReadPivots reads a record written by WriteTo; errors name the file and line.
func ReadPivots(r io.Reader, file string) (*Pivots, error) {
	sc := bufio.NewScanner(r)
	line := 0
	fail := func(format string, a ...any) (*Pivots, error) {
		return nil, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, a...))
	}
	var rows []int
	n := -1
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if n < 0 {
			v, ok := strings.CutPrefix(text, "# hpl pivots N=")
			if !ok {
				return fail("want the header \"# hpl pivots N=<n>\", got %q", text)
			}
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 || x > maxPivotRecord {
				return fail("bad order %q", v)
			}
			n = x
			rows = make([]int, 0, n)
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 2 {
			return fail("want \"<column> <row>\", got %q", text)
		}
		c, err1 := strconv.Atoi(f[0])
		row, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return fail("not two integers: %q", text)
		}
		if c != len(rows) {
			return fail("column %d out of order (want %d)", c, len(rows))
		}
		if c >= n {
			return fail("column %d beyond N=%d", c, n)
		}
		if row != -1 && (row < c || row >= n) {
			return fail("pivot of column %d is row %d, want %d..%d", c, row, c, n-1)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if n < 0 {
		return nil, fmt.Errorf("%s: empty pivot file", file)
	}
	if len(rows) != n {
		return nil, fmt.Errorf("%s: %d columns, header says N=%d", file, len(rows), n)
	}
	return &Pivots{rows: rows}, nil
}

// maxPivotRecord bounds N in a pivot file (a guard against absurd headers).
const maxPivotRecord = 1 << 28
