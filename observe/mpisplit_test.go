package observe_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/sensitivity"
)

// splitTol is the tolerance on the split's sums, s: a few dozen additions
// of microsecond figures.
const splitTol = 1e-15

// splitPlatform is the split tests' scenario without its last [network] keys:
// a trace t.txt replayed on two hosts, 1 µs and 1 GB/s links, 1 Gflop/s.
const splitPlatform = `app = "replay"
[replay]
file = "t.txt"
[platform]
hosts = 2
link_bandwidth = "1GBps"
link_latency = "1us"
speed = "1Gf"
[network]
model = "cm02"
`

// TestMPISplitPerProtocolByHand: one round trip per protocol between two
// hosts of a flat cluster (cm02: a message of s bytes takes
// X(s) = 2·1 µs + (s+16)/1 GB/s on its idle route; o_s = 3 µs, o_r = 2 µs
// for detached messages only; async below 1 KiB, eager below 64 KiB). Rank 1
// computes C = 10 µs before each receive. Times in µs:
//
//	async 100 B, X = 2.116: rank 0 sends [0,3] (the bytes move 3→5.116),
//	  posts its recv at 3; rank 1 computes [0,10], its recv finds the message
//	  in (wait 0), o_r [10,12], sends [12,15] → arrives 17.116; rank 0's wait
//	  [3, 17.116] is sync 15−3 = 12 (eq. 2), network 2.116; o_r → 19.116.
//	  async: stack 10, sync 12, network 2.116.
//	eager 10000 B, X = 12.016: rank 1 computes [15,25]; rank 0 sends [19.116,
//	  22.116] (queued: detached bytes move at the match), recv posted 22.116;
//	  rank 1's recv at 25 starts the transfer → 37.016: sync max(0, 22.116−25)
//	  = 0, network 12.016; o_r → 39.016, sends [39.016, 42.016] → 54.032;
//	  rank 0's wait [22.116, 54.032] is sync 42.016−22.116 = 19.9, network
//	  12.016; o_r → 56.032. eager: stack 10, sync 19.9, network 24.032.
//	rendezvous 1 MiB, X = 1050.592: rank 1 computes [42.016, 52.016], posts
//	  its recv; rank 0's send posts at 56.032, the transfer ends 1106.624:
//	  rank 0's send waits sync max(0, 52.016−56.032) = 0 (eq. 1), network X;
//	  rank 1's recv sync 56.032−52.016 = 4.016 (eq. 2), network X; the reply
//	  leaves at 1106.624 with both posted: network X on each side.
//	  rendezvous: stack 0, sync 4.016, network 4X = 4202.368.
//
// Per call: MPI_Send stack 12, network 2X = 2101.184; MPI_Recv stack 8,
// sync 35.916, network 2127.332. Both ranks end at 2157.216, each rank's
// stack + sync + network being its time in MPI (End − Compute).
func TestMPISplitPerProtocolByHand(t *testing.T) {
	trace := ""
	for _, s := range []string{"100", "10000", "1048576"} {
		trace += "1 compute 10000\n0 send 1 0 " + s + "\n0 recv 1 0 " + s + "\n1 recv 0 0 " + s + "\n1 send 0 0 " + s + "\n"
	}
	dir := scenariotest.WriteScenario(t, map[string]string{
		"s.toml": splitPlatform + `async_threshold = "1KiB"
send_overhead = "3us"
isend_overhead = "3us"
recv_overhead = "2us"
`,
		"t.txt": trace,
	})
	p := plantest.Load(t, filepath.Join(dir, "s.toml"))
	res, err := runner.Run(p, runner.Options{MPISplit: true})
	if err != nil {
		t.Fatal(err)
	}
	X := 1050.592
	want := map[string]sensitivity.MPIPart{
		"async-small": {Stack: 10, Sync: 12, Network: 2.116},
		"eager":       {Stack: 10, Sync: 19.9, Network: 24.032},
		"rendezvous":  {Stack: 0, Sync: 4.016, Network: 4 * X},
		"MPI_Send":    {Calls: 6, Stack: 12, Network: 2 * X},
		"MPI_Recv":    {Calls: 6, Stack: 8, Sync: 35.916, Network: 2127.332},
	}
	checkSplit(t, res.MPISplit, want)
	for _, r := range res.MPISplit.Ranks() {
		if math.Abs(r.End-2157.216e-6) > splitTol*1e3 {
			t.Errorf("rank %d ends at %.9g s, want 2157.216 µs", r.Rank, r.End)
		}
		if mpi := r.End - r.Compute; math.Abs(r.Stack+r.Sync+r.Network-mpi) > splitTol*1e3 {
			t.Errorf("rank %d: stack %.9g + sync %.9g + network %.9g ≠ MPI time %.9g s", r.Rank, r.Stack, r.Sync, r.Network, mpi)
		}
	}
}

// TestMPISplitDeferredWaits: seed 002's eq. (3) and (4) — with a deferred
// wait, synchronisation counts from when the rank starts waiting, not from
// its post. cm02, no overheads, X(s) = 2 µs + (s+16)/1 GB/s; times in µs:
//
//	eager 1000 B, X = 3.016: rank 1 posts an Irecv at 0, computes [0,10],
//	  waits from 10; rank 0 computes [0,20] and sends at 20 → 23.016. Rank 1's
//	  wait [10, 23.016] is sync 20−10 = 10 (eq. 4; from the post it would be
//	  20) and network 3.016.
//	rendezvous 1 MiB, X = 1050.592: rank 0 Isends at 20, computes [20,25],
//	  waits from 25; rank 1 computes [23.016, 33.016] and receives → 1083.608.
//	  Rank 0's wait [25, 1083.608] is sync 33.016−25 = 8.016 (eq. 3; from the
//	  post, 13.016) and network X; rank 1's receive sync 0, network X.
//
// (The replay's waitall is one MPI_Waitall call.)
func TestMPISplitDeferredWaits(t *testing.T) {
	dir := scenariotest.WriteScenario(t, map[string]string{
		"s.toml": splitPlatform,
		"t.txt": "1 irecv 0 0 1000\n1 compute 10000\n1 waitall\n0 compute 20000\n0 send 1 0 1000\n" +
			"0 isend 1 0 1048576\n0 compute 5000\n0 waitall\n1 compute 10000\n1 recv 0 0 1048576\n",
	})
	res, err := runner.Run(plantest.Load(t, filepath.Join(dir, "s.toml")), runner.Options{MPISplit: true})
	if err != nil {
		t.Fatal(err)
	}
	X := 1050.592
	want := map[string]sensitivity.MPIPart{
		"eager":       {Sync: 10, Network: 3.016},
		"rendezvous":  {Sync: 8.016, Network: 2 * X},
		"MPI_Waitall": {Calls: 2, Sync: 18.016, Network: 3.016 + X},
		"MPI_Recv":    {Calls: 1, Network: X},
		"MPI_Irecv":   {Calls: 1},
		"MPI_Isend":   {Calls: 1},
		"MPI_Send":    {Calls: 1},
	}
	checkSplit(t, res.MPISplit, want)
}

// checkSplit compares the split per protocol and per call with want, in µs.
func checkSplit(t *testing.T, m *observe.MPISplit, want map[string]sensitivity.MPIPart) {
	t.Helper()
	const us = 1e-6
	got := map[string]sensitivity.MPIPart{}
	for _, q := range append(m.Protocols(), m.Calls()...) {
		got[q.Name] = q
	}
	if len(got) != len(want) {
		t.Errorf("parts %v, want %d", got, len(want))
	}
	off := func(a, b float64) bool { return math.Abs(a-b*us) > splitTol*1e3 }
	for name, w := range want {
		g := got[name]
		if g.Calls != w.Calls || off(g.Stack, w.Stack) || off(g.Sync, w.Sync) || off(g.Network, w.Network) {
			t.Errorf("%s: %d calls, stack %.9g, sync %.9g, network %.9g s; want %d, %.9g, %.9g, %.9g", name,
				g.Calls, g.Stack, g.Sync, g.Network, w.Calls, w.Stack*us, w.Sync*us, w.Network*us)
		}
	}
}
