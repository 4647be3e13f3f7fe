package loggops

import (
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
)

// BenchmarkReplayStudy replays three of the study's schedules (a stencil,
// a ring allreduce, a ResNet step) at the study's parameters (L = 3 µs,
// o = 5 µs, G = 0.018 ns/B, S = 65535 B), reporting events per second.
func BenchmarkReplayStudy(b *testing.B) {
	p := Params{L: 3e-6, O: 5e-6, G: 0.018e-9, S: 65535}
	for _, name := range []string{"stencil2d_8x8_it50", "allreduce_ring_fifo_64", "resnet_64"} {
		s := loggopspeers.MustSchedule(b, peerDir, name)
		b.Run(name, func(b *testing.B) {
			var events int64
			for i := 0; i < b.N; i++ {
				res, err := Replay(s, p)
				if err != nil {
					b.Fatal(err)
				}
				events += res.Events
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
