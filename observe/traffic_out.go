package observe

import (
	"encoding/csv"
	"io"
	"strconv"
)

// trafficColumns is the CSV form's header: one table, the row's kind first
// ("link", "class", "highest"), a column left empty where it has no meaning
// for that kind.
var trafficColumns = []string{"kind", "name", "class", "level", "bandwidth_Bps", "bytes", "busy_s",
	"utilisation", "busy_utilisation", "messages", "message_share", "byte_share"}

// WriteCSV writes the report as one CSV table: a row per link, a row per
// class (its sums) and a row per highest class crossed.
func (t *Traffic) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(trafficColumns)
	g := fmtExact
	for _, l := range t.Links {
		cw.Write([]string{"link", l.Name, l.Class, strconv.Itoa(l.Level), g(l.Bandwidth), g(l.Bytes), g(l.Busy), g(l.Util), g(l.BusyUtil), "", "", ""})
	}
	for _, c := range t.Classes {
		cw.Write([]string{"class", "", c.Class, strconv.Itoa(c.Level), g(c.Bandwidth), g(c.Bytes), g(c.Busy), g(c.Util), g(c.BusyUtil), "", "", ""})
	}
	for _, p := range t.Highest {
		cw.Write([]string{"highest", "", p.Class, strconv.Itoa(p.Level), "", strconv.FormatInt(p.Bytes, 10), "", "", "",
			strconv.Itoa(p.Messages), g(p.MsgShare), g(p.BytesShare)})
	}
	cw.Flush()
	return cw.Error()
}
