package calibration

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

// MaxCallSeconds bounds the duration of one measured kernel call (11.6 days).
// Anything longer is a slip of unit or column, and the fit's sums of squares
// would overflow well before float64's range: 1e300 s squared is +Inf.
const MaxCallSeconds = 1e6

// ReadSampleFile reads a sample file from disk (see ReadSamples).
func ReadSampleFile(path string) ([]Sample, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadSamples(data, path)
}

// ReadSamples parses a sample file. Columns may come in any order; kernel,
// host, m, n, k and seconds are required, index, plan, core, timestamp,
// backend and clock are optional; other columns are ignored; a row may not
// have more non-empty fields than the header has columns. Dimension cells a kernel
// does not use may be empty. Lines starting with # are comments. file names
// the input in errors, which carry the line number.
//
// A last line without its newline in a file written by a campaign (one with
// an index column) is a row torn by an interrupted write and is dropped.
func ReadSamples(data []byte, file string) ([]Sample, error) {
	return ReadSamplesOf(data, file, nil)
}

// ReadSamplesOf is ReadSamples that also takes the rows of the kernels in
// own, kernels emu does not know (a user's own, which emu fit fits with the
// product its --product names). A row of a kernel neither emu's nor own's
// is refused with an *UnknownKernelError.
func ReadSamplesOf(data []byte, file string, own map[string]string) ([]Sample, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM from spreadsheets
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, want a header with %s", file, strings.Join(requiredColumns, ","))
	}
	if err != nil {
		return nil, csvError(file, err)
	}
	col := map[string]int{}
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if _, dup := col[name]; dup && name != "" {
			return nil, fmt.Errorf("%s:1: column %q appears twice", file, name)
		}
		col[name] = i
	}
	for _, need := range requiredColumns {
		if _, ok := col[need]; !ok {
			// A spreadsheet of a locale whose decimal mark is ',' saves its
			// CSV with ';' (or a tab) between fields: one column here.
			if len(header) == 1 {
				for _, sep := range []string{";", "\t"} {
					if strings.Contains(header[0], sep) {
						return nil, fmt.Errorf("%s:1: the header is one column separated by %q, want commas (kernel,host,m,n,k,seconds)", file, sep)
					}
				}
			}
			return nil, fmt.Errorf("%s:1: missing column %q (need %s in any order)", file, need, strings.Join(requiredColumns, ","))
		}
	}
	torn := TornLine(data) > 0
	var out []Sample
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if torn && errors.As(err, &pe) && lastLine(data, pe.StartLine) {
				break
			}
			return nil, csvError(file, err)
		}
		line, _ := r.FieldPos(0)
		if torn && lastLine(data, line) {
			break // a torn row may parse (a number cut short): drop it all the same
		}
		if err := extraFields(rec, len(header)); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		s, err := parseRow(rec, col)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if _, mine := own[s.Kernel]; !mine && !kernels.Known(s.Kernel) {
			return nil, &UnknownKernelError{File: file, Line: line, Kernel: s.Kernel, M: s.M, N: s.N, K: s.K}
		}
		out = append(out, s)
	}
	return out, nil
}

// UnknownKernelError refuses a sample file's row of a kernel emu does not
// know (ReadSamplesOf): File:Line is the row, M, N, K its sizes.
type UnknownKernelError struct {
	File    string
	Line    int
	Kernel  string
	M, N, K int
}

func (e *UnknownKernelError) Error() string {
	return fmt.Sprintf("%s:%d: unknown kernel %q (known: %s)", e.File, e.Line, e.Kernel, strings.Join(kernels.Names(), ", "))
}

// TornLine is the 1-based line of the row ReadSamples drops as torn: the
// last line of a campaign file (one with an index column) when it has no
// newline and is a row, not a comment or the header. 0: none.
func TornLine(data []byte) int {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return 0
	}
	line := bytes.Count(data, []byte("\n")) + 1
	if bytes.HasPrefix(data[bytes.LastIndexByte(data, '\n')+1:], []byte("#")) {
		return 0
	}
	r := csv.NewReader(bytes.NewReader(data)) // the header: the first record, as ReadSamples reads it
	r.Comment, r.FieldsPerRecord = '#', -1
	header, err := r.Read()
	if h, _ := r.FieldPos(0); err != nil || h == line {
		return 0
	}
	for _, h := range header {
		if strings.ToLower(strings.TrimSpace(h)) == "index" {
			return line
		}
	}
	return 0
}

// lastLine reports whether 1-based line is the file's last line.
func lastLine(data []byte, line int) bool {
	return bytes.Count(data, []byte("\n")) == line-1
}

// extraFields refuses a row with more fields than the header has columns,
// unless the extra ones are empty (the trailing commas spreadsheets write): a
// value split by an unquoted comma would otherwise shift every column after it.
func extraFields(rec []string, columns int) error {
	for i := columns; i < len(rec); i++ {
		if strings.TrimSpace(rec[i]) != "" {
			return fmt.Errorf("row has %d fields, the header %d columns (a comma inside a value? quote it)", len(rec), columns)
		}
	}
	return nil
}

func csvError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) && pe.StartLine > 0 && pe.StartLine < pe.Line {
		// A quote never closed runs to the file's end: name where it opens.
		return fmt.Errorf("%s:%d: %v (a quoted field of the record that starts there is still open at line %d)", file, pe.StartLine, pe.Err, pe.Line)
	}
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", file, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %w", file, err)
}

func cell(rec []string, col map[string]int, name string) (string, bool) {
	i, ok := col[name]
	if !ok || i >= len(rec) {
		return "", false
	}
	return strings.TrimSpace(rec[i]), true
}

func parseRow(rec []string, col map[string]int) (Sample, error) {
	s := Sample{Index: -1, Core: -1}
	for _, need := range requiredColumns {
		if _, ok := cell(rec, col, need); !ok {
			return s, fmt.Errorf("row has %d fields, column %q missing", len(rec), need)
		}
	}
	s.Kernel, _ = cell(rec, col, "kernel")
	s.Host, _ = cell(rec, col, "host")
	if _, _, ok := models.SplitCPUKey(s.Host); !ok {
		// A models file keys a host's model by its name, HOST/cpuS a CPU's:
		// emu fit --per-host could not write this host's.
		return s, fmt.Errorf("column host: %q: a host name holds no \"/\" (HOST/cpuS names socket S of HOST)", s.Host)
	}
	var err error
	for _, d := range []struct {
		name string
		dst  *int
	}{{"m", &s.M}, {"n", &s.N}, {"k", &s.K}} {
		v, _ := cell(rec, col, d.name)
		if *d.dst, err = parseDim(v); err != nil {
			return s, fmt.Errorf("column %s: %w", d.name, err)
		}
	}
	v, _ := cell(rec, col, "seconds")
	s.Seconds, err = strconv.ParseFloat(v, 64)
	switch {
	case err != nil:
		return s, fmt.Errorf("column seconds: %q is not a number", v)
	case math.IsNaN(s.Seconds) || math.IsInf(s.Seconds, 0):
		return s, fmt.Errorf("column seconds: %q is not a finite duration", v)
	case s.Seconds < 0:
		return s, fmt.Errorf("column seconds: negative duration %g", s.Seconds)
	case s.Seconds > MaxCallSeconds:
		return s, fmt.Errorf("column seconds: %g s for one call, more than %g s (a unit slip?)", s.Seconds, float64(MaxCallSeconds))
	}
	if v, ok := cell(rec, col, "index"); ok && v != "" {
		if s.Index, err = strconv.Atoi(v); err != nil || s.Index < 0 {
			return s, fmt.Errorf("column index: %q is not a non-negative integer", v)
		}
	}
	if v, ok := cell(rec, col, "core"); ok && v != "" {
		if s.Core, err = strconv.Atoi(v); err != nil || s.Core < 0 {
			return s, fmt.Errorf("column core: %q is not a non-negative integer", v)
		}
	}
	if v, ok := cell(rec, col, "timestamp"); ok && v != "" {
		if s.Time, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return s, fmt.Errorf("column timestamp: %q is not an RFC 3339 time", v)
		}
	}
	if v, ok := cell(rec, col, "runs"); ok && v != "" {
		if s.Runs, err = strconv.Atoi(v); err != nil || s.Runs < 0 {
			return s, fmt.Errorf("column runs: %q is not a non-negative integer", v)
		}
	}
	if v, ok := cell(rec, col, "status"); ok {
		switch v {
		case "", StatusRemeasured, StatusOutlier:
			s.Status = v
		default:
			return s, fmt.Errorf("column status: %q is not one of \"\", %s, %s", v, StatusRemeasured, StatusOutlier)
		}
	}
	s.Plan, _ = cell(rec, col, "plan")
	s.Backend, _ = cell(rec, col, "backend")
	s.Clock, _ = cell(rec, col, "clock")
	return s, nil
}

// parseDim reads a dimension: empty means 0 (unused); an integral float
// ("64.0", as some tools print) is accepted.
func parseDim(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("negative dimension %d", n)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		return 0, fmt.Errorf("%q is not a non-negative integer", v)
	}
	return int(f), nil
}
