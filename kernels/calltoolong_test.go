package kernels

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
)

// TestCallTooLongErrorNamesBoth: the error names the model's place, the
// call's sizes and both suspects, the coefficients' unit and the problem's
// size (an HPL.dat's N of 8·10⁸ read as a question about the model alone).
func TestCallTooLongErrorNamesBoth(t *testing.T) {
	for _, c := range []struct {
		e    CallTooLongError
		want string
	}{
		{CallTooLongError{Kernel: "dgemm", Where: "scenario/default.toml:23", Vars: models.Vars{M: 4e8, N: 2e8, K: 64}, Seconds: 5.3e7},
			"scenario/default.toml:23: kernels.dgemm: one call (m = 4e+08, n = 2e+08, k = 64) costs 5.3e+07 s by this model, over emu's bound of 1e+06 s (11.6 days) a call: are its coefficients in seconds, and the problem (its m, n, k) the size meant?"},
		{CallTooLongError{Kernel: "dtrsm", Vars: models.Vars{M: 64, N: 1e9}, Seconds: 2e6},
			"kernels.dtrsm: one call (m = 64, n = 1e+09) costs 2e+06 s by this model, over emu's bound of 1e+06 s (11.6 days) a call: are its coefficients in seconds, and the problem (its m, n, k) the size meant?"},
	} {
		if got := c.e.Error(); got != c.want || strings.Contains(got, "\n") {
			t.Errorf("%+v:\n got %q\nwant %q", c.e, got, c.want)
		}
	}
}
