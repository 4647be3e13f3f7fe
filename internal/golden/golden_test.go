package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder stands in for the testing.TB a caller passes, counting what Check
// reports instead of failing this test. Check calls only Helper, Errorf, Fatal
// and Fatalf; the embedded nil TB makes any other call fail loudly. Fatal
// stops the call with a panic, as the real one stops the goroutine.
type recorder struct {
	testing.TB
	errors, fatals int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }
func (r *recorder) Fatal(...any)          { r.fatals++; panic(r) }
func (r *recorder) Fatalf(string, ...any) { r.fatals++; panic(r) }

// check runs Check against a recorder with -update set as asked, catching
// the panic Fatal raises.
func check(path string, got []byte, updating bool) (r *recorder, ok bool) {
	r = &recorder{}
	saved := *update
	*update = updating
	defer func() {
		*update = saved
		if p := recover(); p != nil && p != any(r) {
			panic(p)
		}
	}()
	return r, Check(r, path, got)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.golden")
	if err := os.WriteFile(same, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name           string
		path           string
		got            string
		update         bool
		ok             bool
		errors, fatals int
	}{
		{"equal file passes", same, "a\n", false, true, 0, 0},
		{"different file is an error", same, "b\n", false, false, 1, 0},
		{"missing file is fatal", filepath.Join(dir, "none.golden"), "a\n", false, false, 0, 1},
		{"update writes a new file in a new folder", filepath.Join(dir, "new", "x.golden"), "c\n", true, true, 0, 0},
		{"the updated file then matches", filepath.Join(dir, "new", "x.golden"), "c\n", false, true, 0, 0},
	}
	for _, c := range cases {
		r, ok := check(c.path, []byte(c.got), c.update)
		if ok != c.ok || r.errors != c.errors || r.fatals != c.fatals {
			t.Errorf("%s: ok %v, %d errors, %d fatals; want %v, %d, %d", c.name, ok, r.errors, r.fatals, c.ok, c.errors, c.fatals)
		}
	}
}
