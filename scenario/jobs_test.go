package scenario

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

// TestJobsErrors: bad [[jobs]] input is one line naming the file, the
// line of the key (or of the job's header when the entry lacks the key) and
// the key as jobs[i].key, whether the decoder or the validation finds it.
func TestJobsErrors(t *testing.T) {
	for _, tc := range []struct {
		doc, want string
	}{
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"xhpl\"\n", `jobs.toml:9: jobs[0].app: unknown application "xhpl"`},
		{scenariotest.JobsPlatform + "\n[[jobs]]\nranks = 4\n", `jobs.toml:8: jobs[0].app: missing`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + "\n[[jobs]]\napp = \"ring\"\n", `jobs.toml:16: jobs[1].ranks: 0: a ring job needs ranks ≥ 2`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + scenariotest.CongestorJob("") + "\n[[jobs]]\napp = \"pingpong\"\n", `jobs[2].ranks: the job needs 2 ranks, the platform has 0 slots left of 32`},
		{scenariotest.JobsPlatform + strings.Replace(scenariotest.RingJob(""), "ranks = 16", "ranks = 40", 1), `jobs.toml:11: jobs[0].ranks: 40: the platform (32 hosts × 1 cores) holds 32 ranks`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("placement = \"scatter\"\n"), `jobs[0].placement: unknown placement "scatter" (block or random)`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + scenariotest.RingJob(""), `jobs[1].name: "ring" is also jobs[0]'s name`},
		{scenariotest.JobsPlatform + strings.Replace(scenariotest.CongestorJob(""), "all-to-all", "bisection", 1), `jobs[0].congestor.pattern: unknown pattern "bisection"`},
		{"app = \"hpl\"\n" + scenariotest.JobsPlatform + scenariotest.RingJob(""), `jobs.toml:1: app: the scenario has [[jobs]]`},
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"ring\"\nranks = 2\nhosts = 3\n", `jobs.toml:11: jobs[0].hosts: unknown key`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + "\n[[jobs]] # second\napp = \"ring\"\nranks = 2\nhosts = 3\n", `jobs.toml:19: jobs[1].hosts: unknown key`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = 2\nstart = \"soon\"\n", `jobs.toml:19: jobs[1].start: "soon" is not a time`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = \"two\"\n", `jobs.toml:18: jobs[1].ranks: want an integer, got a string`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = 2\n[jobs.ring]\nsizes = [\"big\"]\n", `jobs.toml:20: jobs[1].ring.sizes: "big" is not a size`},
		{scenariotest.JobsPlatform + scenariotest.RingJob("") + "\n[[jobs]]\napp = \"ring\"\nranks = 2\n[jobs.ring]\niterations = 0\n", `jobs.toml:20: jobs[1].ring.iterations: 0 must be ≥ 1`},
		{"jobs = [{app = \"ring\", ranks = 2},\n  {app = \"ring\", ranks = 2, hosts = 3}]\n" + scenariotest.JobsPlatform, `jobs.toml:1: jobs[1].hosts: unknown key`},
		{"jobs = [{app = \"ring\", ranks = 2},\n  {app = \"ring\", ranks = \"two\"}]\n" + scenariotest.JobsPlatform, `jobs.toml:2: jobs[1].ranks: want an integer, got a string`},
		{"jobs = [{app = \"ring\", ranks = 1}]\n" + scenariotest.JobsPlatform, `jobs.toml:1: jobs[0].ranks: 1: a ring job needs ranks ≥ 2`},
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"pingpong\"\nranks = 3\n", `jobs[0].ranks: 3, but the job's pingpong has 2 ranks`},
		// a negative count said "-3, but the job's largest HPL grid needs 1 ranks" (qa48)
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"hpl\"\nranks = -3\n", `jobs.toml:10: jobs[0].ranks: -3: want ≥ 1 (or leave it out: the job's hpl input says how many)`},
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"pingpong\"\nranks = -1\n", `jobs.toml:10: jobs[0].ranks: -1: want ≥ 1 (or leave it out: the job's pingpong input says how many)`},
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"hpl\"\nranks = 3\n[jobs.hpl]\ngrids = [[2, 2], [1, 2]]\n", `jobs.toml:10: jobs[0].ranks: 3, but the job's largest HPL grid needs 4 ranks`},
		{scenariotest.JobsPlatform + "\n[[jobs]]\napp = \"hpl\"\nranks = 40\n[jobs.hpl]\ngrids = [[2, 2]]\n", `jobs.toml:10: jobs[0].ranks: 40: the platform (32 hosts × 1 cores) holds 32 ranks`},
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

// TestJobsKeepProfiles: [[jobs]] on a platform whose speed, bandwidth or
// latency change in time load with the platform's profiles (the jobs'
// Machine plays them, runner.setMachineProfiles), as the same platform
// without [[jobs]] does; before, they were refused (qa30).
func TestJobsKeepProfiles(t *testing.T) {
	xml, err := filepath.Abs("../platform/testdata/profiles/small_platform_profile.xml")
	if err != nil {
		t.Fatal(err)
	}
	head := "[platform]\nfile = \"" + xml + "\"\n"
	jobs := "\n[[jobs]]\nname = \"r\"\napp = \"ring\"\nranks = 2\n[jobs.ring]\nsizes = [\"1KiB\"]\n"
	for _, doc := range []string{head + jobs, "app = \"ring\"\n" + head} {
		s, err := Parse([]byte(doc), "jobs.toml")
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Validate()
		if err != nil || p.Platform.Profiles.Empty() {
			t.Errorf("%q: %v, profiles empty %v", doc, err, p == nil || p.Platform.Profiles.Empty())
		}
	}
}

// TestJobsSetHints: an unknown key of a [[jobs]] entry's --set suggests a key
// of the entry, spelt as --set takes it; it suggested the scenario's own
// (`jobs.0.nb=4`: "did you mean hpl.nb?", which sets no job).
func TestJobsSetHints(t *testing.T) {
	doc := scenariotest.JobsPlatform + scenariotest.RingJob("")
	for _, tc := range []struct{ set, want string }{
		{"jobs.0.nb=4", "--set jobs.0.nb=4: unknown key jobs[0].nb (did you mean jobs.0.hpl.nb?)"},
		{"jobs.0.rank=4", "--set jobs.0.rank=4: unknown key jobs[0].rank (did you mean jobs.0.ranks?)"},
		{"jobs.0.iterations=3", "--set jobs.0.iterations=3: unknown key jobs[0].iterations (did you mean jobs.0.congestor.iterations, jobs.0.pingpong.iterations or jobs.0.ring.iterations?)"},
		{"jobs.0.seed=3", "--set jobs.0.seed=3: unknown key jobs[0].seed"},
	} {
		s, err := Parse([]byte(doc), "jobs.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set(tc.set); err == nil || err.Error() != tc.want {
			t.Errorf("--set %s: got %v, want %q", tc.set, err, tc.want)
		}
	}
}
