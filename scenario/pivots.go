package scenario

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/apps/hpl"
)

// Pivot files hold the pivot row HPL chose for each global column of a real-mode run,
// one integer per line, column 0 first; "#" starts a comment. emu run
// --record-pivots writes them and kernels.pivot = "replay" reads them back, so a
// model-mode run moves the same rows (hence sends the same swap messages).

// ParsePivots reads a pivot file; errors name the file and line.
func ParsePivots(data []byte, file string) (*hpl.Pivots, error) {
	var rows []int
	text := strings.TrimPrefix(string(data), "\ufeff") // an editor's byte order mark
	for i, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		r, err := strconv.Atoi(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q is not a row number", file, i+1, line)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no pivot rows", file)
	}
	p, err := hpl.PivotsFromRows(rows)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "hpl: "))
	}
	return p, nil
}

// FormatPivots writes the rows of a record in the pivot file format.
func FormatPivots(p *hpl.Pivots) []byte {
	var b bytes.Buffer
	b.WriteString("# HPL pivot rows, one per global column (emu run --record-pivots)\n")
	for _, r := range p.Rows() {
		b.WriteString(strconv.Itoa(r))
		b.WriteByte('\n')
	}
	return b.Bytes()
}
