package fluid

import (
	"reflect"
	"testing"
)

// TestProfileScaled: Scaled multiplies the values a profile applies and
// leaves its dates, its loop and the negative values SimGrid skips.
func TestProfileScaled(t *testing.T) {
	p := Profile{Steps: []ProfileStep{{Delta: 0, Value: 2}, {Delta: 1.5, Value: -1}, {Delta: 2, Value: 0}, {Delta: 0.5, Value: 8}}, Repeat: 3}
	got := p.Scaled(1.5)
	want := Profile{Steps: []ProfileStep{{Delta: 0, Value: 3}, {Delta: 1.5, Value: -1}, {Delta: 2, Value: 0}, {Delta: 0.5, Value: 12}}, Repeat: 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Scaled(1.5) = %+v, want %+v", got, want)
	}
	if p.Steps[0].Value != 2 {
		t.Error("Scaled changed the profile it was called on")
	}
}
