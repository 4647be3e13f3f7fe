package observe

import (
	"encoding/csv"
	"io"
	"strconv"
)

// WriteCSV writes one row per rank: rank, compute_s, comm_s, wait_s.
func (b *Breakdown) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "compute_s", "comm_s", "wait_s"})
	for r := range b.Compute {
		cw.Write([]string{strconv.Itoa(r), fmtExact(b.Compute[r]), fmtExact(b.Comm[r]), fmtExact(b.Wait[r])})
	}
	cw.Flush()
	return cw.Error()
}

// fmtExact formats a float exactly (shortest round-trip form): a breakdown's
// three parts must add up to the run, a traffic report's links to their class.
func fmtExact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
