package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Check compares got with the file at path (relative to the test's package
// folder, normally under testdata/). With -update it first writes got there,
// creating the folder, so the comparison then passes and git shows the
// change. It reports a missing or different file with t.Errorf or t.Fatalf
// and returns whether got matched, so a caller can add what a change means.
func Check(t testing.TB, path string, got []byte) bool {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it after review):\n got:\n%s\nwant:\n%s", path, got, want)
		return false
	}
	return true
}

// Updating reports whether the tests run with -update, for tests whose
// expected output lives inside a file they also read input from (data-driven
// scripts) and so cannot go through Check.
func Updating() bool { return *update }
