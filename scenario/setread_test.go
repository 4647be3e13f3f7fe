package scenario

import (
	"strings"
	"testing"
)

// TestSetOfAnotherAppsTable: a --set of a table the scenario's app does not
// read changed nothing (the run printed the same figures, exit 0); it is
// refused, naming the --set (or the flag standing for it) and the app. The
// app's own table, and a --set app= that makes the table the app's, are read.
func TestSetOfAnotherAppsTable(t *testing.T) {
	const pingpong = "app = \"pingpong\"\n[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	const jobs = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n" +
		"[[jobs]]\napp = \"ring\"\nranks = 2\n[[jobs]]\napp = \"pingpong\"\n"
	for _, c := range []struct {
		name, src string // src "" is the embedded default (HPL)
		sets      []string
		want      string // "" runs
	}{
		{"hpl key on a ping-pong", pingpong, []string{"hpl.nb=3"}, "--set hpl.nb=3: the scenario's app is pingpong, which reads no [hpl] table (app = \"hpl\" runs it)"},
		{"a whole table", pingpong, []string{"ring={iterations = 2}"}, "--set ring={iterations = 2}: the scenario's app is pingpong, which reads no [ring] table"},
		{"ping-pong key on HPL", "", []string{"pingpong.iterations=3"}, "--set pingpong.iterations=3: the scenario's app is hpl, which reads no [pingpong] table"},
		{"congestor key on HPL", "", []string{"congestor.bytes=8"}, "the scenario's app is hpl, which reads no [congestor] table"},
		{"top-level table under jobs", jobs, []string{"ring.iterations=2"}, "--set ring.iterations=2: the scenario runs [[jobs]], which read their own tables: set jobs.N.ring.iterations"},
		{"another app's table of a job", jobs, []string{"jobs.0.hpl.nb=3"}, "--set jobs.0.hpl.nb=3: job 0's app is ring, which reads no [jobs.hpl] table (app = \"hpl\" runs it)"},
		{"a job's app changed with it", jobs, []string{"jobs.1.app=ring", "jobs.1.ranks=2", "jobs.1.ring.iterations=2"}, ""},
		{"the app's own table", pingpong, []string{"pingpong.iterations=2"}, ""},
		{"a job's own table", jobs, []string{"jobs.0.ring.iterations=2"}, ""},
		{"app changed with it", "", []string{"app=pingpong", "pingpong.iterations=2"}, ""},
		{"other tables", pingpong, []string{"network.iprobe_cost=1e-7", "kernels.noise=true"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Default()
			if c.src != "" {
				var err error
				if s, err = Parse([]byte(c.src), "s.toml"); err != nil {
					t.Fatal(err)
				}
			}
			mustSet(t, s, c.sets)
			_, err := s.Validate()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v\nwant %q", err, c.want)
			}
		})
	}
}
