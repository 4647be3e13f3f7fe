package fluid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLinkTreeOrder drives a linkTree as fillTree does — the winner is
// either taken out or its key raised — over keys with many ties, zeros
// and +Inf, at every size up to 80 and at sizes around the powers of two
// up to maxTreeLinks, and checks each winner against a plain scan for the
// least (key, link) of the entries left.
func TestLinkTreeOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var tr linkTree
	var sizes []int
	for n := 1; n <= 80; n++ {
		sizes = append(sizes, n)
	}
	for p := 128; p <= maxTreeLinks; p *= 2 {
		sizes = append(sizes, p-1, p, p/2+p/4+1)
	}
	for _, n := range sizes {
		reps := 20
		if n > 80 {
			reps = max(1, 20*80/n) // the scan below costs n² a build
		}
		for range reps {
			// The reference: the entries left, with their current keys.
			var live []levelEntry
			for _, l := range rng.Perm(4 * n)[:n] { // links in no order, with gaps
				k := []float64{0, 1, 2, 2.5, math.Inf(1)}[rng.IntN(5)]
				live = append(live, linkAt(k, LinkID(l)))
			}
			if !treeKeys(live) {
				t.Fatalf("n=%d: treeKeys refuses %v", n, live)
			}
			tr.build(live)
			for len(live) > 0 {
				i := tr.top()
				least := 0
				for j, e := range live {
					if w := live[least]; e.Key < w.Key || (e.Key == w.Key && e.ID < w.ID) {
						least = j
					}
				}
				want := live[least]
				if got := linkAt(math.Float64frombits(tr.key[i]), tr.link[i]); tr.key[i] == treeGone || got != want {
					t.Fatalf("n=%d: winner %+v (bits %#x), want %+v", n, got, tr.key[i], want)
				}
				if rng.IntN(3) == 0 || math.IsInf(want.Key, 1) {
					live[least] = live[len(live)-1]
					live = live[:len(live)-1]
					tr.setTop(treeGone)
					continue
				}
				level := want.Key + float64(rng.IntN(3)) // keys only grow
				if level == want.Key {
					level = math.Nextafter(level, math.Inf(1))
				}
				live[least].Key = level
				tr.setTop(math.Float64bits(level))
			}
			if tr.key[tr.top()] != treeGone {
				t.Fatalf("n=%d: an entry is left after all were taken out", n)
			}
		}
	}
}

// TestTreeKeys: the tree takes keys from +0 to +Inf, and leaves −0,
// negative keys and NaN to the heap, whose order their bits would not give.
func TestTreeKeys(t *testing.T) {
	for _, c := range []struct {
		key  float64
		want bool
	}{{0, true}, {1e-300, true}, {3, true}, {math.MaxFloat64, true}, {math.Inf(1), true},
		{math.Copysign(0, -1), false}, {-1, false}, {math.Inf(-1), false}, {math.NaN(), false}} {
		if got := treeKeys([]levelEntry{linkAt(1, 0), linkAt(c.key, 1)}); got != c.want {
			t.Errorf("treeKeys with key %v = %v, want %v", c.key, got, c.want)
		}
	}
}

// TestTreeFillMatchesHeap runs random traffic on flat clusters like
// Dahu's (hosts with one up and one down cable, each flow loading the
// cables of its route at 1 and those of the reverse route at a share, as
// SMPI's cross-traffic does), with 2 to 40 hosts, so that re-solves queue
// from 2 to 80 links, or (one seed in three) 100 to 200 hosts, so that
// they queue hundreds: batches of starts (StartAll, a whole component
// re-solved), completions in order and cancellations. It runs each seed
// twice, once with the re-solves of at most a limit of links ranked by the
// tournament tree (fillTree) and once all through the level heap, and
// wants every rate and completion date after every event to be the same
// float. The limit is maxTreeLinks, or for odd seeds 32, so that a run
// crosses it. Capacities, weights, bounds and shares take few values, so
// that links saturate at tied levels (broken by link) and bounds tie with
// links; from seed 61 on, half the values are moved by a random factor, so that
// a link's level after a fix falls below its key in the last bits, which
// decides which entry the tree accepts (fillTwo). It also wants both paths
// taken, trees of more than 64 links built, re-solves of one and of two
// flows, and fails if the tree ever ranked two links otherwise than the
// heap did.
func TestTreeFillMatchesHeap(t *testing.T) {
	type outcome struct {
		values []float64
		tree   int // re-solves ranked by the tree
		big    int // of those, re-solves of more than 64 links
		over   int // re-solves of more links than the tree takes
		one    int // re-solves of a single flow (fillFew's)
		two    int // re-solves of two flows (fillTwo's)
	}
	run := func(seed uint64, small int) outcome {
		old := smallQueue
		smallQueue = small
		defer func() { smallQueue = old }()
		rng := rand.New(rand.NewPCG(seed, 11))
		val := func(vs ...float64) float64 { // one of vs, moved from seed 61 on
			v := vs[rng.IntN(len(vs))]
			if seed > 60 && rng.IntN(2) == 0 {
				v *= 1 + rng.Float64()/7
			}
			return v
		}
		hosts := 2 + rng.IntN(39)
		if seed%3 == 0 {
			hosts = 100 + rng.IntN(101)
		}
		bws := make([]float64, 2*hosts) // up[h] = 2h, down[h] = 2h+1
		for i := range bws {
			bws[i] = val(10, 20, 30, 7)
		}
		s := NewSystem(shared(bws...))
		m := s.mm()
		var out outcome
		var ids []FlowID
		now := 0.0
		for step := range 200 {
			before := m.fill.stamp
			switch r := rng.IntN(10); {
			case r < 5 || len(ids) == 0:
				specs := make([]FlowSpec, 1+rng.IntN(min(hosts, 40)))
				for i := range specs {
					src, dst := rng.IntN(hosts), rng.IntN(hosts)
					spec := FlowSpec{Links: []LinkID{LinkID(2 * src), LinkID(2*dst + 1)}, Bytes: float64(1 + rng.IntN(50)),
						Weight: val(1, 1, 2, 0.5)}
					if rng.IntN(3) > 0 {
						spec.Reverse = []LinkID{LinkID(2 * dst), LinkID(2*src + 1)}
						spec.ReverseShare = val(0.05, 0.5, 1)
					}
					if rng.IntN(4) == 0 {
						spec.Bound = val(2, 5, 10)
					}
					specs[i] = spec
				}
				ids = s.StartAll(now, specs, ids)
			default:
				now, ids = endOne(s, rng, r < 8, now, ids)
			}
			if m.fill.stamp != before && len(m.fill.queue.parked) > 0 && m.fill.queue.heap.Len() == 0 &&
				len(m.fill.queue.parked) <= min(small, maxTreeLinks) {
				out.tree++ // a re-solve the tree ranked (it leaves the heap empty)
				switch len(m.fill.flows) {
				case 1:
					out.one++
				case 2:
					out.two++
				}
				if len(m.fill.queue.parked) > 64 {
					out.big++
				}
			}
			if m.fill.stamp != before && len(m.fill.links) > min(small, maxTreeLinks) {
				out.over++
			}
			if step%7 == 0 {
				now += 0.25
			}
			for _, id := range ids {
				f := s.mustFlow(id)
				out.values = append(out.values, f.rate, f.finish)
			}
		}
		return out
	}
	over, big, one, two := 0, 0, 0, 0
	for seed := uint64(1); seed <= 90; seed++ {
		limit := maxTreeLinks
		if seed%2 == 1 {
			limit = 32
		}
		tree, heap := run(seed, limit), run(seed, -1)
		if tree.tree == 0 || heap.tree != 0 {
			t.Fatalf("seed %d: %d re-solves ranked by the tree, %d with the tree off", seed, tree.tree, heap.tree)
		}
		if len(tree.values) != len(heap.values) {
			t.Fatalf("seed %d: %d values with the tree, %d through the heap", seed, len(tree.values), len(heap.values))
		}
		for i := range tree.values {
			if math.Float64bits(tree.values[i]) != math.Float64bits(heap.values[i]) {
				t.Fatalf("seed %d: value %d is %v with the tree, %v through the heap", seed, i, tree.values[i], heap.values[i])
			}
		}
		over += tree.over
		big += tree.big
		one += tree.one
		two += tree.two
	}
	if over == 0 || big == 0 || one == 0 || two == 0 {
		t.Fatalf("%d re-solves queued more links than the tree's limit, %d trees of more than 64 links, %d of one flow, %d of two", over, big, one, two)
	}
}

// BenchmarkFlatReSolves is the solver's side of a Dahu run (examples/dahu:
// a flat cluster of 32 hosts, each with an up and a down cable of 12.5 GB/s,
// each message loading its route's cables at 1 and the reverse route's at
// SMPI's 0.05): each op is one instant where one or two messages between
// random hosts start (StartAll, a whole component re-solved), followed by
// the completions, in order, that bring the running messages back to 24
// (each end re-solving what it shared). Re-solves queue 4 to 64 links and
// take in about as many flows as Dahu's (flows/resolve). "tree" ranks the
// links of re-solves of up to maxTreeLinks links with the tournament tree
// (fillTree), "heap" all through the level heap (the rates are the same
// floats: TestTreeFillMatchesHeap).
func BenchmarkFlatReSolves(b *testing.B) {
	for _, c := range []struct {
		name  string
		small int
	}{{"tree", maxTreeLinks}, {"heap", -1}} {
		b.Run(c.name, func(b *testing.B) {
			old := smallQueue
			smallQueue = c.small
			defer func() { smallQueue = old }()
			const hosts, running = 32, 24
			links := make([]Link, 2*hosts) // up[h] = 2h, down[h] = 2h+1
			for i := range links {
				links[i] = Link{Bandwidth: 12.5e9, Sharing: Shared}
			}
			s := NewSystem(links)
			rng := rand.New(rand.NewPCG(1, 1))
			message := func() FlowSpec {
				src := rng.IntN(hosts)
				dst := (src + 1 + rng.IntN(hosts-1)) % hosts
				return FlowSpec{Links: []LinkID{LinkID(2 * src), LinkID(2*dst + 1)}, Bytes: float64(1 + rng.IntN(1<<20)),
					Weight: 1e-6 + 7e-7*float64(rng.IntN(4)), Reverse: []LinkID{LinkID(2 * dst), LinkID(2*src + 1)}, ReverseShare: 0.05}
			}
			var ids []FlowID
			specs := make([]FlowSpec, 0, 2)
			now, messages := 0.0, 0
			stats := s.SolveStats()
			for b.Loop() {
				specs = specs[:0]
				for range 1 + rng.IntN(2) {
					specs = append(specs, message())
				}
				ids = s.StartAll(now, specs, ids[:0])
				messages += len(specs)
				for s.Active() > running {
					t, id, ok := s.NextCompletion()
					if !ok {
						b.Fatal("no completion")
					}
					now = t
					s.Finish(now, id)
				}
			}
			st := s.SolveStats()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(messages), "µs/message")
			b.ReportMetric(float64(st.Flows-stats.Flows)/float64(st.Resolves-stats.Resolves), "flows/resolve")
		})
	}
}

// TestFillTwoLevelBelowKey solves by hand two flows whose second round
// (fillTwo) meets a level below its link's key. Flow F crosses links A
// (capacity 10, F alone: key 10) and S; flow R crosses T at 1 and S at a
// share s, so S's key is capS/(1+s), with capS = 10·(1+s) chosen so that it
// is 10 too, tied with A. A wins the tie (lower link), F is fixed at 10, and
// S's level becomes (capS − 10)/((1+s) − 1), which rounding puts below 10
// for the s found here: its entry keeps key 10 and is accepted at that
// level. With T's key above 10, R gets S's level; with T's key 10 (a tie
// that T, the lower link, wins), R gets 10. The heap path (the tree off)
// must agree, and so must the hand-computed floats.
func TestFillTwoLevelBelowKey(t *testing.T) {
	s, dip := 0.0, 0.0
	for i := 1; i < 10000; i++ {
		c := float64(i) / 997
		capS := 10 * (1 + c)
		if capS/(1+c) != 10 {
			continue
		}
		if l := (capS - 10) / ((1 + c) - 1); l < 10 {
			s, dip = c, l
			break
		}
	}
	if s == 0 {
		t.Fatal("no share found whose level dips below its key")
	}
	for _, c := range []struct {
		capT float64
		want float64 // R's rate
	}{{1000, dip}, {10, 10}} {
		for _, small := range []int{maxTreeLinks, -1} {
			old := smallQueue
			smallQueue = small
			sys := NewSystem(shared(10, c.capT, 10*(1+s))) // A = 0, T = 1, S = 2
			ids := sys.StartAll(0, []FlowSpec{
				{Links: []LinkID{0, 2}, Bytes: 1},
				{Links: []LinkID{1}, Reverse: []LinkID{2}, ReverseShare: s, Bytes: 1},
			}, nil)
			smallQueue = old
			if f := sys.mustFlow(ids[0]).rate; f != 10 {
				t.Errorf("capT %v, tree limit %d: F's rate %v, want 10", c.capT, small, f)
			}
			if r := sys.mustFlow(ids[1]).rate; r != c.want {
				t.Errorf("capT %v, tree limit %d: R's rate %v, want %v (s = %v)", c.capT, small, r, c.want, s)
			}
		}
	}
}
