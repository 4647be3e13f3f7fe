package scenario

import (
	"strings"
	"testing"
)

// TestApproximationsNeedEmusSolver: network.light_flow and network.local_solve
// are approximations of emu's max-min; under wake_order = "simgrid" the network
// is SimGrid's lmm, so asking for one is an error naming its key, not a switch
// silently ignored.
func TestApproximationsNeedEmusSolver(t *testing.T) {
	for _, tc := range []struct {
		sets []string
		want string // "" for valid
	}{
		{[]string{"network.local_solve=true"}, ""},
		{[]string{"network.light_flow=64KiB"}, ""},
		{[]string{"network.wake_order=simgrid"}, ""},
		{[]string{"network.wake_order=simgrid", "network.local_solve=true"}, `network.local_solve: true: an approximation of emu's max-min, which wake order "simgrid" does not use`},
		{[]string{"network.wake_order=simgrid", "network.light_flow=64KiB"}, `network.light_flow: 65536: an approximation of emu's max-min, which wake order "simgrid" does not use`},
	} {
		s, err := Load("testdata/hpl.toml")
		if err != nil {
			t.Fatal(err)
		}
		mustSet(t, s, tc.sets)
		_, err = s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.sets, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: err = %v, want %q", tc.sets, err, tc.want)
		}
	}
}
