package platform

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/fluid"
)

// ParseProfile reads a SimGrid 3.32 availability profile (ProfileBuilder's
// legacy format): one event a line, "DATE VALUE", dates absolute in
// seconds and non-decreasing; "LOOPAFTER D" repeats the events D seconds
// after the last one, "PERIODICITY P" every P seconds (P no less than the
// last date); empty lines and lines starting with # or % are comments.
// periodicity is a <trace>'s attribute (≤ 0: none; a file's is −1).
// SimGrid's stochastic profiles (STOCHASTIC, DET, NORM, UNIF, EXP) are
// refused. Errors name file and line: where is the file, and line the
// line number of text's first line in it (a <trace>'s text sits inside
// the platform file).
func ParseProfile(text string, periodicity float64, where string, line int) (fluid.Profile, error) {
	p := fluid.Profile{Repeat: -1}
	loop, loopDelay, last := periodicity > 0, 0.0, 0.0
	sawLoopAfter := false
	loopLine := line // where the loop was asked for: the last directive, or the <trace> with its periodicity
	bad := func(n int, format string, args ...any) (fluid.Profile, error) {
		return fluid.Profile{}, fmt.Errorf("%s:%d: %s", where, n, fmt.Sprintf(format, args...))
	}
	text = strings.TrimPrefix(text, "\ufeff") // an editor's byte order mark
	for i, raw := range strings.Split(text, "\n") {
		n := line + i
		s := strings.TrimSpace(raw)
		if s == "" || s[0] == '#' || s[0] == '%' {
			continue
		}
		f := strings.Fields(s)
		switch f[0] {
		case "PERIODICITY", "LOOPAFTER":
			if len(f) != 2 {
				return bad(n, "%q: want %s and one number", s, f[0])
			}
			v, err := profileNumber(f[1])
			if err != nil || v < 0 {
				return bad(n, "%s %q: want a number of seconds ≥ 0", f[0], f[1])
			}
			loop, loopLine = true, n
			if f[0] == "PERIODICITY" {
				periodicity = v
			} else {
				loopDelay, sawLoopAfter = v, true
			}
			continue
		case "STOCHASTIC", "DET", "NORM", "NORMAL", "GAUSS", "GAUSSIAN", "UNIF", "UNIFORM", "EXP", "EXPONENTIAL":
			return bad(n, "%q: stochastic profiles are not supported (emu reads DATE VALUE lines, LOOPAFTER and PERIODICITY)", s)
		}
		if len(f) != 2 {
			return bad(n, "%q: want DATE VALUE (two numbers), LOOPAFTER or PERIODICITY", s)
		}
		date, err := profileNumber(f[0])
		if err != nil || date < 0 {
			return bad(n, "date %q: want a number of seconds ≥ 0", f[0])
		}
		value, err := profileNumber(f[1])
		if err != nil || value < 0 {
			return bad(n, "value %q: want a number ≥ 0", f[1])
		}
		if date < last {
			return bad(n, "date %s comes before the previous one, %g: events must be sorted", f[0], last)
		}
		p.Steps = append(p.Steps, fluid.ProfileStep{Delta: date - last, Value: value})
		last = date
	}
	if periodicity > 0 {
		if sawLoopAfter {
			return bad(loopLine, "both PERIODICITY and LOOPAFTER: give one")
		}
		loopDelay = periodicity - last
	}
	if loopDelay < 0 {
		return bad(loopLine, "periodicity %g is shorter than the last date, %g", periodicity, last)
	}
	if loop {
		p.Repeat = loopDelay
		if len(p.Steps) > 0 && loopDelay == 0 && last == 0 {
			return bad(loopLine, "the profile loops without time passing (all its dates 0 and no delay)")
		}
	}
	return p, nil
}

// profileNumber parses a finite float.
func profileNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil && (math.IsInf(v, 0) || math.IsNaN(v)) {
		err = fmt.Errorf("not finite")
	}
	return v, err
}
