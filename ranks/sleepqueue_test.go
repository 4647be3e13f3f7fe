package ranks

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSleepQueueOrder drives the sleep queue as the scheduler does: sleeps
// pushed at a clock that only moves forward, with delays from a set larger
// than the lanes (so that lanes fill, empty, change delay and the heap takes
// the rest) or drawn at random, some tying, and pops of the first end, the
// clock moving to it. Against a sorted list of the sleeps queued, it checks
// first after every step, that pop hands back a sleep of the least end, and
// that every sleep comes back once.
func TestSleepQueueOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		delays []float64 // 0: a random delay
		most   int       // sleeps queued at most
	}{
		{"two delays", []float64{3e-7, 1.4e-6}, 40},
		{"four delays, ties", []float64{0.25, 0.5, 0.75, 1}, 300},
		{"seven delays", []float64{1e-7, 3e-7, 5e-7, 1e-6, 2e-6, 3e-6, 0.5}, 300},
		{"random", []float64{1e-6, 0, 0, 0}, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(c.delays))))
			q := newSleepQueue()
			type sleep struct {
				end float64
				gid int32
			}
			var ref []sleep // queued, by end
			ends := map[int32]float64{}
			now, heap := 0.0, 0
			for step := range 100000 {
				if len(ref) == 0 || rng.IntN(2) == 0 && len(ref) < c.most {
					d := c.delays[rng.IntN(len(c.delays))]
					if d == 0 {
						d = rng.Float64() * 1e-5
					}
					gid := int32(step)
					q.push(now, d, gid)
					s := sleep{now + d, gid}
					i, _ := slices.BinarySearchFunc(ref, s.end, func(s sleep, e float64) int {
						switch {
						case s.end < e:
							return -1
						case s.end > e:
							return 1
						}
						return 0
					})
					ref = slices.Insert(ref, i, s)
					ends[gid] = s.end
				} else {
					want := ref[0].end
					gid := q.pop()
					end, ok := ends[gid]
					if !ok || end != want {
						t.Fatalf("step %d: pop gave sleep %d (end %v, queued %v), want one ending at %v", step, gid, end, ok, want)
					}
					delete(ends, gid)
					i := slices.IndexFunc(ref, func(s sleep) bool { return s.gid == gid })
					ref = slices.Delete(ref, i, i+1)
					now = want
				}
				heap = max(heap, len(q.heap.h))
				want := math.Inf(1)
				if len(ref) > 0 {
					want = ref[0].end
				}
				if q.first != want {
					t.Fatalf("step %d: first %v, want %v", step, q.first, want)
				}
			}
			if len(c.delays) > sleepLanes && heap == 0 {
				t.Errorf("%d delays and the heap never used", len(c.delays))
			}
		})
	}
}
