package platform

import (
	"slices"
	"strings"
	"testing"
)

// smpirun's hostfile (shared/reference/smpi-model.md §4.8): one host name a line,
// empty lines ignored, "name:N" standing for N lines; rank i runs on line i mod lines.
func TestParseHostfile(t *testing.T) {
	p := &Platform{Hosts: 4, Prefix: "node-", CoresPerHost: 1}
	for _, c := range []struct {
		name, text string
		want       []int
		err        string
	}{
		{"in order", "node-0\nnode-1\nnode-2\nnode-3\n", []int{0, 1, 2, 3}, ""},
		{"counts and blanks", "node-3:2\n\n  node-1  \r\nnode-0:1", []int{3, 3, 1, 0}, ""},
		{"byte order mark", "\ufeffnode-2\nnode-1\n", []int{2, 1}, ""},
		{"comments", "# rack 1\nnode-2:2 # two slots\n  # indented\nnode-0#\n", []int{2, 2, 0}, ""},
		{"only comments", "# nothing\n", nil, "h.txt: no host names"},
		{"open mpi slots", "node-0 slots=2\n", nil, "h.txt:1: \"node-0 slots=2\": want one host name a line, or name:N for N slots (not Open MPI's \"name slots=N\")"},
		{"spaced count", "node-1 : 2\n", []int{1, 1}, ""},
		{"unknown host", "node-0\nnode-9\n", nil, "h.txt:2: host \"node-9\" is not in the platform (node-0 … node-3)"},
		{"zero count", "node-0:0\nnode-2:1\n", []int{2}, ""}, // smpirun unrolls :0 to no line
		// it said "no host names" of a file that names a host (qa48)
		{"only zero counts", "node-0:0\n", nil, "h.txt:1: every host given has :0 slots: no rank has a host to run on"},
		{"zero counts after a comment", "# none\nnode-0:0\nnode-1 : 0\n", nil, "h.txt:2: every host given has :0 slots: no rank has a host to run on"},
		{"bad count", "node-0:x\n", nil, "h.txt:1: \"node-0:x\": want name or name:N with N ≥ 0"},
		{"negative count", "node-0:-1\n", nil, "h.txt:1: \"node-0:-1\": want name or name:N with N ≥ 0"},
		// 1 + MaxInt wrapped below the bound of ranks: the loop then grew without end.
		{"count wrapping the bound", "node-0\nnode-1:9223372036854775807\n", nil, "h.txt:2: more than 4194304 lines"},
		{"count past int64", "node-0:99999999999999999999\n", nil, "h.txt:1: \"node-0:99999999999999999999\": N is more than the 4194304 ranks emu runs at most"},
		{"negative past int64", "node-0:-99999999999999999999\n", nil, "h.txt:1: \"node-0:-99999999999999999999\": want name or name:N with N ≥ 0"},
		{"last colon splits", "node-1:2:1\n", nil, "h.txt:1: host \"node-1:2\" is not in the platform (node-0 … node-3)"},
		{"empty", "\n\n", nil, "h.txt: no host names"},
	} {
		got, err := ParseHostfile([]byte(c.text), "h.txt", p)
		switch {
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: got error %v, want %q", c.name, err, c.err)
		}
	}
}

// A cluster's prefix may hold '#' or ':' (SimGrid takes any prefix), and
// sensitivity --place writes each host's name as it is: a line that is a
// whole host name is that host, though '#' starts a comment and the last ':'
// a count elsewhere.
func TestParseHostfileOddNames(t *testing.T) {
	for _, c := range []struct {
		prefix, text string
		want         []int
		err          string
	}{
		{"n#", "n#1\nn#0\n", []int{1, 0}, ""},
		{"n#", " n#2 \r\n", []int{2}, ""},
		{"n#", "n#1:2\n", nil, "h.txt:1: host \"n\" is not in the platform (n#0 … n#3)"}, // no whole name: the comment cuts it
		{"n#", "# n#0\nn#3\n", []int{3}, ""},
		{"r:", "r:0\nr:3\n", []int{0, 3}, ""},
		{"r:", "r:1:2\n", []int{1, 1}, ""}, // no whole name: its last colon splits
		{"node-", "node-0#\n", []int{0}, ""},
	} {
		p := &Platform{Hosts: 4, Prefix: c.prefix, CoresPerHost: 1}
		got, err := ParseHostfile([]byte(c.text), "h.txt", p)
		switch {
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("%q %q: got %v, %v; want %v", c.prefix, c.text, got, err, c.want)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q %q: got error %v, want %q", c.prefix, c.text, err, c.err)
		}
	}
}

func FuzzParseHostfile(f *testing.F) {
	f.Add([]byte("node-0\nnode-1:2\n\n node-3 \n"))
	f.Add([]byte("node-9:0\n"))
	f.Add([]byte(":\n"))
	p := &Platform{Hosts: 4, Prefix: "node-", CoresPerHost: 1}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ParseHostfile(data, "h.txt", p)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "h.txt") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error without the file, or on several lines: %q", err)
			}
			return
		}
		for _, h := range rows {
			if h < 0 || h >= p.Hosts {
				t.Fatalf("host %d outside the platform", h)
			}
		}
	})
}
