package scenario

import (
	_ "embed"
	"sync"

	"github.com/emu-hpc/emu/models"
)

//go:embed default.toml
var defaultScenario []byte

// DefaultTOML is the text of the embedded default scenario.
func DefaultTOML() []byte { return append([]byte(nil), defaultScenario...) }

// Default returns the embedded default scenario (a small HPL, see default.toml),
// named "default.toml" in errors.
func Default() *Scenario {
	s, err := Parse(defaultScenario, "default.toml")
	if err != nil {
		panic("scenario: the embedded default scenario does not parse: " + err.Error()) // a build defect
	}
	s.embedded = true
	return s
}

// defaultSpecs are the embedded default's inline kernel models as it ships
// them: placeholders that a models file replaces (validate.go's kernels).
// Parsed once, not at every validation of a sweep's points; read only.
var defaultSpecs = sync.OnceValue(func() map[string]models.Spec {
	return Default().Kernels.Specs
})
