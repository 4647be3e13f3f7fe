package calibration

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
)

// netTol is the relative error allowed on a parsed time (s/s): unit
// conversion only.
const netTol = 1e-12

const osuLatency = `# OSU MPI Latency Test v5.8
# Size          Latency (us)
0                       0.20
8                       0.25
1024                    0.90
`

const osuBW = `# OSU MPI Bandwidth Test v5.8
# Size      Bandwidth (MB/s)
1                       2.00
1048576             10000.00
`

func TestParseNetwork(t *testing.T) {
	cases := []struct {
		name, data string
		want       []models.PingPong
	}{
		{"osu_latency", osuLatency, []models.PingPong{{Bytes: 0, Seconds: 0.2e-6}, {Bytes: 8, Seconds: 0.25e-6}, {Bytes: 1024, Seconds: 0.9e-6}}},
		// 1 byte at 2 MB/s = 0.5 µs; 1 MiB at 10 GB/s = 104.8576 µs.
		{"osu_bw", osuBW, []models.PingPong{{Bytes: 1, Seconds: 0.5e-6}, {Bytes: 1048576, Seconds: 1048576 / 1e10}}},
		{"csv", "host,seconds,bytes\na,1e-6,8\nb,2.5e-3,1000000\n", []models.PingPong{{Bytes: 8, Seconds: 1e-6}, {Bytes: 1e6, Seconds: 2.5e-3}}},
	}
	for _, c := range cases {
		got, err := ParseNetwork([]byte(c.data), c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %v, want %v", c.name, got, c.want)
		}
		for i := range got {
			if got[i].Bytes != c.want[i].Bytes || math.Abs(got[i].Seconds-c.want[i].Seconds) > netTol*c.want[i].Seconds {
				t.Errorf("%s: point %d = %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}
	}
}

func TestParseNetworkErrors(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"no columns", "size,time\n1,2\n", "net:1: want columns bytes and seconds"},
		{"negative", "bytes,seconds\n8,-1\n", "net:2: negative time"},
		{"text time", "bytes,seconds\n8,1e-6\n16,slow\n", `net:3: time "slow" is not a number`},
		{"fraction bytes", "bytes,seconds\n8.5,1\n", `net:2: bytes "8.5"`},
		{"empty csv", "bytes,seconds\n", "net: no measurements"},
		{"extra field", "bytes,seconds\n8,1e-6,3\n", "net:2: row has 3 fields, the header 2 columns"},
		{"osu unit", "# Size   Latency (ms)\n1 2\n", "net:1: header"},
		{"osu short", "# Size   Latency (us)\n1\n", "net:2: want size and value"},
		{"osu zero bw", "# Size   Bandwidth (MB/s)\n1 0\n", "net:2: bandwidth 0 is zero"},
		// A message takes time: a zero one-way time is refused at its line,
		// not later by the fit with a 0-based point index and no line.
		{"zero time", "bytes,seconds\n8,1e-6\n16,0\n", "net:3: time 0 s"},
		{"osu zero latency", "# Size   Latency (us)\n0 0.00\n", "net:2: time 0 s"},
		{"osu latency underflow", "# Size   Latency (us)\n8 1e-320\n", "net:2: time 0 s"},
		{"osu bw of size 0", "# Size   Bandwidth (MB/s)\n0 5.5\n", "net:2: time 0 s"},
		// A binary file: not Scanner's "token too long".
		{"osu line over 1 MiB", "# Size   Latency (us)\n" + strings.Repeat("\x00", 1<<20+1), "net: a line longer than 1 MiB: not the output of osu_latency or osu_bw"},
	}
	for _, c := range cases {
		_, err := ParseNetwork([]byte(c.data), "net")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func FuzzParseNetwork(f *testing.F) {
	f.Add([]byte(osuLatency))
	f.Add([]byte(osuBW))
	f.Add([]byte("bytes,seconds\n8,1e-6\n"))
	f.Add([]byte("# Size Latency (us)\n-1 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseNetwork(data, "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error without the file name, or on several lines: %q", err)
			}
			return
		}
		for _, p := range got {
			if p.Bytes < 0 || !(p.Seconds > 0) || math.IsInf(p.Seconds, 0) {
				t.Fatalf("accepted %+v", p)
			}
		}
	})
}

// TestMPIBenchCutShort: mpibench opens its output with a line of its own and
// ends it with MPIBenchDone; a file that opens so but lacks the last line is
// a run cut short (killed, out of time) and is refused at its last line,
// whichever row it was cut after. An older mpibench's file (no such lines)
// is still read; when its sizes double from 1 B and stop short of 16 MiB with
// no poll costs after them, as such a file cut short does, OlderMPIBenchCut
// names its last row's line, and 0 for a whole one or another tool's CSV.
func TestMPIBenchCutShort(t *testing.T) {
	rows := func(n int) string { // mpibench's rows for sizes 1 B .. 2^(n-1) B
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%d,%g\n", 1<<i, 1e-6*float64(i+1))
		}
		return b.String()
	}
	polls := "# iprobe_cost 7.5e-08 s (network.iprobe_cost)\n# test_cost 3.6e-08 s (network.test_cost)\n"
	first := MPIBenchFirst + "\nbytes,seconds\n"
	for _, tc := range []struct {
		name, data string
		err        string // refusal, "" for none
		older      int    // OlderMPIBenchCut's line
	}{
		{"whole", first + rows(25) + polls + MPIBenchDone + "\n", "", 0},
		{"whole, loaded", first + rows(25) + polls + "# loaded: 14 other ranks streaming memory throughout\n" + MPIBenchDone + "\n", "", 0},
		{"cut between rows", first + rows(12), "net:14: mpibench's output ends here without its last line", 0},
		{"cut before the polls", first + rows(25), "net:27: mpibench's output ends here", 0},
		{"cut between the polls", first + rows(25) + polls[:strings.Index(polls, "\n")+1], "net:28: mpibench's output ends here", 0},
		{"last line torn", first + rows(25) + polls + MPIBenchDone[:10], "net:30: mpibench's output ends here", 0},
		{"older, whole", "bytes,seconds\n" + rows(25) + polls, "", 0},
		{"older, cut between rows", "bytes,seconds\n" + rows(12), "", 13},
		{"older, cut before the polls", "bytes,seconds\n" + rows(25), "", 0}, // every size there: nothing to extrapolate
		{"another tool's sizes", "bytes,seconds\n8,1e-6\n64,2e-6\n", "", 0},
		{"another tool's from 1 B", "bytes,seconds\n1,1e-6\n3,2e-6\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pp, err := ParseNetwork([]byte(tc.data), "net")
			if (err != nil) != (tc.err != "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("ParseNetwork: %v, want %q", err, tc.err)
			}
			if err != nil {
				return
			}
			if got := OlderMPIBenchCut([]byte(tc.data), pp); got != tc.older {
				t.Errorf("OlderMPIBenchCut = %d, want %d", got, tc.older)
			}
		})
	}
}
