package ranks

import (
	"fmt"
	"math"
	"testing"
)

// relTol is the relative tolerance on simulated times: they are sums and
// quotients of a few floats, so only rounding separates them from the
// closed forms.
const relTol = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }

// run runs main on a world over a crossbar and fails the test on error.
func run(t testing.TB, cfg Config, topo *crossbar, n int, main func(r *Rank)) *World {
	t.Helper()
	w, err := NewWorld(cfg, topo, identity(n), 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Run(main); err != nil {
		t.Fatal(err)
	}
	return w
}

func preset(t testing.TB, model string) Config {
	t.Helper()
	c, err := Preset(model)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestOneWayTime checks the closed form of an isolated message on an idle
// path (reference/smpi-model.md §2.1, §2.6, §3.5):
//
//	T = o_s(s) + f_L(s')·L + s'/(f_B(s')·min(B, γ/(2L))) + o_r(s),   s' = s + 16
//
// where L is the route latency (2·lat on the crossbar: up + down link), B the
// link bandwidth, o_s/o_r the send/receive overheads (charged only for
// detached sends, s < 65536) and the receiver posts first.
func TestOneWayTime(t *testing.T) {
	smpiLat, smpiBw := MustParseTable(SMPILatFactor), MustParseTable(SMPIBwFactor)
	cases := []struct {
		name      string
		model     string
		size      int
		bw, lat   float64 // per link: B/s, s
		os, or    string  // overhead tables
		wantExtra func(s int) (fl, fb float64)
	}{
		{name: "cm02 8B", model: "cm02", size: 8, bw: 1e10, lat: 1e-6},
		{name: "cm02 1MiB rendezvous", model: "cm02", size: 1 << 20, bw: 1e10, lat: 1e-6},
		{name: "cm02 overheads", model: "cm02", size: 1000, bw: 1e9, lat: 5e-6, os: "0:2e-6:1e-9", or: "0:3e-6"},
		// L = 2 ms: γ/(2L) = 4194304/0.004 = 1.048576e9 B/s < 1e10: the window binds.
		{name: "cm02 gamma bound", model: "cm02", size: 1 << 20, bw: 1e10, lat: 1e-3},
		{name: "smpi 241B (wire 257, first row)", model: "smpi", size: 241, bw: 1.25e8, lat: 5e-5},
		{name: "smpi 242B (wire 258, second row)", model: "smpi", size: 242, bw: 1.25e8, lat: 5e-5},
		{name: "smpi 1000B", model: "smpi", size: 1000, bw: 1.25e8, lat: 5e-5},
		{name: "smpi 65457B (wire 65473, last row)", model: "smpi", size: 65457, bw: 1.25e8, lat: 5e-5},
		{name: "smpi 1MiB", model: "smpi", size: 1 << 20, bw: 1.25e8, lat: 5e-5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := preset(t, tc.model)
			cfg.SendOverhead, cfg.RecvOverhead = MustParseTable(tc.os), MustParseTable(tc.or)
			var arrived float64
			run(t, cfg, newCrossbar(2, tc.bw, tc.lat), 2, func(r *Rank) {
				if r.ID() == 0 {
					r.World().Send(1, 7, Msg{Bytes: tc.size})
					return
				}
				_, st := r.World().Recv(0, 7)
				if st.Bytes != tc.size || st.Source != 0 || st.Tag != 7 {
					t.Errorf("status %+v", st)
				}
				arrived = r.Now()
			})
			wire := tc.size + 16
			fl, fb := 1.0, 1.0
			if tc.model == "smpi" {
				fl, fb = smpiLat.Value(wire, 1), smpiBw.Value(wire, 1)
			}
			L := 2 * tc.lat
			rate := math.Min(tc.bw, DefaultTCPGamma/(2*L))
			os, or := 0.0, 0.0
			if tc.size < DefaultEagerThreshold {
				os, or = cfg.SendOverhead.Value(tc.size, 0), cfg.RecvOverhead.Value(tc.size, 0)
			}
			want := os + fl*L + float64(wire)/(fb*rate) + or
			if !near(arrived, want) {
				t.Fatalf("one-way time %.12g s, want %.12g s", arrived, want)
			}
		})
	}
}

// TestSsendOverhead: MPI_Ssend pays smpi/os at any size, as SMPI 3.32
// charges a request of its SSEND flag (a blocking Send pays it only when
// detached). SMPI's figures, by smpirun (SimGrid 3.32) of a C program
// whose rank 0 Ssends N bytes to rank 1 on a 2-host cluster of 125 MB/s,
// 50 µs links, MPI_Wtime after the calls (both ranks alike): 1000 B,
// 0.000218799314675 s, and 0.001218799265655 s under
// --cfg=smpi/os:0:0.001:0; 100000 B, 0.002014934981064 and
// 0.003014935265984 s. What smpi/os adds to both ranks' ends is emu's to
// 1e-9 s (the ends themselves differ by 2.3e-9 s, as in
// TestSMPIWorkedExample; MPI_Wtime's own cost).
func TestSsendOverhead(t *testing.T) {
	for _, tc := range []struct {
		size     int
		base, os float64 // SMPI's ends without and with smpi/os
	}{{1000, 0.000218799314675, 0.001218799265655}, {100000, 0.002014934981064, 0.003014935265984}} {
		var ends [2][2]float64
		for k, os := range []string{"", "0:0.001:0"} {
			cfg := preset(t, "smpi")
			cfg.SendOverhead = MustParseTable(os)
			run(t, cfg, newCrossbar(2, 1.25e8, 5e-5), 2, func(r *Rank) {
				if r.ID() == 0 {
					r.World().Ssend(1, 7, Msg{Bytes: tc.size})
				} else {
					r.World().Recv(0, 7)
				}
				ends[k][r.ID()] = r.Now()
			})
		}
		for i := range 2 {
			if got, want := ends[1][i]-ends[0][i], tc.os-tc.base; math.Abs(got-want) > 1e-9 {
				t.Errorf("%d B: smpi/os adds %.12f s to rank %d, SMPI %.12f s", tc.size, got, i, want)
			}
		}
	}
}

// TestSMPIWorkedExample reproduces the worked example of the reference
// (§2.6): SMPI model, 125 MB/s 50 µs links, 1 MiB → 0.01008196 s and
// 1000 B → 0.00021880 s (both rounded to 8 decimals there).
func TestSMPIWorkedExample(t *testing.T) {
	const printed = 5e-9 // s: the reference prints 8 decimals
	for _, tc := range []struct {
		size int
		want float64
	}{{1 << 20, 0.01008196}, {1000, 0.00021880}} {
		var got float64
		run(t, preset(t, "smpi"), newCrossbar(2, 1.25e8, 5e-5), 2, func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 0, Msg{Bytes: tc.size})
			} else {
				r.World().Recv(0, 0)
				got = r.Now()
			}
		})
		if math.Abs(got-tc.want) > printed {
			t.Errorf("%d B: %.8f s, want %.8f s", tc.size, got, tc.want)
		}
	}
}

// TestRendezvousWaitsForReceiver: a 1 MiB Send (≥ EagerThreshold) to a
// receiver that posts at t = 1 s moves its bytes only then, so both sides
// return at 1 + L + s'/B; a detached 1 KiB send returns at once, yet its
// bytes also wait for the receive.
func TestRendezvousWaitsForReceiver(t *testing.T) {
	const late = 1.0 // s
	for _, size := range []int{1 << 20, 1024} {
		var sendRet, recvRet float64
		run(t, preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 0, Msg{Bytes: size})
				sendRet = r.Now()
				return
			}
			r.Compute(late, "sleep")
			r.World().Recv(0, 0)
			recvRet = r.Now()
		})
		arrival := late + 2e-6 + float64(size+16)/1e9
		if !near(recvRet, arrival) {
			t.Errorf("%d B: receive returned at %.12g, want %.12g", size, recvRet, arrival)
		}
		wantSend := arrival
		if size < DefaultEagerThreshold {
			wantSend = 0
		}
		if !near(sendRet, wantSend) && !(wantSend == 0 && sendRet == 0) {
			t.Errorf("%d B: send returned at %.12g, want %.12g", size, sendRet, wantSend)
		}
	}
}

// TestSynchronousSendWaitsForArrival: MPI_Ssend and MPI_Issend are never
// detached: below the eager threshold too, the sender is done only when the
// receiver has the message (SMPI's MPI_REQ_SSEND; HPL's long broadcasts use
// them, and the last panels' small messages of a long broadcast then do not
// overlap).
func TestSynchronousSendWaitsForArrival(t *testing.T) {
	const late, size = 1.0, 1024
	for _, mode := range []string{"Ssend", "Issend"} {
		var sendRet float64
		run(t, preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
			if r.ID() == 0 {
				if mode == "Ssend" {
					r.World().Ssend(1, 0, Msg{Bytes: size})
				} else {
					r.World().Issend(1, 0, Msg{Bytes: size}).Wait()
				}
				sendRet = r.Now()
				return
			}
			r.Compute(late, "sleep")
			r.World().Recv(0, 0)
		})
		if arrival := late + 2e-6 + float64(size+16)/1e9; !near(sendRet, arrival) {
			t.Errorf("%s of %d B: returned at %.12g, want the arrival %.12g", mode, size, sendRet, arrival)
		}
	}
}

// TestAsyncSmallMovesAtOnce: below AsyncThreshold the bytes leave at the
// post, so a receiver posting late finds the message already in.
func TestAsyncSmallMovesAtOnce(t *testing.T) {
	cfg := preset(t, "cm02")
	cfg.AsyncThreshold = 1024
	var recvRet float64
	run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		if r.ID() == 0 {
			r.World().Send(1, 0, Msg{Bytes: 100})
			return
		}
		r.Compute(1, "sleep")
		r.World().Recv(0, 0)
		recvRet = r.Now()
	})
	if recvRet != 1 {
		t.Fatalf("receive returned at %g, want 1 (message already arrived)", recvRet)
	}
}

// TestMatchingOrder checks MPI's non-overtaking rule and wildcards: messages
// from one sender with one tag arrive in posting order; AnyTag takes the
// oldest message of any non-negative tag; AnySource takes, among posted
// messages, the one posted first.
func TestMatchingOrder(t *testing.T) {
	var got []int
	run(t, preset(t, "cm02"), newCrossbar(3, 1e9, 1e-6), 3, func(r *Rank) {
		c := r.World()
		switch r.ID() {
		case 0:
			for i := 0; i < 3; i++ {
				c.Send(2, 5, Msg{Data: []float64{float64(i)}})
			}
			c.Send(2, 9, Msg{Data: []float64{3}})
		case 1:
			r.Compute(1e-3, "wait") // posts after rank 0's messages
			c.Send(2, 5, Msg{Data: []float64{10}})
		case 2:
			r.Compute(1e-2, "wait") // everything is posted by now
			m, _ := c.Recv(0, 5)
			got = append(got, int(m.Data[0]))
			m, _ = c.Recv(AnySource, 9)
			got = append(got, int(m.Data[0]))
			m, st := c.Recv(AnySource, AnyTag)
			got = append(got, int(m.Data[0]), st.Source, st.Tag)
			m, st = c.Recv(1, AnyTag)
			got = append(got, int(m.Data[0]), st.Source)
			m, _ = c.Recv(AnySource, 5)
			got = append(got, int(m.Data[0]))
		}
	})
	want := []int{0, 3, 1, 0, 5, 10, 1, 2}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// TestPayloadCopiedAtSend: the sender may overwrite its buffer right after
// Isend; the receiver sees the values at the time of the call.
func TestPayloadCopiedAtSend(t *testing.T) {
	run(t, preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		c := r.World()
		if r.ID() == 0 {
			buf := []float64{1, 2, 3}
			q := c.Isend(1, 0, Msg{Data: buf})
			buf[0] = 99
			q.Wait()
			return
		}
		m, st := c.Recv(0, 0)
		if m.Data[0] != 1 || st.Bytes != 24 || m.Bytes != 24 {
			t.Errorf("received %v (%d B), want [1 2 3] (24 B)", m.Data, st.Bytes)
		}
	})
}

// TestPayloadSizes: a payload arrives with its values whatever its size
// class (1, 2, 3, 4 and 5 doubles cross classes 0 to 3), and an empty one
// (not nil) arrives as nil Data, as Go's append of nothing to nil gives.
func TestPayloadSizes(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			run(t, preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
				c := r.World()
				if r.ID() == 0 {
					buf := make([]float64, n)
					for i := range buf {
						buf[i] = float64(i + 1)
					}
					c.Send(1, 0, Msg{Data: buf})
					return
				}
				m, _ := c.Recv(0, 0)
				if len(m.Data) != n || n == 0 && m.Data != nil {
					t.Fatalf("received %#v, want %d doubles", m.Data, n)
				}
				for i, v := range m.Data {
					if v != float64(i+1) {
						t.Fatalf("received %v, want 1…%d", m.Data, n)
					}
				}
			})
		})
	}
}

// TestReleasedPayloadIsReused: a payload the receiver releases is the
// array the next message of its size class is copied into, and the values
// received are the sent ones each time; a payload not released is not.
func TestReleasedPayloadIsReused(t *testing.T) {
	run(t, preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		c := r.World()
		if r.ID() == 0 {
			for i := range 3 {
				if i == 2 { // a send copies its payload: the third once the second is released
					c.Recv(1, 1)
				}
				c.Send(1, 0, Msg{Data: []float64{float64(i), 1, 2}})
			}
			return
		}
		first, _ := c.Recv(0, 0)
		second, _ := c.Recv(0, 0)
		if &second.Data[0] == &first.Data[0] || first.Data[0] != 0 || second.Data[0] != 1 {
			t.Errorf("without a release: %v at %p, then %v at %p", first.Data, &first.Data[0], second.Data, &second.Data[0])
		}
		c.Release(second.Data)
		c.Send(0, 1, Msg{})
		third, _ := c.Recv(0, 0)
		if &third.Data[0] != &second.Data[0] || third.Data[0] != 2 || len(third.Data) != 3 {
			t.Errorf("after a release: %v at %p, want [2 1 2] in the released array %p", third.Data, &third.Data[0], &second.Data[0])
		}
		c.Release(nil) // nothing to give back
	})
}

// TestSelfMessages: a detached send to oneself completes through the
// loopback (zero latency, 10× bandwidth in the test topology); a
// rendezvous one to oneself before the receive is a deadlock, as in MPI.
func TestSelfMessages(t *testing.T) {
	var got float64
	run(t, preset(t, "cm02"), newCrossbar(1, 1e9, 1e-6), 1, func(r *Rank) {
		c := r.World()
		c.Send(0, 0, Msg{Bytes: 984})
		c.Recv(0, 0)
		got = r.Now()
	})
	if want := 1000 / 1e10; !near(got, want) {
		t.Errorf("self message took %g s, want %g", got, want)
	}
	w, _ := NewWorld(preset(t, "cm02"), newCrossbar(1, 1e9, 1e-6), identity(1), 1)
	if err := w.Run(func(r *Rank) { r.World().Send(0, 0, Msg{Bytes: 1 << 20}) }); err == nil {
		t.Error("rendezvous send to self before the receive did not deadlock")
	}
}

// TestSendrecvExchanges: two ranks that both Sendrecv a rendezvous-sized
// message to each other complete (a blocking Send from both would wait for a
// receive neither posts), each gets the other's data, and both return when
// their incoming message has arrived: on an idle crossbar of two 1 µs links
// per route and 1 GB/s, the two flows use opposite directions of split-duplex
// links, so each takes 2 µs + (s+16)/1e9 s, as a lone message does.
func TestSendrecvExchanges(t *testing.T) {
	const size = 1 << 20 // above the eager threshold: rendezvous
	var got [2][]float64
	var ret [2]float64
	run(t, preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
		me := r.ID()
		m, st := r.World().Sendrecv(1-me, 7, Msg{Bytes: size, Data: []float64{float64(me)}}, 1-me, 7)
		if st.Source != 1-me || st.Tag != 7 {
			t.Errorf("rank %d: status %+v", me, st)
		}
		got[me], ret[me] = m.Data, r.Now()
	})
	want := 2e-6 + float64(size+16)/1e9
	for me := range 2 {
		if len(got[me]) != 1 || got[me][0] != float64(1-me) {
			t.Errorf("rank %d received %v, want [%d]", me, got[me], 1-me)
		}
		if !near(ret[me], want) {
			t.Errorf("rank %d returned at %.12g, want %.12g", me, ret[me], want)
		}
	}
}
