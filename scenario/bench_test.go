package scenario

import (
	"testing"
)

// BenchmarkValidate is the cost of loading and checking a scenario (parse, --set,
// topology build) for the Stampede-sized fat tree of examples/.
func BenchmarkValidate(b *testing.B) {
	data := readFile(b, "../examples/stampede.toml")
	for b.Loop() {
		s, err := Parse(data, "stampede.toml")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
