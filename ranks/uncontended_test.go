package ranks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestUncontendedMatchesMessagesAlone: where no message meets another —
// every link a fat pipe, no cross-traffic — Comm.Uncontended must end each
// member's steps when the same steps made as messages end them (or when the
// last member entered, if later): the network model is the oracle. Random
// programs of rounds (a random pairing of the ranks each round, each pair
// exchanging both ways or one way, sizes across the detached threshold),
// random entry skews, both presets (smpi's overheads and factor tables,
// cm02's none).
func TestUncontendedMatchesMessagesAlone(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 2 + rng.IntN(9)
		cfg := preset(t, []string{"cm02", "smpi"}[seed%2])
		cfg.CrossTraffic = 0
		prog := randomProgram(rng, n, cfg.EagerThreshold)
		skew := make([]float64, n)
		for i := range skew {
			skew[i] = rng.Float64() * 1e-4 * float64(rng.IntN(2))
		}
		exact := runProgram(t, cfg, prog, skew, false)
		alone := runProgram(t, cfg, prog, skew, true)
		last := 0.0
		for _, s := range skew {
			last = max(last, s)
		}
		for i := range n {
			want := max(exact[i], last)
			if d := math.Abs(alone[i] - want); d > 1e-12+1e-9*want {
				t.Fatalf("seed %d (%s, %d ranks), rank %d: Uncontended ends at %.12g s, its messages alone at %.12g s\nprogram %v\nskew %v",
					seed, cfg.Model, n, i, alone[i], want, prog, skew)
			}
		}
	}
}

// randomProgram draws 1 to 5 rounds; in each, the ranks are paired at
// random (one left out when n is odd) and each pair exchanges both ways,
// or one sends to the other.
func randomProgram(rng *rand.Rand, n, eager int) [][]Step {
	prog := make([][]Step, n)
	sizes := []int{0, 8, 8192, eager - 17, eager, 3 * eager}
	for range 1 + rng.IntN(5) {
		perm := rng.Perm(n)
		for k := 0; k+1 < n; k += 2 {
			a, b := perm[k], perm[k+1]
			switch rng.IntN(3) {
			case 0: // HPL_sdrv both ways
				prog[a] = append(prog[a], Step{Send: b, Bytes: sizes[rng.IntN(len(sizes))], Recv: b})
				prog[b] = append(prog[b], Step{Send: a, Bytes: sizes[rng.IntN(len(sizes))], Recv: a})
			default: // a to b
				prog[a] = append(prog[a], Step{Send: b, Bytes: sizes[rng.IntN(len(sizes))], Recv: Nobody})
				prog[b] = append(prog[b], Step{Send: Nobody, Recv: a})
			}
		}
	}
	return prog
}

// runProgram makes prog on a fat-pipe crossbar, each rank entering after
// its skew, as one Uncontended call or as messages, and returns when each
// rank's steps ended.
func runProgram(t *testing.T, cfg Config, prog [][]Step, skew []float64, uncontended bool) []float64 {
	t.Helper()
	n := len(prog)
	topo := newCrossbar(n, 1e9, 1e-6)
	for i := range topo.links {
		topo.links[i].Sharing = fluid.FatPipe
	}
	w, err := NewWorld(cfg, topo, identity(n), 1)
	if err != nil {
		t.Fatal(err)
	}
	end := make([]float64, n)
	err = w.Run(func(r *Rank) {
		c := r.World()
		me := r.ID()
		r.Sleep(skew[me])
		if uncontended {
			c.Uncontended(prog[me], nil)
		} else {
			for _, s := range prog[me] {
				var q *Request
				if s.Recv != Nobody {
					q = c.Irecv(s.Recv, 5)
				}
				if s.Send != Nobody {
					c.Send(s.Send, 5, Msg{Bytes: s.Bytes})
				}
				if q != nil {
					q.Wait()
				}
			}
		}
		end[me] = r.Now()
	})
	if err != nil {
		t.Fatal(err)
	}
	return end
}

// TestUncontendedHandSolved: two ranks swap 1 MB on a 1 GB/s crossbar
// (latency 1 µs a link, two links) with no overheads or factors; rank 0
// enters 1 ms late. Neither message moves before rank 0 posts its receive
// (detached below the threshold, rendezvous above: the same start), so
// both end at 1 ms + 2 µs + (1 MB + envelope)/1 GB/s. The data each hands
// in comes back to both.
func TestUncontendedHandSolved(t *testing.T) {
	for _, eager := range []int{1 << 21, 1 << 10} {
		cfg := Config{Envelope: 16, EagerThreshold: eager}
		w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
		if err != nil {
			t.Fatal(err)
		}
		const size = 1 << 20
		want := 1e-3 + 2e-6 + float64(size+16)/1e9
		err = w.Run(func(r *Rank) {
			me := r.ID()
			if me == 0 {
				r.Sleep(1e-3)
			}
			got := r.World().Uncontended([]Step{{Send: 1 - me, Bytes: size, Recv: 1 - me}}, []float64{float64(10 + me)})
			if math.Abs(r.Now()-want) > 1e-15 {
				t.Errorf("eager %d, rank %d: ends at %.15g s, want %.15g", eager, me, r.Now(), want)
			}
			if len(got) != 2 || got[0][0] != 10 || got[1][0] != 11 {
				t.Errorf("rank %d: data %v, want [[10] [11]]", me, got)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestUncontendedBadPrograms: a program whose sends and receives do not
// pair, or that deadlocks, is the application's bug: the run fails naming
// it, as any rank's panic does.
func TestUncontendedBadPrograms(t *testing.T) {
	for _, tc := range []struct {
		name string
		prog [][]Step
		want string
	}{
		{"receive without send", [][]Step{{{Send: Nobody, Recv: 1}}, {}}, "receives from rank 1 more than it sends"},
		{"send without receive", [][]Step{{{Send: 1, Bytes: 8, Recv: Nobody}}, {}}, "sends without their receive"},
		{"deadlock", [][]Step{
			{{Send: Nobody, Recv: 1}, {Send: 1, Bytes: 8, Recv: Nobody}},
			{{Send: Nobody, Recv: 0}, {Send: 0, Bytes: 8, Recv: Nobody}},
		}, "deadlocks"},
	} {
		w, err := NewWorld(Config{}, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Run(func(r *Rank) { r.World().Uncontended(tc.prog[r.ID()], nil) })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// ExampleComm_Uncontended: four ranks reduce their values with a
// hypercube's exchanges, timed as a whole: each message of 8 bytes alone on
// a 1 µs, 10 GB/s link pair.
func ExampleComm_Uncontended() {
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 4, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	w, _ := NewWorld(Config{}, topo, []int{0, 1, 2, 3}, 1)
	_ = w.Run(func(r *Rank) {
		me := r.ID()
		steps := []Step{{Send: me ^ 1, Bytes: 8, Recv: me ^ 1}, {Send: me ^ 2, Bytes: 8, Recv: me ^ 2}}
		all := r.World().Uncontended(steps, []float64{float64(me * me)})
		sum := 0.0
		for _, d := range all {
			sum += d[0]
		}
		if me == 0 {
			fmt.Printf("sum %g at %.4g µs\n", sum, r.Now()*1e6)
		}
	})
	// Output: sum 14 at 4.002 µs
}
