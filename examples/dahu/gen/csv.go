package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
)

// table is a CSV file read by column name; its errors name the file, the line
// and the column.
type table struct {
	file string
	cols map[string]int
	rows []row
}

// row is one record with the line it starts on.
type row struct {
	t      *table
	line   int
	fields []string
}

// readTable reads name from fsys; want lists the columns the caller needs.
func readTable(fsys fs.FS, dir, name string, want ...string) (*table, error) {
	path := dir + "/" + name
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	t := &table{file: path, cols: map[string]int{}}
	for i, c := range header {
		t.cols[strings.TrimSpace(c)] = i
	}
	for _, c := range want {
		if _, ok := t.cols[c]; !ok {
			return nil, fmt.Errorf("%s:1: no column %q", path, c)
		}
	}
	for {
		fields, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		t.rows = append(t.rows, row{t: t, line: line, fields: fields})
	}
	return t, nil
}

// str is the row's value in column col, trimmed.
func (r row) str(col string) string { return strings.TrimSpace(r.fields[r.t.cols[col]]) }

// errorf is an error at the row's line and column col.
func (r row) errorf(col, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s: %s", r.t.file, r.line, col, fmt.Sprintf(format, args...))
}

// num reads a finite number from column col.
func (r row) num(col string) (float64, error) {
	s := r.str(col)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, r.errorf(col, "%q is not a finite number", s)
	}
	return v, nil
}

// nonNeg reads a finite number ≥ 0 from column col: a network overhead, a
// factor, a size or a cost, which the scenario would refuse a line later.
func (r row) nonNeg(col string) (float64, error) {
	v, err := r.num(col)
	if err == nil && v < 0 {
		return 0, r.errorf(col, "%s is negative", r.str(col))
	}
	return v, err
}

// nums reads the columns prefix+suffix for each suffix.
func (r row) nums(prefix string, suffixes []string) ([]float64, error) {
	out := make([]float64, len(suffixes))
	for i, s := range suffixes {
		v, err := r.num(prefix + s)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
