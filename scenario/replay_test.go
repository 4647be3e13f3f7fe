package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A pivot file replays the pivots of one order-N system: a test of another N
// would fall back to the diagonal wherever the file's rows do not fit, and so
// time other messages than the real run's, without a word. It is an error.
func TestReplayNeedsTheRecordedOrder(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "piv.txt")
	if err := os.WriteFile(f, []byte("2\n1\n2\n"), 0o644); err != nil { // an order-3 record
		t.Fatal(err)
	}
	for _, c := range []struct {
		n   string
		err string
	}{
		{"3", ""},
		{"5", "--set hpl.n=5: hpl.n: " + f + " holds the pivots of an order-3 system, the test has N = 5"},
		{"[3,2]", "--set hpl.n=[3,2]: hpl.n: " + f + " holds the pivots of an order-3 system, the test has N = 2"},
	} {
		s := Default()
		var err error
		for _, kv := range []string{"kernels.pivot=replay", "kernels.pivots=" + f, "hpl.n=" + c.n} {
			if err == nil {
				err = s.Set(kv)
			}
		}
		if err == nil {
			_, err = s.Validate()
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("N = %s: %v", c.n, err)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("N = %s: got %v, want %q", c.n, err, c.err)
		}
	}
}
