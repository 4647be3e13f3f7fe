package ranks

import "testing"

// TestPollCostBelowClockPrecision: past about 1e10 s of simulated time the
// float64 clock cannot count a microsecond, so a poll of that cost leaves it
// where it is. Without growth of the poll counter such a poll never moves
// time, and a rank polling for a later message would loop at one instant
// forever; it must wait as a free poll does and see the message when it comes.
func TestPollCostBelowClockPrecision(t *testing.T) {
	const start = 1e13 // s: one ulp of the clock here is about 2 ms
	for _, test := range []bool{false, true} {
		cfg := preset(t, "cm02")
		cfg.IprobeCost, cfg.TestCost, cfg.NoGrowth = 1e-6, 1e-6, true
		w, err := NewWorld(cfg, newCrossbar(2, 1e10, 1e-6), []int{0, 1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var seen float64
		err = w.Run(func(r *Rank) {
			c := r.World()
			r.Compute(start, "x")
			if r.ID() == 1 {
				r.Compute(1, "x") // one second later, still within the clock's precision
				c.Send(0, 5, Msg{Bytes: 8})
				return
			}
			if test {
				q := c.Irecv(1, 5)
				for done, _, _ := q.Test(); !done; done, _, _ = q.Test() {
				}
			} else {
				for ok, _ := c.Iprobe(1, 5); !ok; ok, _ = c.Iprobe(1, 5) {
				}
				c.Recv(1, 5)
			}
			seen = r.Now()
		})
		if err != nil {
			t.Fatalf("test=%v: %v", test, err)
		}
		if seen < start+1 || seen > start+1.01 {
			t.Errorf("test=%v: message seen at %.6f s past the start, want about 1 s", test, seen-start)
		}
	}
}

// TestTestCostIsASleep: SMPI 3.32's MPI_Test sleeps nsleeps × smpi/test
// (sleep_for), where its Iprobe runs nsleeps × cost × speed flops at the
// host's speed. With a cost of 33 µs on hosts of 1 Gflop/s the third
// failed test's 3 × cost, times speed and divided by it, loses its last
// bit, and so does the clock it ends at: the clock after each failed test
// is 1, 1 + 2 and 1 + 2 + 3 costs, added as the sleeps end.
func TestTestCostIsASleep(t *testing.T) {
	cost := 3.3e-5 // a variable: Go's constant arithmetic would be exact
	cfg := preset(t, "smpi")
	cfg.WakeOrder, cfg.HostSpeed, cfg.TestCost = WakeSimGrid, 1e9, cost
	want := [3]float64{cost, cost + float64(2)*cost, 0}
	want[2] = want[1] + float64(3)*cost
	if d := float64(3) * cost; want[1]+d*cfg.HostSpeed/cfg.HostSpeed == want[2] {
		t.Fatal("the case no longer tells a sleep from an execution")
	}
	var got [3]float64
	run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		c := r.World()
		if r.ID() == 1 {
			r.Sleep(1)
			c.Send(0, 5, Msg{Bytes: 8})
			return
		}
		q := c.Irecv(1, 5)
		for i := range got {
			if done, _, _ := q.Test(); done {
				t.Fatalf("test %d succeeded before the send", i+1)
			}
			got[i] = r.Now()
		}
		q.Wait()
	})
	if got != want {
		t.Errorf("after each failed test %v s, want %v s", got, want)
	}
}
