package fluid

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
)

// lmmLog drives a System under the SimGrid solver through a random SMPI-
// like run and writes every outcome with its float bits: flows start in
// bursts (latent or not, on one to four hosts' links, with cross-traffic,
// a latency weight, a TCP-window bound and a rate factor, each drawn or
// not), latency phases end and flows complete as sgRun's instants take
// them, some flows are cancelled and some links change capacity; after
// each Settle every running flow's rate and finish are written. The hosts
// have an up and a down link each (cluster_flat's routes) and share a
// backbone that some routes cross; a few links are slow, so that
// solves saturate several levels. The log goes to h as event codes, ids
// and float bits; it returns the number of events.
func lmmLog(h hash.Hash, seed uint64, hosts, flows int) (events int) {
	rng := rand.New(rand.NewPCG(seed, 32))
	links := make([]Link, 2*hosts+1)
	for i := range links {
		links[i] = Link{Bandwidth: 1.25e9, Sharing: Shared}
		if rng.IntN(8) == 0 {
			links[i].Bandwidth = 1e8 * float64(1+rng.IntN(5))
		}
	}
	backbone := LinkID(2 * hosts)
	s := NewSystemOptions(links, Options{Solver: SimGrid})
	var buf []byte
	put := func(code byte, id FlowID, xs ...float64) {
		buf = append(buf[:0], code)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(id))
		for _, x := range xs {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
		}
		h.Write(buf)
		events++
	}
	var live []FlowID
	now, started := 0.0, 0
	start := func() {
		src, dst := rng.IntN(hosts), rng.IntN(hosts)
		spec := FlowSpec{Links: []LinkID{LinkID(2 * src), LinkID(2*dst + 1)}, Bytes: float64(rng.IntN(4)) * math.Pow(10, float64(rng.IntN(7)))}
		if rng.IntN(4) == 0 {
			spec.Links = append(spec.Links, backbone)
		}
		if rng.IntN(2) == 0 {
			spec.Reverse, spec.ReverseShare = []LinkID{LinkID(2 * dst), LinkID(2*src + 1)}, 0.05
		}
		if rng.IntN(2) == 0 {
			spec.Weight = 1e-6 * float64(1+rng.IntN(3))
		}
		if rng.IntN(3) == 0 {
			spec.Bound = 1e8 * float64(1+rng.IntN(20))
		}
		if rng.IntN(3) == 0 {
			spec.RateFactor = 0.5 + rng.Float64()/2
		}
		var id FlowID
		if lat := 1e-6 * float64(rng.IntN(4)); rng.IntN(5) == 0 {
			id = s.Start(now, spec)
		} else {
			id = s.StartLatent(now, &spec, lat)
		}
		live = append(live, id)
		started++
		put('s', id, now)
	}
	drop := func(id FlowID) {
		for i, g := range live {
			if g == id {
				live = append(live[:i], live[i+1:]...)
				return
			}
		}
	}
	settle := func() {
		s.Settle(now)
		for _, id := range live {
			put('r', id, s.Rate(id), s.Remaining(now, id))
		}
		if t, id, ok := s.NextCompletion(); ok {
			put('n', id, t)
		}
	}
	for started < flows || len(live) > 0 {
		// an instant: a burst of starts, a cancel, a capacity change
		for started < flows && rng.IntN(2) == 0 {
			start()
		}
		if len(live) > 0 && rng.IntN(40) == 0 {
			id := live[rng.IntN(len(live))]
			s.Cancel(now, id)
			drop(id)
			put('c', id)
		}
		if rng.IntN(60) == 0 {
			l := LinkID(rng.IntN(len(links)))
			s.SetCapacity(now, l, 1e8*float64(1+rng.IntN(20)))
			put('l', FlowID(l))
		}
		settle()
		t0, _, ok := s.NextCompletion()
		if !ok {
			if started >= flows {
				break
			}
			continue
		}
		if gap := 1e-6 * rng.Float64(); started < flows && rng.IntN(4) == 0 && now+gap < t0 {
			now += gap // a start before the next event
			continue
		}
		now = t0
		for {
			t, id, ok := s.NextCompletion()
			if !ok || !(t < t0+1e-9) {
				break
			}
			if s.Latent(id) {
				s.Activate(now, id)
				put('a', id)
				continue
			}
			s.Finish(now, id)
			drop(id)
			put('f', id, t)
		}
	}
	return events
}

// TestSimGridGoldenRandom pins, bit for bit, what lmm made of random SMPI-
// like runs (lmmLog) when its solve, marks and heap stamps were SimGrid's
// as first replicated (5f3f38f): each run's log is kept as its number of
// events and SHA-256, so that any change to lmm's arithmetic or order — a fast path,
// a reordered loop — that moves one float or one tie fails here.
func TestSimGridGoldenRandom(t *testing.T) {
	var out strings.Builder
	for _, c := range []struct {
		seed         uint64
		hosts, flows int
	}{{1, 2, 300}, {2, 3, 500}, {3, 4, 1000}, {4, 8, 1500}, {5, 16, 2000}, {6, 64, 2000}, {7, 4, 2000}, {8, 8, 2000}} {
		h := sha256.New()
		n := lmmLog(h, c.seed, c.hosts, c.flows)
		fmt.Fprintf(&out, "seed %d, %d hosts, %d flows: %d events, sha256 %x\n", c.seed, c.hosts, c.flows, n, h.Sum(nil))
	}
	golden.Check(t, "testdata/lmm_random.golden", []byte(out.String()))
}
