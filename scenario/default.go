package scenario

import (
	_ "embed"
)

//go:embed default.toml
var defaultScenario []byte

// DefaultTOML is the text of the embedded default scenario.
func DefaultTOML() []byte { return append([]byte(nil), defaultScenario...) }

// Default returns the embedded default scenario (a small HPL, see default.toml).
// Errors name it by its path in the repository, scenario/default.toml, so a user
// told that its line 36 asks for more ranks than a hostfile gives can open it.
func Default() *Scenario {
	s, err := Parse(defaultScenario, "scenario/default.toml")
	if err != nil {
		panic("scenario: the embedded default scenario does not parse: " + err.Error()) // a build defect
	}
	s.embedded = true
	return s
}
