package emu

import (
	"fmt"
	"testing"
)

// recorder is a Handler that notes its name and the time it fired.
type recorder struct {
	name string
	e    *Engine
	got  *[]string
}

func (r recorder) Handle() { *r.got = append(*r.got, fmt.Sprintf("%s@%g", r.name, r.e.Now())) }

// TestRevokedTimers: a revoked timer does not fire and the clock never
// stops at its date, whether it is queued in a lane (AfterHandler, one
// delay), in the heap (AtHandler) or first of all; the others fire in
// (time, insertion) order, and Pending does not count it. The expected
// orders are worked by hand from the dates.
func TestRevokedTimers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		timers []string // name: "a2" AfterHandler(2); "A2" AtHandler(2)
		revoke []int    // indexes into timers, revoked before any fires
		want   string
		steps  int // Step calls that return true
	}{
		{"none", []string{"a2", "b1", "A3"}, nil, "[b@1 a@2 A@3]", 3},
		{"first, lane", []string{"a1", "b2", "c3"}, []int{0}, "[b@2 c@3]", 2},
		{"first, heap", []string{"A1", "b2"}, []int{0}, "[b@2]", 1},
		{"middle", []string{"a1", "A2", "c3"}, []int{1}, "[a@1 c@3]", 2},
		{"two at one date", []string{"a1", "b1", "c1"}, []int{0, 1}, "[c@1]", 1},
		{"all", []string{"a1", "A2"}, []int{0, 1}, "[]", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEngine(nil)
			var got []string
			var vs []*Revocable
			for _, s := range tc.timers {
				var d float64
				fmt.Sscan(s[1:], &d)
				v := &Revocable{H: recorder{name: s[:1], e: e, got: &got}}
				vs = append(vs, v)
				if s[0] >= 'a' {
					e.AfterHandler(d, v)
				} else {
					e.AtHandler(d, v)
				}
			}
			for _, i := range tc.revoke {
				e.Revoke(vs[i])
				e.Revoke(vs[i]) // twice: once
			}
			if p, want := e.Pending(), len(tc.timers)-len(tc.revoke); p != want {
				t.Errorf("Pending() = %d, want %d", p, want)
			}
			steps := 0
			for e.Step() {
				steps++
			}
			if fmt.Sprint(got) != tc.want || steps != tc.steps {
				t.Errorf("fired %v in %d steps, want %s in %d", got, steps, tc.want, tc.steps)
			}
			if _, ok := e.Next(); ok || e.Pending() != 0 {
				t.Errorf("after the run: Next ok %v, Pending %d; want nothing left", ok, e.Pending())
			}
		})
	}
}

// TestRevokeMovesNoClock: a timer moved to a later date (revoked, queued
// again) leaves the clock at the next real event, and one moved earlier
// fires there.
func TestRevokeMovesNoClock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		moveTo float64
		want   string
	}{
		{"later", 1.5, "[x@1.5 b@2]"},
		{"earlier", 0.5, "[x@0.5 b@2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEngine(nil)
			var got []string
			v := &Revocable{H: recorder{name: "x", e: e, got: &got}}
			e.AfterHandler(1, v)
			e.AfterHandler(2, recorder{name: "b", e: e, got: &got})
			if next, _ := e.Next(); next != 1 {
				t.Fatalf("Next() = %g before the move, want 1", next)
			}
			e.Revoke(v)
			e.AtHandler(tc.moveTo, &Revocable{H: v.H})
			if next, _ := e.Next(); next != tc.moveTo {
				t.Errorf("Next() = %g after the move, want %g", next, tc.moveTo)
			}
			for e.Step() {
			}
			if fmt.Sprint(got) != tc.want {
				t.Errorf("fired %v, want %s", got, tc.want)
			}
		})
	}
}
