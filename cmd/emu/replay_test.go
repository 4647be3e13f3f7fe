package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRunReplayGolden: emu run --replay prints the replay's table; the example
// trace on the example cluster (16 hosts, 10 GB/s, 1 us links, 1 Gf).
func TestRunReplayGolden(t *testing.T) {
	code, stdout, stderr := runCLI(t, "run", "-q", "--replay", "../../examples/replay-ring.txt", "--platform", "../../examples/cluster.xml")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "run_replay.txt", stdout)
}

// TestRunReplayJSON: the JSON result of a replay, per shared/DESIGN.md's
// contract, with the replay's own fields in results.
func TestRunReplayJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	if code, _, stderr := runCLI(t, "run", "-q", "../../examples/replay.toml", "--json", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		App     string  `json:"app"`
		Ranks   int     `json:"ranks"`
		Sim     float64 `json:"simulated_time_s"`
		Results []struct {
			Format string  `json:"format"`
			Events int     `json:"events"`
			Time   float64 `json:"time_s"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.App != "replay" || res.Ranks != 8 || len(res.Results) != 1 || res.Results[0].Format != "ti" ||
		res.Results[0].Events != 136 || res.Results[0].Time != res.Sim || !(res.Sim > 0) {
		t.Errorf("JSON %s", b)
	}
}

// TestRunReplayBadInput: bad traces exit 2 with one line naming the file and
// the line, or a deadlock report naming the blocked ranks; never a panic.
func TestRunReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, want string
		args             []string
	}{
		{"unknown.txt", "0 init\n0 teleport 1\n", "unknown.txt:2: unknown action \"teleport\"", nil},
		{"range.txt", "0 send 7 0 8\n1 recv 0 0 8\n", "range.txt:1: send: rank 7 out of range (the trace has ranks 0..1)", nil},
		{"truncated.txt", "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n0 finalize\n", "truncated.txt:4: rank 1's trace ends without finalize", nil},
		{"unmatched.txt", "0 send 1 4 8\n1 compute 5\n", "unmatched.txt:1: rank 0's send of 8 bytes to rank 1 tag 4 has no matching receive", nil},
		{"deadlock.txt", "0 recv 1 0 8\n1 recv 0 0 8\n", "deadlock at t=0s: 2 rank(s) blocked; rank 0 at ", nil},
		{"truncate.txt", "0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 10\n0 finalize\n1 finalize\n",
			"truncate.txt:4: rank 1's recv of at most 10 bytes from rank 0 tag 0 matched rank 0's message of 1000 bytes (tag 0): MPI_ERR_TRUNCATE", nil},
		{"gather.txt", "0 gather 1000 1000 0\n1 gather 1000 10 0\n2 gather 1000 10 0\n0 gather 1000 10 0\n1 gather 1000 10 0\n2 gather 1000 10 0\n",
			"gather.txt:4: rank 0's gather receives at most 10 bytes from rank 1, whose gather (line 5) sends 1000: MPI_ERR_TRUNCATE", nil},
		{"cut.goal", "num_ranks 2\nrank 0 {\nsend 8b to 1\n", "cut.goal:3: rank 0's block is not closed", nil},
		// The same faults under LogGOPSim's semantics are the schedule's too (exit 2, not 1).
		{"loggops-unmatched.goal", "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\n}\n",
			"did not complete (deadlock or unmatched ops): rank 1 has 1 unexpected messages never received", []string{"--set", "replay.semantics=loggops"}},
		{"loggops-deadlock.goal", "num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 0\nl2: send 8b to 1 tag 0\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 0 tag 0\nl2 requires l1\n}\n",
			"did not complete (deadlock or unmatched ops): rank 0 has 1 unmatched receives", []string{"--set", "replay.semantics=loggops"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, append([]string{"run", "-q", "--replay", path}, tc.args...)...)
			if code != exitInput || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "panic") {
				t.Errorf("stderr %q\nwant one line containing %q", stderr, tc.want)
			}
		})
	}
	if code, _, stderr := runCLI(t, "run", "-q", "--replay", filepath.Join(dir, "absent.txt")); code != exitInput || !strings.Contains(stderr, "--replay ") {
		t.Errorf("absent trace: exit %d, %q", code, stderr)
	}
}

// TestRunReplayTruncateWritesNothing: a TI receive smaller than its message
// (MPI_ERR_TRUNCATE) found part-way through the run exits 2 with its one
// line, and leaves none of the outputs asked for, nor a half-written one.
func TestRunReplayTruncateWritesNothing(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	trace := filepath.Join(dir, "cut.txt")
	text := "0 compute 1e6\n0 send 1 3 8\n0 send 1 3 70000\n1 recv 0 3 8\n1 recv -1 3 65536\n"
	if err := os.WriteFile(trace, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "run", "-q", "--replay", trace,
		"--json", filepath.Join(out, "r.json"), "--trace", filepath.Join(out, "r.trace.json"), "--graph", filepath.Join(out, "r.graph"),
		"--links", filepath.Join(out, "links.csv"), "--plot", filepath.Join(out, "plot"))
	want := trace + ":5: rank 1's recv of at most 65536 bytes from any source tag 3 matched rank 0's message of 70000 bytes (tag 3): MPI_ERR_TRUNCATE"
	if code != exitInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, one line containing %q", code, stdout, stderr, want)
	}
	if left, err := os.ReadDir(out); err != nil || len(left) > 0 {
		t.Errorf("outputs left behind: %v %v", left, err)
	}
}

// TestSensitivityOfAReplay: emu sensitivity runs on a replayed trace, and its
// T(L) at the recorded L is the replay's simulated time (emu run, same flags).
func TestSensitivityOfAReplay(t *testing.T) {
	dir := t.TempDir()
	flags := []string{"-q", "--replay", "../../examples/replay-ring.txt", "--platform", "../../examples/cluster.xml", "--set", "network.model=cm02"}
	sens, run := filepath.Join(dir, "s.json"), filepath.Join(dir, "r.json")
	code, out, errOut := runCLI(t, append([]string{"sensitivity", "--json", sens}, flags...)...)
	if code != exitOK {
		t.Fatalf("sensitivity: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "emulated replay on 8 ranks") {
		t.Errorf("output:\n%s", out)
	}
	if code, _, errOut := runCLI(t, append([]string{"run", "--json", run}, flags...)...); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	var s struct {
		L       float64 `json:"L_s"`
		Runtime float64 `json:"runtime_s"`
		LambdaL int     `json:"lambda_L"`
	}
	var r struct {
		Sim float64 `json:"simulated_time_s"`
	}
	for _, f := range []struct {
		path string
		v    any
	}{{sens, &s}, {run, &r}} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, f.v); err != nil {
			t.Fatal(err)
		}
	}
	// The cluster's links are 1 us. On the critical path: three laps of the
	// ring, the allreduce's 3 rounds and the bcast's 3 levels, 9 messages of 2
	// links each.
	const relTol = 1e-12 // the graph's longest path adds the run's durations in another order
	if s.L != 1e-6 || s.LambdaL != 18 || !(s.Runtime > 0) || math.Abs(s.Runtime-r.Sim) > relTol*r.Sim {
		t.Errorf("sensitivity at L = %g s: T = %.15g s, λ_L = %d; the run: %.15g s (want the same T, λ_L = 18)", s.L, s.Runtime, s.LambdaL, r.Sim)
	}
}

// TestTuneReplay: emu tune sweeps a replayed trace (--replay travels as the
// keys it sets).
func TestTuneReplay(t *testing.T) {
	code, out, errOut := runCLI(t, "tune", "-q", "--out", t.TempDir(), "--replay", "../../examples/replay-ring.txt", "--platform", "../../examples/cluster.xml",
		"--sweep", "network.model=cm02,smpi")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "model=cm02") || !strings.Contains(out, "model=smpi") {
		t.Errorf("output:\n%s", out)
	}
}

// TestRunLogGOPS: emu run with replay.semantics = "loggops" prints
// LogGOPSim's runtime of trace_bcast_4 (73 001.188 ns at L = 3 µs,
// o = 5 µs, G = 0.018 ns/B; shared/peers/loggopsim/results.csv), and what
// it cannot do is one line, exit status 2.
func TestRunLogGOPS(t *testing.T) {
	const goalFile = "../../loggops/testdata/loggopsim/goal/trace_bcast_4.goal"
	logGP := []string{"--set", "replay.semantics=loggops", "--set", "network.send_overhead=5us", "--set", "network.isend_overhead=5us",
		"--set", "network.recv_overhead=5us", "--set", "network.link_latency=1.5us", "--set", "network.link_bandwidth=55.5555555556GBps"}
	code, stdout, stderr := runCLI(t, append([]string{"run", "-q", "--replay", goalFile}, logGP...)...)
	if code != exitOK || !strings.Contains(stdout, "7.3001188e-05") {
		t.Errorf("exit %d, stdout %q, stderr %q; want LogGOPSim's 7.3001188e-05 s", code, stdout, stderr)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name        string
		args, extra []string // extra: after the LogGP --sets
		want        string
	}{
		{"graph", []string{"run", "-q", "--replay", goalFile, "--graph", filepath.Join(dir, "g")}, nil, "replay.semantics = \"loggops\" has none"},
		{"sensitivity", []string{"sensitivity", "-q", "--replay", goalFile}, nil, "emu analyze SCHEDULE.goal"},
		{"TI trace", []string{"run", "-q", "--replay", "../../examples/replay-ring.txt"}, nil, "replay.semantics: loggops replays GOAL schedules only"},
		{"overheads", []string{"run", "-q", "--replay", goalFile}, []string{"--set", "network.recv_overhead=1us"}, "--set network.recv_overhead=1us: network.recv_overhead: loggops has one overhead o"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append(append(append([]string{}, tc.args...), logGP...), tc.extra...)...)
			if code != exitInput || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q\nwant one line containing %q", stderr, tc.want)
			}
		})
	}
}

// TestLogGOPSComputeOnly: --bound compute-only under LogGOPSim's semantics
// left L, o, g and G as they were, so the "bound" was the whole run. Solved by
// hand: rank 0 computes 1,000 ns, sends 100 B to rank 1, which then computes
// 500 ns: with communication free 1,500 ns; as written 2o + L + 99·G more
// (the embedded default's o, L, G are the network's). The contention-free
// bound of a model that shares no link is the run itself.
func TestLogGOPSComputeOnly(t *testing.T) {
	goal := filepath.Join(t.TempDir(), "b.goal")
	if err := os.WriteFile(goal, []byte("num_ranks 2\nrank 0 {\nl1: calc 1000\nl2: send 100b to 1\nl2 requires l1\n}\n"+
		"rank 1 {\nl1: recv 100b from 0\nl2: calc 500\nl2 requires l1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	timeOf := func(extra ...string) float64 {
		out := filepath.Join(filepath.Dir(goal), "r.json")
		args := append([]string{"run", "-q", "--replay", goal, "--set", "replay.semantics=loggops", "--json", out}, extra...)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		var r struct {
			T float64 `json:"simulated_time_s"`
		}
		if err := json.Unmarshal(mustRead(t, out), &r); err != nil {
			t.Fatal(err)
		}
		return r.T
	}
	run := timeOf()
	if got := timeOf("--bound", "compute-only"); math.Abs(got-1.5e-6) > 1e-15 {
		t.Errorf("compute-only: %g s, want the calcs alone, 1.5e-06 s (the run is %g s)", got, run)
	}
	if run <= 1.5e-6 {
		t.Errorf("the run as written, %g s, should cost its message", run)
	}
	if got := timeOf("--bound", "contention-free"); got != run {
		t.Errorf("contention-free: %g s, want the run's %g s", got, run)
	}
}

// TestRunReplaySMPIRefused: the TI traces of real programs that SimGrid
// 3.32's replayer cannot replay either (validation/testdata/tireal/refused,
// traced by smpirun -trace-ti) exit 2 with one line naming the file and the
// line that holds what SMPI's tracer wrote, and the MPI call behind it.
func TestRunReplaySMPIRefused(t *testing.T) {
	for _, tc := range []struct{ file, token, want string }{
		{"anysource", "-333", "partner -333 is MPI_UNDEFINED: SMPI's tracer writes it for a receive from MPI_ANY_SOURCE or MPI_PROC_NULL"},
		{"procnull", "-333", "partner -333 is MPI_UNDEFINED"},
		{"ssend", "Ssend", "SMPI's tracer writes it for MPI_Ssend but SimGrid 3.32's replayer does not read it either"},
		{"persistent", "Startall", "MPI_Startall (persistent requests)"},
		{"waitany", "waitAny", "MPI_Waitany"},
		{"testall", "testall", "MPI_Testall"},
		{"iallreduce", "iallreduce", "MPI_Iallreduce, a nonblocking collective"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "validation", "testdata", "tireal", "refused", tc.file+".txt")
			code, stdout, stderr := runCLI(t, "run", "-q", "--replay", path)
			if code != exitInput || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and one line containing %q", code, stdout, stderr, tc.want)
			}
			rest, ok := strings.CutPrefix(strings.TrimPrefix(stderr, "emu: "), path+":")
			n, err := strconv.Atoi(rest[:max(0, strings.Index(rest, ":"))])
			if !ok || err != nil {
				t.Fatalf("stderr %q: want %s:LINE: first", stderr, path)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if lines := strings.Split(string(b), "\n"); n < 1 || n > len(lines) || !strings.Contains(lines[n-1], tc.token) {
				t.Errorf("line %d of %s is not the one with %q", n, path, tc.token)
			}
		})
	}
}

// TestComputeOnlyOfMessagesIsZero: under --bound compute-only, communication
// is free, so a run made of messages alone takes exactly 0 s (qa50: one
// 100-byte message took 1.16e-28 s, bytes over the free links' finite
// bandwidth), in rank order and in SimGrid's, a GOAL schedule and a TI trace
// alike; with calcs of 1,000 and 500 ns around the message, the calcs alone.
func TestComputeOnlyOfMessagesIsZero(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.goal")
	calcs := filepath.Join(dir, "calcs.goal")
	ring := filepath.Join(dir, "ring.txt")
	for path, text := range map[string]string{
		one:   "num_ranks 2\nrank 0 {\nl1: send 100b to 1 tag 0\n}\nrank 1 {\nl1: recv 100b from 0 tag 0\n}\n",
		calcs: "num_ranks 2\nrank 0 {\nl1: calc 1000\nl2: send 100b to 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 100b from 0\nl2: calc 500\nl2 requires l1\n}\n",
		ring:  "0 send 1 0 1000000\n1 recv 0 0 1000000\n1 send 2 0 1000000\n2 recv 1 0 1000000\n2 send 0 0 1000000\n0 recv 2 0 1000000\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name  string
		file  string
		extra []string
		want  float64
	}{
		{"one message", one, nil, 0},
		{"one message, SimGrid's order", one, []string{"--set", `network.wake_order="simgrid"`}, 0},
		{"a ring of 1 MB messages, TI", ring, nil, 0},
		{"calcs around a message", calcs, nil, 1000e-9 + 500e-9},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "r.json")
			args := append([]string{"run", "-q", "--replay", c.file, "--bound", "compute-only", "--json", out}, c.extra...)
			if code, _, stderr := runCLI(t, args...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var r struct {
				T float64 `json:"simulated_time_s"`
			}
			if err := json.Unmarshal(mustRead(t, out), &r); err != nil {
				t.Fatal(err)
			}
			if r.T != c.want {
				t.Errorf("compute-only: %g s, want exactly %g", r.T, c.want)
			}
		})
	}
}
