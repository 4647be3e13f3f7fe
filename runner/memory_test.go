package runner

import (
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

func TestParseMemTotal(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
	}{
		{"MemTotal:       24584348 kB\nMemFree:        21000000 kB\n", 24584348 * 1024},
		{"MemFree: 5 kB\nMemTotal: 1 kB\n", 1024},
		{"MemTotal: 12 MB\n", 0}, // an unknown unit: no limit rather than a wrong one
		{"MemTotal: x kB\n", 0},
		{"", 0},
	} {
		if got := parseMemTotal([]byte(c.text)); got != c.want {
			t.Errorf("parseMemTotal(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// A real-mode test whose matrices do not fit the machine is skipped, as HPL
// skips a test whose malloc fails; the others run. Model mode has no matrices.
func TestRealModeSkipsWhatDoesNotFit(t *testing.T) {
	defer func(f func() int64) { realMemory = f }(realMemory)
	// N = 100 on the default 2×2 grid, NB 64: rows own 64 and 36 → lda 72 and
	// 40; columns the same: 8·(112·(65+37) + 2·100) = 92,992 bytes. N = 10 fits.
	realMemory = func() int64 { return 90_000 }
	for _, c := range []struct {
		mode string
		skip []bool
	}{{"real", []bool{false, true}}, {"timed", []bool{false, true}}, {"model", []bool{false, false}}} {
		s := scenario.Default()
		for _, kv := range []string{"kernels.mode=" + c.mode, "hpl.n=[10,100]"} {
			if err := s.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res.HPL {
			if r.Skipped != c.skip[i] {
				t.Errorf("%s, N = %d: skipped %v, want %v", c.mode, r.N, r.Skipped, c.skip[i])
			}
		}
	}
}
