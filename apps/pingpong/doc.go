// Package pingpong holds two micro-applications over ranks, in the spirit of
// the OSU micro-benchmarks:
//
//   - Pingpong: per message size, the one-way latency (osu_latency: half a
//     round trip between ranks 0 and 1, averaged) and the bandwidth
//     (osu_bw: a window of non-blocking sends acknowledged by a short reply).
//   - Ring: per message size, a token passed around all ranks; the time of
//     one lap and of one hop.
//
// Each size's timed part follows a barrier and one untimed round trip, window
// or lap (OSU's skip): a barrier's ranks leave at different times, which the
// first timed one would otherwise hold.
//
// Both take a config struct and a *ranks.World and return result structs;
// printing and JSON belong to scenario. Units: bytes, seconds, bytes per
// second (all simulated). Errors: a bad config is reported before running;
// a failed run (deadlock, panic) is returned as is.
//
// Imports: ranks only.
package pingpong
