package fluid

// MaxLocalRounds and SetMaxLocalRounds let the tests take local re-solves'
// fallback to the whole component (local.go).
func MaxLocalRounds() int { return maxLocalRounds }

func SetMaxLocalRounds(n int) (restore func()) {
	old := maxLocalRounds
	maxLocalRounds = n
	return func() { maxLocalRounds = old }
}

// IsLight reports whether flow id is a light flow (light.go).
func IsLight(s *System, id FlowID) bool { return s.mm().light.is(s.flows.get(id).slot) }
