package scenario

import (
	"strings"
	"testing"
)

// jobsPlatform is a fat tree of 4 leaves of 8 hosts with 2 up-links a leaf
// (4:1), so that jobs on different leaves share no link and jobs spread
// over the leaves share the up-links.
const jobsPlatform = `seed = 1
[platform]
topology = "fat-tree"
fat_tree = "2;8,4;1,2;1,1"
link_bandwidth = "10GBps"
link_latency = "1us"
`

// ringJob and congestorJob are [[jobs]] entries of 16 ranks; extra keys
// (placement, start) go right after the header.
func ringJob(extra string) string {
	return "\n[[jobs]]\nname = \"ring\"\napp = \"ring\"\nranks = 16\n" + extra + "[jobs.ring]\nsizes = [\"1MiB\"]\niterations = 5\n"
}

func congestorJob(extra string) string {
	return "\n[[jobs]]\nname = \"congestor\"\napp = \"congestor\"\nranks = 16\n" + extra +
		"[jobs.congestor]\npattern = \"all-to-all\"\nbytes = \"1MiB\"\niterations = 5\n"
}

// TestJobsErrors: bad [[jobs]] input is one line naming the file, the
// line of the key (or of the job's header when the entry lacks the key) and
// the key as jobs[i].key, whether the decoder or the validation finds it.
func TestJobsErrors(t *testing.T) {
	for _, tc := range []struct {
		doc, want string
	}{
		{jobsPlatform + "\n[[jobs]]\napp = \"xhpl\"\n", `jobs.toml:9: jobs[0].app: unknown application "xhpl"`},
		{jobsPlatform + "\n[[jobs]]\nranks = 4\n", `jobs.toml:8: jobs[0].app: missing`},
		{jobsPlatform + ringJob("") + "\n[[jobs]]\napp = \"ring\"\n", `jobs.toml:16: jobs[1].ranks: 0: a ring job needs ranks ≥ 2`},
		{jobsPlatform + ringJob("") + congestorJob("") + "\n[[jobs]]\napp = \"pingpong\"\n", `jobs[2].ranks: the job needs 2 ranks, the platform has 0 slots left of 32`},
		{jobsPlatform + strings.Replace(ringJob(""), "ranks = 16", "ranks = 40", 1), `jobs.toml:11: jobs[0].ranks: 40: the platform (32 hosts × 1 cores) holds 32 ranks`},
		{jobsPlatform + ringJob("placement = \"scatter\"\n"), `jobs[0].placement: unknown placement "scatter" (block or random)`},
		{jobsPlatform + ringJob("") + ringJob(""), `jobs[1].name: "ring" is also jobs[0]'s name`},
		{jobsPlatform + strings.Replace(congestorJob(""), "all-to-all", "bisection", 1), `jobs[0].congestor.pattern: unknown pattern "bisection"`},
		{"app = \"hpl\"\n" + jobsPlatform + ringJob(""), `jobs.toml:1: app: the scenario has [[jobs]]`},
		{jobsPlatform + "\n[[jobs]]\napp = \"ring\"\nranks = 2\nhosts = 3\n", `jobs.toml:11: jobs[0].hosts: unknown key`},
		{jobsPlatform + ringJob("") + "\n[[jobs]] # second\napp = \"ring\"\nranks = 2\nhosts = 3\n", `jobs.toml:19: jobs[1].hosts: unknown key`},
		{jobsPlatform + ringJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = 2\nstart = \"soon\"\n", `jobs.toml:19: jobs[1].start: "soon" is not a time`},
		{jobsPlatform + ringJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = \"two\"\n", `jobs.toml:18: jobs[1].ranks: want an integer, got a string`},
		{jobsPlatform + ringJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = 2\n[jobs.ring]\nsizes = [\"big\"]\n", `jobs.toml:20: jobs[1].ring.sizes: "big" is not a size`},
		{jobsPlatform + ringJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = 2\n[jobs.ring]\niterations = 0\n", `jobs.toml:20: jobs[1].ring.iterations: 0 must be ≥ 1`},
		{"jobs = [{app = \"ring\", ranks = 2},\n  {app = \"ring\", ranks = 2, hosts = 3}]\n" + jobsPlatform, `jobs.toml:1: jobs[1].hosts: unknown key`},
		{"jobs = [{app = \"ring\", ranks = 2},\n  {app = \"ring\", ranks = \"two\"}]\n" + jobsPlatform, `jobs.toml:2: jobs[1].ranks: want an integer, got a string`},
		{"jobs = [{app = \"ring\", ranks = 1}]\n" + jobsPlatform, `jobs.toml:1: jobs[0].ranks: 1: a ring job needs ranks ≥ 2`},
		{jobsPlatform + "\n[[jobs]]\napp = \"pingpong\"\nranks = 3\n", `jobs[0].ranks: 3, but the job's pingpong has 2 ranks`},
	} {
		s, err := Parse([]byte(tc.doc), "jobs.toml")
		if err == nil {
			_, err = s.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("error %v, want one line with %q", err, tc.want)
		}
	}
}
