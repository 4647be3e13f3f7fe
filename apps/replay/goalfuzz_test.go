package replay

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// fuzzDir holds the generated schedules and LogGOPSim's figures on them.
const fuzzDir = "testdata/goalfuzz"

// -goalfuzz.big keeps the large schedules of the scale check
// (fuzzBigSchedules: 8 MB, too large for testdata; their LogGOPSim table is
// testdata/goalfuzz/big/loggopsim.csv) in a folder, for LogGOPSim's runs.
var fuzzBigDir = flag.String("goalfuzz.big", "", "write the large schedules of the scale check into this folder")

// TestGOALFuzzSchedules pins testdata/goalfuzz/*.goal to their generator
// (goalfuzz_gen_test.go); go test -run GOALFuzzSchedules -update rewrites
// them, after which loggopsim.csv must be made again (its README).
func TestGOALFuzzSchedules(t *testing.T) {
	for i, fs := range fuzzSchedules() {
		golden.Check(t, filepath.Join(fuzzDir, fs.name+".goal"), []byte(fs.make(fuzzSeed(i)).text()))
	}
}

// writeBig writes the large schedules into dir and returns their ops.
func writeBig(t *testing.T, dir string) int {
	t.Helper()
	ops := 0
	for i, fs := range fuzzBigSchedules() {
		g := fs.make(fuzzSeed(i))
		for _, rk := range g.ranks {
			ops += len(rk.ops)
		}
		if err := os.WriteFile(filepath.Join(dir, fs.name+".goal"), []byte(g.text()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ops
}

// fuzzRun is one row of loggopsim.csv: a LogGOPSim run, its parameters in
// LogGOPSim's integer time unit (ns, the unit of GOAL's calcs) and what it
// printed.
type fuzzRun struct {
	schedule         string
	L, o, g, G, O, S int64
	outcome          string   // "ok" or "incomplete" (LogGOPSim listed non-empty queues instead of times)
	runtime          string   // ns, as printed: the largest host time
	maxHost          int      // the first host with that time
	hosts            []string // ns per host, as printed (16 ranks or fewer; else none)
	line             int      // in loggopsim.csv
}

// fuzzColumns are loggopsim.csv's columns.
var fuzzColumns = []string{"schedule", "L", "o", "g", "G", "O", "S", "outcome", "runtime", "max_host", "host_times", "command"}

// loadFuzzRuns reads loggopsim.csv, checking that each row's command is
// the run its columns say.
func loadFuzzRuns(t *testing.T, path string) []fuzzRun {
	t.Helper()
	recs := scenariotest.ReadCSV(t, path)
	if !slices.Equal(recs[0], fuzzColumns) {
		t.Fatalf("%s: columns %v, want %v", path, recs[0], fuzzColumns)
	}
	var runs []fuzzRun
	for i, rec := range recs[1:] {
		r := fuzzRun{schedule: rec[0], outcome: rec[7], runtime: rec[8], line: i + 2}
		var err error
		for j, p := range []*int64{&r.L, &r.o, &r.g, &r.G, &r.O, &r.S} {
			if *p, err = strconv.ParseInt(rec[1+j], 10, 64); err != nil {
				t.Fatalf("%s:%d: %v", path, r.line, err)
			}
		}
		if r.outcome == "ok" {
			if r.maxHost, err = strconv.Atoi(rec[9]); err != nil {
				t.Fatalf("%s:%d: %v", path, r.line, err)
			}
		}
		if rec[10] != "" {
			r.hosts = strings.Fields(rec[10])
		}
		cmd := fmt.Sprintf("txt2bin -i %[1]s.goal -o %[1]s.bin && LogGOPSim -f %[1]s.bin -L %d -o %d -g %d -G %d -O %d -S %d", r.schedule, r.L, r.o, r.g, r.G, r.O, r.S)
		if rec[11] != cmd {
			t.Fatalf("%s:%d: command %q, want %q", path, r.line, rec[11], cmd)
		}
		runs = append(runs, r)
	}
	return runs
}

// TestGOALFuzzLogGOPSim replays every run of loggopsim.csv under the
// loggops semantics and requires LogGOPSim's outcome: where it printed
// times, the same runtime and (16 ranks or fewer) the same time per host,
// to the unit it printed (1 ns here, 1,000 of the replay's picoseconds);
// where it listed unmatched queues, an IncompleteError. Two refusals are
// allowed, each checked for its cause: ops that never started (LogGOPSim
// prints a time for the part it ran, which the engine must give too), and
// LogGOPSim's unsigned time wrapping (a 0-byte message whose −G or −O took
// a time below 0; loggops.TestReplayWrap).
func TestGOALFuzzLogGOPSim(t *testing.T) {
	compareFuzzRuns(t, fuzzDir, loadFuzzRuns(t, filepath.Join(fuzzDir, "loggopsim.csv")))
}

// TestGOALFuzzLogGOPSimBig is the same check on the large schedules,
// written afresh by their generator into a temporary folder, or into
// -goalfuzz.big DIR for LogGOPSim's runs (not in -short: 5 s).
func TestGOALFuzzLogGOPSimBig(t *testing.T) {
	if testing.Short() {
		t.Skip("8 MB of schedules")
	}
	dir := *fuzzBigDir
	if dir == "" {
		dir = t.TempDir()
	}
	if ops := writeBig(t, dir); ops < 100000 {
		t.Errorf("the large schedules hold %d ops, want at least 100,000", ops)
	}
	compareFuzzRuns(t, dir, loadFuzzRuns(t, filepath.Join(fuzzDir, "big", "loggopsim.csv")))
}

// compareFuzzRuns replays runs of the schedules in dir (TestGOALFuzzLogGOPSim).
func compareFuzzRuns(t *testing.T, dir string, runs []fuzzRun) {
	traces := map[string]*traceformat.Trace{}
	var agree, incomplete, partial, wrapped int
	for _, r := range runs {
		tr := traces[r.schedule]
		if tr == nil {
			var err error
			if tr, err = Load(filepath.Join(dir, r.schedule+".goal"), traceformat.FormatGOAL); err != nil {
				t.Fatal(err)
			}
			traces[r.schedule] = tr
		}
		name := fmt.Sprintf("loggopsim.csv:%d %s L=%d o=%d g=%d G=%d O=%d S=%d", r.line, r.schedule, r.L, r.o, r.g, r.G, r.O, r.S)
		p := loggops.Params{L: float64(r.L) * 1e-9, O: float64(r.o) * 1e-9, Gap: float64(r.g) * 1e-9,
			G: float64(r.G) * 1e-9, OPerByte: float64(r.O) * 1e-9, S: r.S}
		res, err := RunLogGOPS(tr, p)
		var inc *IncompleteError
		var linc *loggops.IncompleteError
		var wrap *loggops.WrapError
		switch {
		case errors.As(err, &wrap): // whether LogGOPSim then ran to its end or not
			if !wrapPossible(tr.GOAL, r) {
				t.Errorf("%s: %v, but no 0-byte message can wrap with these parameters", name, err)
			}
			wrapped++
			continue
		case r.outcome == "incomplete":
			if !errors.As(err, &linc) {
				t.Errorf("%s: LogGOPSim left queues unmatched; emu: %v", name, err)
			}
			incomplete++
			continue
		case r.outcome != "ok":
			t.Fatalf("%s: outcome %q", name, r.outcome)
		case errors.As(err, &inc):
			partial++ // ops never started: the engine's figures must still be LogGOPSim's
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		default:
			agree++
		}
		lr, err := loggops.Replay(tr.GOAL, p)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// LogGOPSim's own structures (linear queues, retries) must agree.
		if e, err := loggops.New(tr.GOAL, p, loggops.Options{Reference: true}); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if ref, err := e.Run(); err != nil || !slices.Equal(ref.RankTimes, lr.RankTimes) {
			t.Errorf("%s: reference engine %v (%v), fast %v", name, ref, err, lr.RankTimes)
		}
		if res != nil && res.Time != lr.Runtime {
			t.Errorf("%s: RunLogGOPS %v s, the engine %v s", name, res.Time, lr.Runtime)
		}
		if got := nsString(lr.Runtime); got != r.runtime {
			t.Errorf("%s: emu %s ns, LogGOPSim %s ns", name, got, r.runtime)
		}
		if h := slices.Index(lr.RankTimes, lr.Runtime); h != r.maxHost {
			t.Errorf("%s: emu's first host to finish last is %d, LogGOPSim's %d", name, h, r.maxHost)
		}
		if r.hosts != nil {
			got := make([]string, len(lr.RankTimes))
			for h, v := range lr.RankTimes {
				got[h] = nsString(v)
			}
			if !slices.Equal(got, r.hosts) {
				t.Errorf("%s: per host emu %v ns, LogGOPSim %v ns", name, got, r.hosts)
			}
		}
	}
	t.Logf("%d runs: %d agree, %d incomplete in both, %d partial (LogGOPSim's time for the part it ran), %d refused for LogGOPSim's wrapping time",
		len(runs), agree, incomplete, partial, wrapped)
	if agree == 0 || incomplete == 0 {
		t.Errorf("the table should hold both complete and incomplete runs")
	}
}

// nsString prints a replay time (seconds, a whole number of ns here) as
// LogGOPSim prints its integer time.
func nsString(sec float64) string {
	return strconv.FormatInt(int64(math.Round(sec*1e9)), 10)
}

// wrapPossible reports whether run r's parameters let a 0-byte message of
// s take a time below 0: at its send (o − O or g − G below 0) or at its
// receipt (o minus the larger of −O and −G, unsigned; g − G).
func wrapPossible(s *traceformat.Schedule, r fuzzRun) bool {
	zero := false
	for _, op := range s.Ops() {
		zero = zero || op.Kind == traceformat.OpSend && op.Size == 0
	}
	recvExtra := min(r.O, r.G) // −min(O, G), or −max when one is 0
	if r.O == 0 || r.G == 0 {
		recvExtra = max(r.O, r.G)
	}
	return zero && (r.o < r.O || r.g < r.G || r.o < recvExtra)
}

// TestLogGOPSRefusals: what the loggops replay refuses that LogGOPSim
// would run is an IncompleteError (the schedule's fault: emu exits 2) of
// one line naming the file and the line of the message at fault. The wrap
// is rank 0's NIC at 0 + g − G after a 0-byte send, read by its next send
// (loggops.TestReplayWrap); the scale, a 5 GB message at 10 ns/B.
func TestLogGOPSRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		p         loggops.Params
		want      string
	}{
		{"wrap", "num_ranks 2\nrank 0 {\nl0: send 0b to 1\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl0: recv 0b from 0\nl1: recv 8b from 0 tag 1\n}\n",
			loggops.Params{L: 3e-6, O: 5e-6, G: 18e-12, S: 65535}, "r.goal:3: this 0-byte message's"},
		{"scale", "num_ranks 2\nrank 0 {\nl0: send 8b to 1\nl1: send 5000000000b to 1\n}\nrank 1 {\nrecv 8b from 0\nrecv 5000000000b from 0\n}\n",
			loggops.Params{L: 3e-6, O: 5e-6, G: 10e-9, S: 65535}, "r.goal:4: a 5000000000-byte message would take 50 s"},
		// l2 waits for a rendezvous send that a receive of 8 bytes took as eager
		{"unstarted", "num_ranks 2\nrank 0 {\nl1: send 100001b to 1\nl2: calc 10\nl2 requires l1\n}\nrank 1 {\nl1: calc 50000\nl2: recv 8b from 0\nl2 requires l1\n}\n",
			loggops.Params{L: 2.5e-6, O: 1.5e-6, Gap: 1e-6, G: 6e-9, S: 65535}, "r.goal:4: this op never started under loggops"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := traceformat.Parse(strings.NewReader(tc.src), "r.goal")
			if err != nil {
				t.Fatal(err)
			}
			_, err = RunLogGOPS(&traceformat.Trace{Name: "r.goal", Format: traceformat.FormatGOAL, GOAL: s}, tc.p)
			var inc *IncompleteError
			if !errors.As(err, &inc) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want an IncompleteError of one line starting %q", err, tc.want)
			}
		})
	}
}

// TestGOALFuzzCoverage: the generated schedules hold what the README says
// they cover, each at least a few times, so that a change of the generator
// cannot quietly drop a feature from the comparison with LogGOPSim.
func TestGOALFuzzCoverage(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fuzzDir, "*.goal"))
	if err != nil || len(files) < 80 {
		t.Fatalf("%d schedules (%v)", len(files), err)
	}
	count := map[string]int{}
	minRanks, maxRanks := 1<<30, 0
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := traceformat.Parse(f, path)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		minRanks, maxRanks = min(minRanks, s.NumRanks()), max(maxRanks, s.NumRanks())
		for r := range s.NumRanks() {
			first, end := s.RankOps(r)
			if first == end {
				count["a rank with no ops"]++
			}
			roots := 0
			for i := first; i < end; i++ {
				if s.NumPreds(i) == 0 {
					roots++
				}
			}
			if roots > 16 {
				count["a rank with more than 16 ready ops"]++
			}
		}
		for i := range s.NumOps() {
			op := s.Op(i)
			if len(s.IRequires(i)) > 0 {
				count["irequires"]++
			}
			if len(s.Requires(i)) > 0 {
				count["requires"]++
			}
			if op.CPU > 0 {
				count["cpu > 0"]++
			}
			if op.NIC > 0 {
				count["nic > 0"]++
			}
			switch op.Kind {
			case traceformat.OpCalc:
				count["calc"]++
			case traceformat.OpRecv:
				if op.Peer == traceformat.AnySource {
					count["receive from any source"]++
				}
				if op.Tag == traceformat.AnyTag {
					count["receive with any tag"]++
				}
			case traceformat.OpSend:
				if op.Peer == op.Rank {
					count["message to itself"]++
				}
				if op.Size == 0 {
					count["0-byte message"]++
				}
				for _, S := range []int64{0, 512, 1024, 4096, 65535, 100000} {
					if op.Size == S {
						count["message of S bytes"]++
					}
					if op.Size == S+1 {
						count["message of S + 1 bytes"]++
					}
				}
			}
		}
	}
	if minRanks > 2 || maxRanks < 64 {
		t.Errorf("ranks %d..%d, want 2..64", minRanks, maxRanks)
	}
	for _, what := range []string{"a rank with no ops", "a rank with more than 16 ready ops", "irequires", "requires", "cpu > 0", "nic > 0",
		"calc", "receive from any source", "receive with any tag", "message to itself", "0-byte message", "message of S bytes", "message of S + 1 bytes"} {
		if count[what] < 3 {
			t.Errorf("%s: %d times, want at least 3", what, count[what])
		}
	}
	t.Log(count)
}
