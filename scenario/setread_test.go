package scenario

import (
	"slices"
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
			s := defaultOr(t, c.src)
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

// TestFileTablesOfOtherApps: a table of the scenario file that the run's app
// does not read ([hpl] in a ping-pong file, [jobs.hpl] in a ring job, [replay]
// under HPL) runs, with a warning naming the file, its line and the table
// (qa50: it ran without a word, where a --set of the same table is refused);
// a file may keep several apps' tables and switch with --set app=..., and an
// app a sweep gives is read at its points. The --set forms stay refused.
func TestFileTablesOfOtherApps(t *testing.T) {
	const platform = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	const several = "app = \"pingpong\"\n" + platform + // lines 1-5
		"[pingpong]\nsizes = [8]\n" + // 6-7
		"[hpl]\nn = 200\nnb = 32\ngrids = [[1, 2]]\n" + // 8-11
		"[ring]\nsizes = [8]\n" // 12-13
	const jobs = platform + // lines 1-4
		"[hpl]\nn = 100\n" + // 5-6
		"[[jobs]]\napp = \"ring\"\nranks = 2\n" + // 7-9
		"[jobs.hpl]\nn = 100\n" + // 10-11
		"[[jobs]]\napp = \"pingpong\"\n" // 12-13
	const loggops = "[replay]\nsemantics = \"loggops\"\n" + platform
	for _, c := range []struct {
		name, src string
		sets      []string
		swept     []string // SweptApps("app", ...)
		want      []string // Plan.Unread
		err       string   // refused instead
	}{
		{"two other apps' tables", several, nil, nil, []string{
			"s.toml:8: [hpl] is not read: the scenario's app is pingpong (--set app=hpl runs it)",
			"s.toml:12: [ring] is not read: the scenario's app is pingpong (--set app=ring runs it)"}, ""},
		{"switched with --set app", several, []string{"app=hpl"}, nil, []string{
			"s.toml:6: [pingpong] is not read: the scenario's app is hpl (--set app=pingpong runs it)",
			"s.toml:12: [ring] is not read: the scenario's app is hpl (--set app=ring runs it)"}, ""},
		{"swept apps are read", several, []string{"app=hpl"}, []string{"pingpong", "hpl"}, []string{
			"s.toml:12: [ring] is not read: no app of the sweep (pingpong, hpl) reads it"}, ""},
		{"every app swept", several, nil, []string{"pingpong", "hpl", "ring"}, nil, ""},
		{"a trace under HPL", "[replay]\nfile = \"t.txt\"\n" + platform, nil, nil, []string{
			"s.toml:1: [replay] is not read: the scenario's app is hpl (--set app=replay runs it)"}, ""},
		{"loggops semantics under HPL", loggops, nil, nil, []string{
			"s.toml:1: [replay] is not read: the scenario's app is hpl (--set app=replay runs it)"}, ""},
		{"top-level table under jobs, another app's table of a job", jobs, nil, nil, []string{
			"s.toml:5: [hpl] is not read: the scenario runs [[jobs]], which read their own tables ([jobs.hpl])",
			"s.toml:10: jobs[0]: [jobs.hpl] is not read: the job's app is ring (--set jobs.0.app=hpl runs it)"}, ""},
		{"only its own tables", "app = \"pingpong\"\n" + platform + "[pingpong]\nsizes = [8]\n", nil, nil, nil, ""},
		{"the embedded default switched", "", []string{"app=pingpong"}, nil, nil, ""},
		{"--set of a trace under HPL", platform, []string{`replay.file="t.txt"`}, nil, nil,
			`--set replay.file="t.txt": replay.file: a trace is given, but the scenario's app is hpl`},
		{"--set of semantics under HPL", platform, []string{`replay.semantics="loggops"`}, nil, nil,
			`replay.semantics: says how a trace replays, but the scenario's app is hpl`},
		{"--set of another app's table", several, []string{"hpl.nb=64"}, nil, nil,
			"--set hpl.nb=64: the scenario's app is pingpong, which reads no [hpl] table"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := defaultOr(t, c.src)
			if c.swept != nil {
				s.SweptApps("app", c.swept...)
			}
			mustSet(t, s, c.sets)
			p, err := s.Validate()
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("error %v\nwant %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var got []string
			for _, u := range p.Unread {
				got = append(got, u.String())
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("unread\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
