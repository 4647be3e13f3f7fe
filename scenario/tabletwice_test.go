package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestTableTwice: a table defined by dotted keys and by a [header], in
// either order, or an inline table extended by a header, is refused at the
// second definition's line naming the key; BurntSushi/toml merged them
// (qa47b). What TOML 1.0 allows (a sub-table of a dotted table, a header's
// implicit parent given later, one [[array]] element's dotted table beside
// the next element's header, brackets inside strings and multi-line
// values) still reads.
func TestTableTwice(t *testing.T) {
	for _, c := range []struct {
		name, doc, want string
	}{
		{"dotted then header", "[kernels]\nhost_speed.host-1 = 0.5\n\n[kernels.host_speed]\nhost-2 = 0.6\n",
			"4: kernels.host_speed: table defined twice, by dotted keys at line 2, then by the header [kernels.host_speed] (TOML 1.0 forbids it): put its keys in one place"},
		{"header then dotted", "[kernels.host_speed]\nhost-2 = 0.6\n[kernels]\nhost_speed.host-1 = 0.5\n",
			"4: kernels.host_speed: table defined twice, by the header [kernels.host_speed] at line 1, then by dotted keys (TOML 1.0 forbids it): put its keys in one place"},
		{"top-level dotted then header", "platform.hosts = 4\n[platform]\nlink_latency = \"1us\"\n",
			"2: platform: table defined twice, by dotted keys at line 1, then by the header [platform]"},
		{"deeper dotted then header", "[a]\nb.c.d = 1\n[a.b.c]\ne = 2\n", "3: a.b.c: table defined twice, by dotted keys at line 2"},
		{"header then deeper dotted", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n", "4: a.b.c: table defined twice, by the header [a.b.c] at line 1"},
		{"quoted parts are the same key", "[kernels]\n\"host_speed\".'host-1' = 0.5\n[ kernels . \"host_speed\" ]\nx = 1\n", "3: kernels.host_speed: table defined twice"},
		{"inline then header below it", "x = {a = 1}\n[x.b]\nc = 1\n", "2: x: a table given inline at line 1, then extended by the header [x.b]"},
		{"a multi-line string before it counts its lines", "s = \"\"\"\n[a]\n\"\"\"\n[k]\nh.x = 1\n[k.h]\n", "6: k.h: table defined twice, by dotted keys at line 5"},
		{"in an [[array]] element", "[[jobs]]\nhpl.n = 1\n[jobs.hpl]\nnb = 2\n", "3: jobs.hpl: table defined twice, by dotted keys at line 2"},

		{"a sub-table of a dotted table", "[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\nsmooth = true\n", ""},
		{"an implicit parent given later", "[a.b.c]\nd = 1\n[a]\nx = 1\n", ""},
		{"the next element's header", "[[j]]\nh.n = 1\n[[j]]\n[j.h]\nm = 2\n", ""},
		{"brackets in strings and arrays", "a = \"[b]\"\nc = '[d]'\ngrid = [\n  [1, 2],\n  [3, 4], # [e]\n]\nm = '''\n[f]\n'''\nb.x = 1\n[f]\n[d]\n[e]\n", ""},
		{"dotted keys into one table twice", "[kernels]\nhost_speed.a = 1\nhost_speed.b = 2\n", ""},
		{"CRLF and comments", "[a] # t\r\nb.c = 1 # [a.b]\r\n[a.b.d]\r\n", ""},
	} {
		if _, err := toml.Decode(c.doc, new(map[string]any)); err != nil {
			t.Fatalf("%s: the document is no TOML at all: %v", c.name, err)
		}
		err := tableTwice([]byte(c.doc))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v; want none", c.name, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: %v; want %q...", c.name, err, c.want)
		}
	}
}

// TestTableTwiceInScenarios: through Parse the error names the file, and no
// scenario of the repository is refused.
func TestTableTwiceInScenarios(t *testing.T) {
	_, err := Parse([]byte("[kernels]\nhost_speed.host-1 = 0.5\n[kernels.host_speed]\nhost-2 = 0.6\n"), "s.toml")
	if want := "s.toml:3: kernels.host_speed: table defined twice"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Parse: %v; want %q...", err, want)
	}
	var files []string
	for _, g := range []string{"../examples/*.toml", "../examples/*/*.toml", "testdata/*.toml", "default.toml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d scenario files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := toml.Decode(string(data), new(map[string]any)); err != nil {
			continue // a bad input of a test of its own
		}
		if err := tableTwice(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
