package replay

import (
	"errors"
	"testing"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// TestActionTooLong: a compute (or a reduction's flops) that lasts more
// than traceformat.MaxActionSeconds at its host's speed (testSpeed, 1e9
// flop/s: the bound is 1e15 flops) is refused before the run, naming the
// trace's line; one at the bound runs, and lasts flops / speed.
func TestActionTooLong(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		line  int // the refused line; 0: runs
		want  float64
	}{
		{"compute 1e300", []string{"0 compute 1", "0 compute 1e300", "1 compute 1"}, 2, 0},
		{"compute past the bound", []string{"1 compute 1000000000000001"}, 1, 0},
		{"allreduce's flops", []string{"0 allreduce 1 2e15", "1 allreduce 1 1"}, 1, 0},
		{"compute at the bound", []string{"0 compute 1e15", "1 compute 1"}, 0, traceformat.MaxActionSeconds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := replayOn(t, cm02(), ti(t, tc.lines...), nil)
			var long *TooLongError
			var fault ranks.InputFault
			switch {
			case tc.line == 0 && err != nil:
				t.Fatal(err)
			case tc.line == 0 && res.Time != tc.want:
				t.Errorf("T = %g s, want flops / speed = %g s", res.Time, tc.want)
			case tc.line == 0:
			case !errors.As(err, &long) || long.Line != tc.line || long.File != "t.txt":
				t.Errorf("err = %v, want a TooLongError at t.txt:%d", err, tc.line)
			case !errors.As(err, &fault):
				t.Errorf("%v is not an input fault (exit 2)", err)
			}
		})
	}
}
