package ranks

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// machineTol is the relative error allowed between job end times computed
// two ways (dimensionless): a handful of float operations per message.
const machineTol = 1e-12

// sendTo is a job of two ranks: rank 0 sends bytes to rank 1.
func sendTo(bytes int) func(w *World) error {
	return func(w *World) error {
		return w.Run(func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 0, Msg{Bytes: bytes})
			} else {
				r.World().Recv(0, 0)
			}
		})
	}
}

// TestMachineShares: two jobs of two ranks on a crossbar (1 GB/s, 1 µs per
// link), rank 0 of job A on host 0 and of job B on host 1, both sending
// 1 MB (rendezvous) to their rank 1 on host 2. Alone, a job takes what a
// World of its own takes, T. Started together, both messages share host
// 2's down link for the whole transfer, so each moves at half the rate and
// both end at T + s'/B (s' = s + 16, the envelope). Job B started at 1 s,
// after A is over, takes T again and ends at 1 + T.
func TestMachineShares(t *testing.T) {
	const bytes, bw = 1_000_000, 1e9
	cfg := preset(t, "cm02")
	cfg.TCPGamma = 0
	topo := newCrossbar(3, bw, 1e-6)
	alone, err := NewWorld(cfg, topo, []int{0, 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := sendTo(bytes)(alone); err != nil {
		t.Fatal(err)
	}
	T := alone.End()
	if T != alone.Now() || !(T > 0) {
		t.Fatalf("alone: End %g, Now %g", T, alone.Now())
	}
	for _, tc := range []struct {
		name         string
		startB       float64
		wantA, wantB float64
	}{
		{"together", 0, T + (bytes+16)/bw, T + (bytes+16)/bw},
		{"B after A", 1, T, 1 + T},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMachine(cfg, topo)
			if err != nil {
				t.Fatal(err)
			}
			a, errA := m.NewWorld([]int{0, 2}, 1, 0)
			b, errB := m.NewWorld([]int{1, 2}, 2, tc.startB)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			for i, err := range m.Run([]func(*World) error{sendTo(bytes), sendTo(bytes)}) {
				if err != nil {
					t.Fatalf("job %d: %v", i, err)
				}
			}
			for _, j := range []struct {
				name      string
				got, want float64
			}{{"A", a.End(), tc.wantA}, {"B", b.End(), tc.wantB}} {
				if math.Abs(j.got-j.want) > machineTol*j.want {
					t.Errorf("job %s ends at %.15g s, want %.15g s", j.name, j.got, j.want)
				}
			}
		})
	}
}

// TestMachineErrors: a job that deadlocks gets the deadlock report of its
// own ranks while the other completes; a job whose application gives up
// before Run does not hold the others; a panic stops the other jobs, which
// say so.
func TestMachineErrors(t *testing.T) {
	cfg := preset(t, "cm02")
	topo := newCrossbar(4, 1e9, 1e-6)
	run := func(jobs ...func(*World) error) []error {
		t.Helper()
		m, err := NewMachine(cfg, topo)
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if _, err := m.NewWorld([]int{2 * i, 2*i + 1}, uint64(i), 0); err != nil {
				t.Fatal(err)
			}
		}
		return m.Run(jobs)
	}
	stuck := func(w *World) error {
		return w.Run(func(r *Rank) { r.World().Recv(1-r.ID(), 3) })
	}
	errs := run(sendTo(1000), stuck)
	var d *DeadlockError
	if errs[0] != nil || !errors.As(errs[1], &d) || len(d.Blocked) != 2 || d.Blocked[0].Tag != 3 {
		t.Errorf("deadlock: errors %v", errs)
	}
	refuse := func(w *World) error { return fmt.Errorf("bad input") }
	if errs := run(refuse, sendTo(1000)); errs[0] == nil || errs[0].Error() != "bad input" || errs[1] != nil {
		t.Errorf("a job giving up: errors %v", errs)
	}
	boom := func(w *World) error {
		return w.Run(func(r *Rank) { panic("boom") })
	}
	errs = run(stuck, boom)
	var p *PanicError
	if !errors.As(errs[1], &p) || errs[0] == nil || !strings.Contains(errs[0].Error(), "another job failed") {
		t.Errorf("a panic: errors %v", errs)
	}
	if m, _ := NewMachine(cfg, topo); m != nil {
		if _, err := m.NewWorld([]int{0}, 0, -1); err == nil {
			t.Errorf("a negative start was accepted")
		}
	}
}
