package runner

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

// TestJobsSlowdown: a ring of 16 ranks beside an all-to-all congestor of 16.
// In block placement the ring holds leaves 0–1 and the congestor leaves 2–3:
// no link in common, so each runs as alone (slowdown exactly 1). Placed at
// random, both cross the same up-links and the ring is measurably slower
// (slowdown > 1.5; the congestor, which moves 15× the ring's bytes, less so).
// Started after the ring's end, the congestor slows nothing. Each job's time
// alone is its time as the only job of the scenario.
func TestJobsSlowdown(t *testing.T) {
	random := "placement = \"random\"\n"
	for _, tc := range []struct {
		name            string
		doc             string
		ringSlow, cSlow func(float64) bool
	}{
		{"block", scenariotest.JobsPlatform + scenariotest.RingJob("") + scenariotest.CongestorJob(""), equalsOne, equalsOne},
		{"random", scenariotest.JobsPlatform + scenariotest.RingJob(random) + scenariotest.CongestorJob(random), func(s float64) bool { return s > 1.5 }, func(s float64) bool { return s > 1 }},
		{"congestor after the ring", scenariotest.JobsPlatform + scenariotest.RingJob(random) + scenariotest.CongestorJob(random+"start = \"1s\"\n"), equalsOne, equalsOne},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := jobsPlan(t, tc.doc)
			res, err := Run(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Jobs) != 2 || res.App != scenario.AppJobs || res.Ranks != 32 {
				t.Fatalf("result %+v", res)
			}
			ring, cong := res.Jobs[0], res.Jobs[1]
			if !tc.ringSlow(ring.Slowdown) || !tc.cSlow(cong.Slowdown) {
				t.Errorf("slowdowns: ring %.6g (%g s, alone %g s), congestor %.6g (%g s, alone %g s)",
					ring.Slowdown, ring.Time, ring.Alone, cong.Slowdown, cong.Time, cong.Alone)
			}
			if ring.Slowdown != ring.Time/ring.Alone || len(ring.Hosts) != 16 || ring.App != scenario.AppRing {
				t.Errorf("ring job %+v", ring)
			}
			// The ring alone is the scenario of that one job.
			doc := scenariotest.JobsPlatform + scenariotest.RingJob(strings.Repeat(random, strings.Count(tc.doc, random)/2))
			alone, err := Run(jobsPlan(t, doc), Options{NoAlone: true})
			if err != nil {
				t.Fatal(err)
			}
			if alone.Jobs[0].Time != ring.Alone || alone.Jobs[0].Alone != 0 {
				t.Errorf("ring alone %g s as the only job, %g s as measured beside the congestor", alone.Jobs[0].Time, ring.Alone)
			}
		})
	}
}

// TestJobsZeroTimeSlowdown: a job that takes no time alone has no slowdown
// (not Time/0 = NaN), so the result still encodes as JSON. Under the
// compute-only bound a ring of messages started after 0 ends, in float64, at
// its start: time and alone time are both exactly 0.
func TestJobsZeroTimeSlowdown(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		bound     string
	}{
		{"compute-only ring started late", scenariotest.JobsPlatform + scenariotest.RingJob("start = \"10us\"\n"), scenario.BoundComputeOnly},
		{"compute-only ring and congestor", scenariotest.JobsPlatform + scenariotest.RingJob("start = \"1ms\"\n") + scenariotest.CongestorJob(""), scenario.BoundComputeOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := jobsPlan(t, tc.doc)
			if err := p.ApplyBound(tc.bound); err != nil {
				t.Fatal(err)
			}
			res, err := Run(p, Options{Bound: tc.bound})
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range res.Jobs {
				if math.IsNaN(j.Slowdown) || math.IsInf(j.Slowdown, 0) || (j.Alone == 0) != (j.Slowdown == 0) {
					t.Errorf("job %s: time %g s, alone %g s, slowdown %g", j.Name, j.Time, j.Alone, j.Slowdown)
				}
			}
			if res.Jobs[0].Alone != 0 {
				t.Errorf("the ring takes %g s alone under %s, want 0 (the case this test is about)", res.Jobs[0].Alone, tc.bound)
			}
			if _, err := json.Marshal(res); err != nil {
				t.Errorf("JSON: %v", err)
			}
		})
	}
}

// TestJobsHPLAndReplay: an HPL job and a replayed trace run together; the
// HPL job reports HPL's results (its Time within the job's), the replay its
// own; the traffic report covers both jobs' messages.
func TestJobsHPLAndReplay(t *testing.T) {
	dir := scenariotest.WriteScenario(t, map[string]string{
		"a2a.txt": alltoallTrace(8, 1<<16),
		"s.toml": scenariotest.JobsPlatform + `
[[jobs]]
app = "hpl"
placement = "random"
[jobs.hpl]
n = 600
nb = 64
grids = [[2, 4]]

[[jobs]]
app = "replay"
start = "1ms"
[jobs.replay]
file = "a2a.txt"
`,
	})
	s, err := scenario.Load(filepath.Join(dir, "s.toml"))
	res, err := Run(mustPlan(t, s, err), Options{Links: true})
	if err != nil {
		t.Fatal(err)
	}
	h, r := res.Jobs[0], res.Jobs[1]
	if h.Name != "hpl-1" || h.Ranks != 8 || len(h.Result.HPL) != 1 || h.Result.HPL[0].N != 600 ||
		!(h.Result.HPL[0].Time > 0) || h.Result.HPL[0].Time > h.Time || !(h.Slowdown >= 1) {
		t.Errorf("HPL job %+v, HPL %+v", h, *h.Result.HPL[0])
	}
	if r.Name != "replay-2" || r.Start != 1e-3 || r.Ranks != 8 || r.Result.Replay == nil || !(r.Time > 0) {
		t.Errorf("replay job %+v", r)
	}
	msgs := 0
	for _, c := range res.Traffic.Highest {
		msgs += c.Messages
	}
	if !(msgs > 8*7) || res.SimulatedTime < r.Start+r.Time {
		t.Errorf("traffic counts %d messages; run %g s", msgs, res.SimulatedTime)
	}
}

// TestOneJobIsTheApp: a scenario of one job runs exactly as the scenario of
// that app alone (same seed, same slots from the first, both wake orders):
// the same time and the same results, to the bit. Job 0's seed is the
// scenario's.
func TestOneJobIsTheApp(t *testing.T) {
	tables := map[string]string{
		"ring": "[%s]\nsizes = [1000, \"1MiB\"]\niterations = 2\n",
		"hpl":  "[%s]\nn = 700\nnb = 64\ngrids = [[2, 4]]\npfact = [\"left\", \"right\"]\n",
	}
	for _, app := range []string{"ring", "hpl"} {
		for _, wake := range []string{"rank", "simgrid"} {
			t.Run(app+"/"+wake, func(t *testing.T) {
				platform := strings.Replace(scenariotest.JobsPlatform, "seed = 1", "seed = 5", 1) + "[network]\nwake_order = \"" + wake + "\"\n"
				ranks := ""
				if app == "ring" {
					platform = strings.Replace(platform, "2;8,4;1,2;1,1", "2;4,2;1,2;1,1", 1)
					ranks = "ranks = 8\n"
				}
				single := "app = \"" + app + "\"\n" + platform + fmt.Sprintf(tables[app], app)
				jobs := platform + "\n[[jobs]]\napp = \"" + app + "\"\n" + ranks + fmt.Sprintf(tables[app], "jobs."+app)
				a, err := Run(jobsPlan(t, single), Options{})
				if err != nil {
					t.Fatal(err)
				}
				b, err := Run(jobsPlan(t, jobs), Options{NoAlone: true})
				if err != nil {
					t.Fatal(err)
				}
				ja, _ := json.Marshal(a.Results)
				jb, _ := json.Marshal(b.Jobs[0].Results)
				if a.SimulatedTime != b.Jobs[0].Time || string(ja) != string(jb) {
					t.Errorf("alone %g s %s\njob   %g s %s", a.SimulatedTime, ja, b.Jobs[0].Time, jb)
				}
			})
		}
	}
}

// TestJobsCongestorDuration: a congestor given a duration runs as long as
// the ring beside it (12.6 ms alone; 20 ms asked) and stops by itself, and
// slows the ring as much as the same congestor run for a fixed number of
// rounds that outlasts it.
func TestJobsCongestorDuration(t *testing.T) {
	random := "placement = \"random\"\n"
	cong := strings.Replace(scenariotest.CongestorJob(random), "iterations = 5\n", "duration = \"20ms\"\n", 1)
	res, err := Run(jobsPlan(t, scenariotest.JobsPlatform+scenariotest.RingJob(random)+cong), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ring, c := res.Jobs[0], res.Jobs[1]
	r := c.Result.Congestor
	if !(c.Time >= 0.02) || c.Time > 0.03 || r.Iterations < 2 || !(ring.Slowdown > 1.5) {
		t.Errorf("ring %+v; congestor %+v, %+v", ring, c, r)
	}
	bad := strings.Replace(cong, "\"20ms\"", "\"0s\"", 1)
	s, err := scenario.Parse([]byte(scenariotest.JobsPlatform+bad), "jobs.toml")
	if err == nil {
		_, err = s.Validate()
	}
	if err == nil || !strings.Contains(err.Error(), "jobs[0].congestor.duration: 0 s must be > 0") {
		t.Errorf("duration 0: %v", err)
	}
}

// TestSetJobKeys: --set reaches a [[jobs]] entry's keys as jobs.N.key (N from
// 0, as errors number the entries): the congestor's placement set to random
// makes the ring slower than the same scenario in blocks, and a bad index or
// key is a one-line error naming it.
func TestSetJobKeys(t *testing.T) {
	doc := scenariotest.JobsPlatform + scenariotest.RingJob("") + scenariotest.CongestorJob("")
	run := func(sets ...string) *Result {
		t.Helper()
		s, err := scenario.Parse([]byte(doc), "jobs.toml")
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range sets {
			if err := s.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		p := mustPlan(t, s, nil)
		res, err := Run(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	blocks := run()
	spread := run("jobs.0.placement=random", "jobs.1.placement=random")
	if blocks.Jobs[0].Slowdown != 1 || spread.Jobs[0].Slowdown <= 1.1 {
		t.Errorf("ring slowdown %g in blocks, %g placed at random by --set: want 1 and more", blocks.Jobs[0].Slowdown, spread.Jobs[0].Slowdown)
	}
	if fewer := run("jobs.1.congestor.iterations=1"); fewer.Jobs[1].Time >= blocks.Jobs[1].Time {
		t.Errorf("congestor of 1 iteration took %g s, of 5 %g s", fewer.Jobs[1].Time, blocks.Jobs[1].Time)
	}
	for kv, want := range map[string]string{
		"jobs.2.ranks=4":                "--set jobs.2.ranks=4: jobs[2]: the scenario has 2 [[jobs]] entries, numbered from 0",
		"jobs.x.ranks=4":                "--set jobs.x.ranks=4: jobs.x.ranks: want jobs.N.key, N a [[jobs]] entry's number (from 0)",
		"jobs.ranks=4":                  "--set jobs.ranks=4: jobs.ranks: want jobs.N.key",
		"jobs.0.rank=4":                 "--set jobs.0.rank=4: unknown key jobs[0].rank",
		"jobs.0.start=soon":             "--set jobs.0.start=soon: jobs[0].start: \"soon\" is not a time",
		"jobs.0.ranks=two":              "--set jobs.0.ranks=two: jobs[0].ranks: want an integer, got a string",
		"jobs.1.congestor.iterations=x": "--set jobs.1.congestor.iterations=x: jobs[1].congestor.iterations: want an integer",
	} {
		s, err := scenario.Parse([]byte(doc), "jobs.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set(kv); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("--set %s: got %v, want %q", kv, err, want)
		}
	}
	// A value the validation refuses names the --set that gave it, too.
	for kv, want := range map[string]string{
		"jobs.0.ranks=1":                "--set jobs.0.ranks=1: jobs[0].ranks: 1: a ring job needs ranks ≥ 2",
		"jobs.1.congestor.iterations=0": "--set jobs.1.congestor.iterations=0: jobs[1].congestor.iterations: 0 must be ≥ 1",
	} {
		s, err := scenario.Parse([]byte(doc), "jobs.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err = s.Set(kv); err == nil {
			_, err = s.Validate()
		}
		if err == nil || err.Error() != want {
			t.Errorf("--set %s: got %v, want %q", kv, err, want)
		}
	}
}

func jobsPlan(t *testing.T, doc string) *scenario.Plan {
	t.Helper()
	s, err := scenario.Parse([]byte(doc), "jobs.toml")
	return mustPlan(t, s, err)
}

func equalsOne(s float64) bool { return s == 1 }

// alltoallTrace is a TI trace of one all-to-all of size bytes per pair
// between n ranks.
func alltoallTrace(n, size int) string {
	var b strings.Builder
	for r := range n {
		fmt.Fprintf(&b, "%d init\n%d alltoall %d %d\n%d finalize\n", r, r, size, size, r)
	}
	return b.String()
}

// TestJobsReplayTime: a replay job's result holds its own time, from its
// start to its last rank's end, as a run of the trace alone gives it (it
// held the engine's time when the replay returned: the last job's end, so
// a 402 µs ring beside an 802 µs message read 802 µs). By hand, on a flat
// cluster of 1.25 GB/s, 1 µs links under plain max-min, no envelope: one
// message of 10⁶ B takes 2 µs + 800 µs; a ring of 5 ranks passing 500 kB
// to the next at once, 2 + 400 µs. The jobs share no link.
func TestJobsReplayTime(t *testing.T) {
	ring := ""
	for r := 0; r < 5; r++ {
		ring += fmt.Sprintf("%d isend %d 0 500000\n%d irecv %d 0 500000\n%d waitall 2\n", r, (r+1)%5, r, (r+4)%5, r)
	}
	const platform = "[platform]\nhosts = 7\nlink_bandwidth = \"1.25GBps\"\nlink_latency = \"1us\"\n" +
		"[network]\nmodel = \"cm02\"\nlat_factor = \"none\"\nbw_factor = \"none\"\nenvelope = \"0B\"\ncross_traffic = 0\n"
	const jobs = "[[jobs]]\napp = \"replay\"\n%s[jobs.replay]\nfile = \"p2p.txt\"\n[[jobs]]\napp = \"replay\"\n%s[jobs.replay]\nfile = \"ring.txt\"\n"
	for _, tc := range []struct {
		name, start0, start1 string
		want                 [2]float64 // each job's result time, s
	}{
		{"together", "", "", [2]float64{802e-6, 402e-6}},
		{"ring started late", "", "start = \"1ms\"\n", [2]float64{802e-6, 402e-6}},
		{"message started late", "start = \"1ms\"\n", "", [2]float64{802e-6, 402e-6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scenariotest.WriteScenario(t, map[string]string{
				"p2p.txt":  "0 send 1 0 1000000\n1 recv 0 0 1000000\n",
				"ring.txt": ring,
				"s.toml":   platform + fmt.Sprintf(jobs, tc.start0, tc.start1),
			})
			s, err := scenario.Load(filepath.Join(dir, "s.toml"))
			res, err := Run(mustPlan(t, s, err), Options{NoAlone: true})
			if err != nil {
				t.Fatal(err)
			}
			for i, j := range res.Jobs {
				if got := j.Result.Replay.Time; math.Abs(got-tc.want[i]) > 1e-15 || math.Abs(j.Time-tc.want[i]) > 1e-15 {
					t.Errorf("job %s: result %g s, job %g s; want %g s", j.Name, got, j.Time, tc.want[i])
				}
			}
		})
	}
}
