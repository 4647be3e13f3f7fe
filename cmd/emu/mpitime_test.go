package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMPITimeBooksOverheadsAsStack: seed 002's split of the embedded default
// (cm02) with 5 µs send and receive overheads against none. Applications
// charge computation only through kernels, so the compute column must not
// move; the overheads are MPI-stack time, which must grow. (Before, the
// overheads were booked as compute: rank 0's went from 12.2 to 27.7 ms.)
func TestMPITimeBooksOverheadsAsStack(t *testing.T) {
	split := func(overhead string) []mpiRankTime {
		return mpiTimeOf(t, "--set", "network.model=cm02", "--set", "network.send_overhead="+overhead,
			"--set", "network.recv_overhead="+overhead)
	}
	none, five := split("0s"), split("5us")
	if len(none) != 4 || len(five) != 4 {
		t.Fatalf("%d and %d ranks, want 4", len(none), len(five))
	}
	const tol = 1e-12 // s: the same kernel charges summed in the same order
	for r := range none {
		if math.Abs(none[r].Compute-five[r].Compute) > tol {
			t.Errorf("rank %d: compute %.9g s without overheads, %.9g s with", r, none[r].Compute, five[r].Compute)
		}
		if five[r].Stack <= none[r].Stack {
			t.Errorf("rank %d: MPI stack %.9g s with 5 µs overheads, %.9g s without", r, five[r].Stack, none[r].Stack)
		}
	}
}

// TestMPITimeStackIsTheOverheadsOnAPingPong is issue 12's check of seed 002's
// split: on a ping-pong of k round trips (a TI trace: every rank sends k
// and receives k messages) with send overhead o_s and receive overhead o_r,
// each rank's MPI-stack time is exactly k·(o_s + o_r), and stack, network and
// synchronisation add up to the rank's MPI time (its end minus its compute).
func TestMPITimeStackIsTheOverheadsOnAPingPong(t *testing.T) {
	const k, oSend, oRecv = 7, 3e-6, 2e-6
	var trace strings.Builder
	for _, r := range []int{0, 1} {
		fmt.Fprintf(&trace, "%d init\n", r)
	}
	for range k {
		trace.WriteString("0 send 1 0 1000\n1 recv 0 0 1000\n1 send 0 0 1000\n0 recv 1 0 1000\n")
	}
	trace.WriteString("0 finalize\n1 finalize\n")
	file := filepath.Join(t.TempDir(), "pp.txt")
	if err := os.WriteFile(file, []byte(trace.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	split := mpiTimeOf(t, "--replay", file, "--set", "network.model=cm02",
		"--set", "network.send_overhead=3us", "--set", "network.recv_overhead=2us")
	if len(split) != 2 {
		t.Fatalf("%d ranks, want 2", len(split))
	}
	for r, m := range split {
		if want := k * (oSend + oRecv); math.Abs(m.Stack-want) > 1e-12 {
			t.Errorf("rank %d: MPI stack %.9g s, want k·(o_s+o_r) = %.9g s", r, m.Stack, want)
		}
		if mpi := m.End - m.Compute; math.Abs(m.Stack+m.Network+m.Sync-mpi) > 1e-12 {
			t.Errorf("rank %d: stack %.9g + network %.9g + sync %.9g = %.9g s, MPI time %.9g s", r, m.Stack, m.Network, m.Sync, m.Stack+m.Network+m.Sync, mpi)
		}
	}
}

// mpiRankTime is one rank's row of analyze --mpi-time --json.
type mpiRankTime struct {
	End     float64 `json:"end_s"`
	Compute float64 `json:"compute_s"`
	Stack   float64 `json:"stack_s"`
	Network float64 `json:"network_s"`
	Sync    float64 `json:"sync_s"`
}

// mpiTimeOf records the graph of `emu run` with args and returns each rank's
// split by `emu analyze --mpi-time`.
func mpiTimeOf(t *testing.T, args ...string) []mpiRankTime {
	t.Helper()
	dir := t.TempDir()
	graph, out := filepath.Join(dir, "g.graph"), filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, append(append([]string{"run"}, args...), "--graph", graph, "-q")...); code != exitOK {
		t.Fatalf("run: %s", errOut)
	}
	if code, _, errOut := runCLI(t, "analyze", graph, "--mpi-time", "--json", out, "-q"); code != exitOK {
		t.Fatalf("analyze: %s", errOut)
	}
	var rep struct {
		MPI []mpiRankTime `json:"mpi_time"`
	}
	readJSON(t, out, &rep)
	return rep.MPI
}

// TestMPITimeEmulatedUsesTheEvents: emu sensitivity --mpi-time on an emulated
// run splits from the run's events (observe.MPISplit), with the graph
// split's meaning: on the ping-pong of TestMPITimeStackIsTheOverheadsOnAPingPong
// (1000 B, detached: eager) each rank's stack time is exactly k·(o_s + o_r),
// stack + network + sync is its MPI time, and the per-protocol and per-call
// tables hold the same total — all of it eager, all of it in MPI_Send and
// MPI_Recv (k calls of each per rank).
func TestMPITimeEmulatedUsesTheEvents(t *testing.T) {
	const k, oSend, oRecv = 7, 3e-6, 2e-6
	var trace strings.Builder
	for range k {
		trace.WriteString("0 send 1 0 1000\n1 recv 0 0 1000\n1 send 0 0 1000\n0 recv 1 0 1000\n")
	}
	dir := t.TempDir()
	file, out := filepath.Join(dir, "pp.txt"), filepath.Join(dir, "m.json")
	if err := os.WriteFile(file, []byte(trace.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "sensitivity", "--replay", file, "--set", "network.model=cm02",
		"--set", "network.send_overhead=3us", "--set", "network.recv_overhead=2us", "--mpi-time", "--json", out, "-q")
	if code != exitOK {
		t.Fatalf("sensitivity: %s", errOut)
	}
	type part struct {
		Name    string  `json:"name"`
		Calls   int     `json:"calls"`
		Stack   float64 `json:"stack_s"`
		Sync    float64 `json:"sync_s"`
		Network float64 `json:"network_s"`
	}
	var rep struct {
		MPI      []mpiRankTime `json:"mpi_time"`
		Protocol []part        `json:"mpi_by_protocol"`
		Call     []part        `json:"mpi_by_call"`
	}
	readJSON(t, out, &rep)
	const tol = 1e-12 // s
	if len(rep.MPI) != 2 {
		t.Fatalf("%d ranks, want 2", len(rep.MPI))
	}
	total := 0.0
	for r, m := range rep.MPI {
		if want := k * (oSend + oRecv); math.Abs(m.Stack-want) > tol {
			t.Errorf("rank %d: MPI stack %.9g s, want k·(o_s+o_r) = %.9g s", r, m.Stack, want)
		}
		if mpi := m.End - m.Compute; math.Abs(m.Stack+m.Network+m.Sync-mpi) > tol {
			t.Errorf("rank %d: stack + network + sync = %.9g s, MPI time %.9g s", r, m.Stack+m.Network+m.Sync, mpi)
		}
		total += m.Stack + m.Network + m.Sync
	}
	if len(rep.Protocol) != 1 || rep.Protocol[0].Name != "eager" {
		t.Fatalf("protocols %+v, want eager only", rep.Protocol)
	}
	if q := rep.Protocol[0]; math.Abs(q.Stack+q.Sync+q.Network-total) > tol {
		t.Errorf("eager holds %.9g s, the ranks %.9g s", q.Stack+q.Sync+q.Network, total)
	}
	calls := 0.0
	for _, c := range rep.Call {
		if (c.Name != "MPI_Send" && c.Name != "MPI_Recv") || c.Calls != 2*k {
			t.Errorf("call %+v, want MPI_Send and MPI_Recv, %d each", c, 2*k)
		}
		calls += c.Stack + c.Sync + c.Network
	}
	if math.Abs(calls-total) > tol {
		t.Errorf("the calls hold %.9g s, the ranks %.9g s", calls, total)
	}
}
