package scenariotest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestCSVRows: each row after the header becomes a map by column name; a
// header alone is no rows; ReadCSV keeps the header as the first record.
func TestCSVRows(t *testing.T) {
	cases := []struct {
		name, text string
		want       []map[string]string
	}{
		{"two rows", "a,b\n1,2\n3,\"x,y\"\n", []map[string]string{{"a": "1", "b": "2"}, {"a": "3", "b": "x,y"}}},
		{"header alone", "a,b\n", []map[string]string{}},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "t.csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := CSVRows(t, path); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: CSVRows = %v, want %v", c.name, got, c.want)
		}
		if recs := ReadCSV(t, path); len(recs) != len(c.want)+1 || !reflect.DeepEqual(recs[0], []string{"a", "b"}) {
			t.Errorf("%s: ReadCSV = %v", c.name, recs)
		}
	}
}
