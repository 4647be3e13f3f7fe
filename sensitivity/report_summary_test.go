package sensitivity

import (
	"fmt"
	"strings"
	"testing"
)

func TestLongBreakpointListIsSummarised(t *testing.T) {
	// 20 critical latencies, λ_L growing by 1 at each but by 50 at the 13th:
	// the table says how many, shows the first four and puts the big jump
	// among the largest ones.
	var bps []Breakpoint
	lam := int64(100)
	for i := range 20 {
		step := int64(1)
		if i == 12 {
			step = 50
		}
		bps = append(bps, Breakpoint{L: float64(i+1) * 1e-6, LambdaLeft: lam, LambdaRight: lam + step})
		lam += step
	}
	var b strings.Builder
	writeBreakpoints(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, bps)
	out := b.String()
	for _, want := range []string{" 20 (all of them in --json)", "1.000000 µs (λ_L 100→101)", "largest jumps:", "13.000000 µs (λ_L 112→162)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "(λ_L"); n != shownBreakpoints {
		t.Errorf("%d critical latencies shown, want %d:\n%s", n, shownBreakpoints, out)
	}
	// A short list is shown whole.
	b.Reset()
	writeBreakpoints(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, bps[:3])
	if n := strings.Count(b.String(), "(λ_L"); n != 3 || strings.Contains(b.String(), "largest") {
		t.Errorf("3 critical latencies printed as %q", b.String())
	}
}
