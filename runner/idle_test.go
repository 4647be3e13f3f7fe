package runner

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// TestHPLIdleRanks: as `mpirun -np 7 xhpl` with a 2×2 grid, a world given
// more ranks than HPL's largest grid (np, a hostfile, a [[jobs]] entry's
// ranks) starts them all; the three past the grid take part in HPL's
// start-up and sit idle. Hand-counted against the 4-rank world (hpl.md §1):
// each idle rank sends one message in each of the two tree all-reduces (the
// error flag, a 4-byte int; the machine epsilon, 8 bytes) and receives one
// in each of their broadcasts and of the three broadcasts of the
// parameters (the threshold, 8 bytes; 15 ints; the 11 ints of HPL.dat's
// list lengths for one value a list), 7 messages and 4 + 8 + 4 + 8 + 8 +
// 60 + 44 = 136 bytes; each grid's MPI_Comm_split sends none in rank
// order. HPL's Time is its grid's alone: unchanged but for the rounding of
// end − start at a later start (one ulp).
func TestHPLIdleRanks(t *testing.T) {
	const hpl = "[hpl]\nn = 300\nnb = 32\ngrids = [[2, 2]]\n"
	const flat = "[platform]\nhosts = 8\nlink_latency = \"1us\"\nlink_bandwidth = \"10GBps\"\n"
	const jobs = "[platform]\nhosts = 8\nlink_latency = \"1us\"\nlink_bandwidth = \"10GBps\"\n[[jobs]]\napp = \"hpl\"\n%s[jobs.hpl]\nn = 300\nnb = 32\ngrids = [[2, 2]]\n"
	for _, tc := range []struct {
		name        string
		four, seven string
	}{
		{"np", "app = \"hpl\"\n" + flat + "np = 4\n" + hpl, "app = \"hpl\"\n" + flat + "np = 7\n" + hpl},
		{"jobs", fmt.Sprintf(jobs, ""), fmt.Sprintf(jobs, "ranks = 7\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs [2]*Result
			for i, doc := range []string{tc.four, tc.seven} {
				s, err := scenario.Parse([]byte(doc), "s.toml")
				res, err := Run(mustPlan(t, s, err), Options{Links: true, NoAlone: true})
				if err != nil {
					t.Fatal(err)
				}
				runs[i] = res
			}
			if runs[0].Ranks != 4 || runs[1].Ranks != 7 {
				t.Fatalf("worlds of %d and %d ranks, want 4 and 7", runs[0].Ranks, runs[1].Ranks)
			}
			var msgs, bytes [2]int64
			for i, r := range runs {
				for _, c := range r.Traffic.Highest {
					msgs[i] += int64(c.Messages)
					bytes[i] += c.Bytes
				}
			}
			if d, b := msgs[1]-msgs[0], bytes[1]-bytes[0]; d != 3*7 || b != 3*136 {
				t.Errorf("3 idle ranks add %d messages and %d bytes, want 21 and 408", d, b)
			}
			a, b := hplTime(runs[0]), hplTime(runs[1])
			if math.Abs(a-b) > 1e-12*a || !(a > 0) {
				t.Errorf("HPL Time %v with 4 ranks, %v with 7: want the same", a, b)
			}
		})
	}
}

// hplTime is the Time of the first HPL test of a run or of its first job.
func hplTime(r *Result) float64 {
	if len(r.Jobs) > 0 {
		r = r.Jobs[0].Result
	}
	return r.HPL[0].Time
}

// TestHPLGridPerEntry: HPL sets up each grid of HPL.dat's list (a split of
// the world by all its ranks, then of the grid into rows and columns by the
// grid's) and frees it after its tests, even where it repeats the grid
// before it, as a site's HPL.dat does to run a grid twice. Hand-counted on 7
// ranks: 7 + 2·P·Q MPI_Comm_split calls a grid entry.
func TestHPLGridPerEntry(t *testing.T) {
	for _, tc := range []struct {
		grids string
		want  int
	}{
		{"[[2, 2]]", 7 + 8},
		{"[[2, 2], [2, 2]]", 2 * (7 + 8)},
		{"[[2, 2], [2, 2], [1, 3]]", 2*(7+8) + 7 + 6},
		{"[[1, 3], [2, 2], [1, 3]]", 2*(7+6) + 7 + 8},
	} {
		doc := "app = \"hpl\"\n[platform]\nhosts = 7\nnp = 7\nlink_latency = \"1us\"\nlink_bandwidth = \"10GBps\"\n" +
			"[hpl]\nn = [100, 200]\nnb = 32\ngrids = " + tc.grids + "\n"
		s, err := scenario.Parse([]byte(doc), "s.toml")
		res, err := Run(mustPlan(t, s, err), Options{MPICalls: true})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, c := range res.MPICalls {
			if c.Call == "MPI_Comm_split" {
				got = c.Calls
			}
		}
		if got != tc.want {
			t.Errorf("grids %s: %d MPI_Comm_split calls, want %d", tc.grids, got, tc.want)
		}
	}
}
