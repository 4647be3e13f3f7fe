package scenariotest

import (
	"encoding/csv"
	"os"
	"testing"
)

// ReadCSV reads the CSV file at path whole (a peer's results, a run's
// records, a figure's data), failing the test, with the file's name, when it
// cannot.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

// CSVRows reads the CSV file at path as its rows after the header, each a
// map from the header's column names to its fields.
func CSVRows(t testing.TB, path string) []map[string]string {
	t.Helper()
	recs := ReadCSV(t, path)
	if len(recs) == 0 {
		t.Fatalf("%s: no header", path)
	}
	rows := make([]map[string]string, 0, len(recs)-1)
	for _, r := range recs[1:] {
		m := make(map[string]string, len(r))
		for i, name := range recs[0] {
			m[name] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}
