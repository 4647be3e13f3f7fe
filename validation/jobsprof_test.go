package validation

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// jobsProfDir holds two TI traces replayed at once ([[jobs]]) on a platform
// whose backbone's bandwidth, a link's latency and two hosts' speeds change
// in time, and SimGrid 3.32's times for each case: the two traces as SMPI
// application instances of one simulation (testdata/jobsprof/run_smpi.sh).
const jobsProfDir = "testdata/jobsprof"

// TestJobsProfilesAgainstSMPI runs each case of testdata/jobsprof as two
// [[jobs]] on backbone.xml and requires each job's end to be SimGrid's
// (two SMPI instances in one simulation) to its printed digit: the
// platform's profiles play once for both jobs, on the links their messages
// share and the hosts their computes run on. In five cases
// (pingpong+allreduce, pingpong+stream@0.02, pingpong+pingpong,
// allreduce+pingpong, share4+pingpong) a message's latency phase holds a
// change of a link it crosses, which SimGrid 3.32 stalls (enabled at the
// change, no completion projected at the phase's end, moved on by the
// next re-solve): emu skipped them before it stalled such a message too.
func TestJobsProfilesAgainstSMPI(t *testing.T) {
	rows := readSMPITimes(t, filepath.Join(jobsProfDir, "smpi_times.csv"), "job1,ranks1,job2,ranks2,start2_s,job1_s,job2_s")
	for i, r := range rows {
		key := r[0] + "+" + r[2]
		if r[4] != "0" {
			key += "@" + r[4]
		}
		t.Run(key, func(t *testing.T) {
			var want [2]float64
			for j := range want {
				v, err := strconv.ParseFloat(r[5+j], 64)
				if err != nil {
					t.Fatalf("smpi_times.csv:%d: %v", i+2, r)
				}
				want[j] = v
			}
			t.Parallel()
			got := runJobsProf(t, r[0], r[2], r[4], "simgrid")
			for j := range got {
				t.Logf("job %d: emu %.15f s, SMPI %.15f s: %+.3g s", j+1, got[j], want[j], got[j]-want[j])
				if math.Abs(got[j]-want[j]) > tiTolerance {
					t.Errorf("job %d ends at %.15f s, SMPI at %.15f s: %+.3g s (tolerance %g s)", j+1, got[j], want[j], got[j]-want[j], tiTolerance)
				}
			}
		})
	}
}

// runJobsProf runs traces job1 and job2 as two [[jobs]] on backbone.xml
// (job 2 starting at start2 s) under wake order order and SMPI's
// collectives, and returns each job's end, s.
func runJobsProf(t *testing.T, job1, job2, start2, order string) [2]float64 {
	t.Helper()
	res := runJobsOn(t, order, jobsProfJob(job1, "0"), jobsProfJob(job2, start2))
	var ends [2]float64
	for j, jr := range res.Jobs {
		ends[j] = jr.Start + jr.Time
	}
	return ends
}

// jobsProfJob is a [[jobs]] entry replaying testdata/jobsprof's trace from
// start s.
func jobsProfJob(trace, start string) string {
	file, _ := filepath.Abs(filepath.Join(jobsProfDir, "traces", trace+".txt"))
	return fmt.Sprintf("\n[[jobs]]\napp = \"replay\"\nstart = \"%ss\"\n[jobs.replay]\nfile = %q\n", start, file)
}

// jobsProfXML is backbone.xml's path.
func jobsProfXML(t *testing.T) string {
	t.Helper()
	xml, err := filepath.Abs(filepath.Join(jobsProfDir, "platforms", "backbone.xml"))
	if err != nil {
		t.Fatal(err)
	}
	return xml
}

// steadyXML is backbone.xml without its profiles, in a file of the test's.
func steadyXML(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(jobsProfXML(t))
	if err != nil {
		t.Fatal(err)
	}
	steady := regexp.MustCompile(`\s(speed|bandwidth|latency)_file="[^"]*"|<trace_connect[^>]*/>`).ReplaceAll(data, nil)
	if bytes.Contains(steady, []byte("_file")) || bytes.Contains(steady, []byte("trace_connect")) {
		t.Fatal("backbone.xml's profiles were not all taken out")
	}
	out := filepath.Join(t.TempDir(), "steady.xml")
	if err := os.WriteFile(out, steady, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// runJobsOn runs jobs on backbone.xml under wake order order and SMPI's
// collectives, without the jobs' runs alone.
func runJobsOn(t *testing.T, order string, jobs ...string) *runner.Result {
	t.Helper()
	res, err := runJobsOnErr(t, order, jobs...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runJobsOnErr is runJobsOn returning the run's error.
func runJobsOnErr(t *testing.T, order string, jobs ...string) (*runner.Result, error) {
	t.Helper()
	doc := fmt.Sprintf("[platform]\nfile = %q\n[network]\nwake_order = %q\ncollectives = \"smpi\"\n", jobsProfXML(t), order)
	s, err := scenario.Parse([]byte(doc+strings.Join(jobs, "")), "jobs.toml")
	if err != nil {
		t.Fatal(err)
	}
	return runner.Run(plantest.Validated(t, s), runner.Options{NoAlone: true})
}

// TestJobAloneIsTheRun: a trace as the only [[jobs]] entry on backbone.xml
// ends when the same trace run alone (emu run --replay, a World of its own)
// ends, to the bit, in both wake orders: a Machine plays the profiles as a
// World does. (The profiles change every trace's time: each is also
// required to differ from its time on the platform without them.)
// pingpong under SimGrid's order stalls its 1 MB b→a, whose latency phase
// holds bb's change at 7 ms, as SimGrid 3.32 does: alone, SimGrid
// deadlocks at 0.009715 s, and so must emu, as a job and alone, at one
// date.
func TestJobAloneIsTheRun(t *testing.T) {
	for _, trace := range []string{"pingpong", "compute", "allreduce", "share4", "stream"} {
		for _, order := range []string{"rank", "simgrid"} {
			t.Run(trace+"/"+order, func(t *testing.T) {
				t.Parallel()
				if trace == "pingpong" && order == "simgrid" {
					_, errJob := runJobsOnErr(t, order, jobsProfJob(trace, "0"))
					_, errAlone := replaySMPIErr(t, jobsProfXML(t), filepath.Join(jobsProfDir, "traces", trace+".txt"), "network.wake_order="+order)
					var job, alone *replay.DeadlockError
					if !errors.As(errJob, &job) || !errors.As(errAlone, &alone) || job.Stalled == 0 || alone.Stalled == 0 {
						t.Fatalf("want a stalled message's deadlock as a job and alone; got %v and %v", errJob, errAlone)
					}
					if job.Time != alone.Time || math.Abs(job.Time-0.009715) > 5e-7 {
						t.Errorf("deadlocks at %.17g s as a job, %.17g s alone; SimGrid's at 0.009715 s", job.Time, alone.Time)
					}
					return
				}
				res := runJobsOn(t, order, jobsProfJob(trace, "0"))
				job := res.Jobs[0].Time
				alone := runAlone(t, jobsProfXML(t), trace, order)
				steady := runAlone(t, steadyXML(t), trace, order)
				if job != alone {
					t.Errorf("as the only job %.17g s, alone %.17g s", job, alone)
				}
				if steady == alone {
					t.Errorf("the profiles change nothing: %.17g s with and without", alone)
				}
			})
		}
	}
}

// runAlone runs testdata/jobsprof's trace alone on platform xml under wake
// order order and returns its time.
func runAlone(t *testing.T, xml, trace, order string) float64 {
	t.Helper()
	return replaySMPI(t, xml, filepath.Join(jobsProfDir, "traces", trace+".txt"), "network.wake_order="+order)
}

// TestJobSharesCoresAgainstSMPI: a TI replay as the only [[jobs]] entry
// shares its hosts' cores as the same replay alone does (testdata/cpushare,
// ranks placed several to a core by hostfiles and --np), and gives
// SimGrid 3.32's replayer's time: a job's computes are SimGrid's
// executions on the Machine's CPUs (before, a job's computes were sleeps,
// and share2 on one 1-core host took 0.257 s where SimGrid's takes 0.387).
func TestJobSharesCoresAgainstSMPI(t *testing.T) {
	forEachCPUShareCase(t, func(t *testing.T, c cpushareCase) {
		xml, _ := filepath.Abs(filepath.Join(cpuDir, "platforms", c.plat+".xml"))
		file, _ := filepath.Abs(filepath.Join(cpuDir, "traces", c.trace+".txt"))
		doc := fmt.Sprintf("[platform]\nfile = %q\n[network]\nwake_order = \"simgrid\"\ncollectives = \"smpi\"\n\n[[jobs]]\napp = \"replay\"\n[jobs.replay]\nfile = %q\n", xml, file)
		res := emulate(t, doc, runner.Options{NoAlone: true}, c.sets()...)
		if got := res.Jobs[0].Time; math.Abs(got-c.want) > tiTolerance {
			t.Errorf("the job %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, c.want, got-c.want, tiTolerance)
		}
	})
}
