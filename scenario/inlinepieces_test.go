package scenario

import (
	"strings"
	"testing"
)

// An unknown key inside an inline piece is still an unknown key.
func TestKernelInlinePieceUnknownKey(t *testing.T) {
	s := Default()
	err := s.Set(`kernels.dtrsv.piece=[{from=0,bogus=1,terms=["n"],coef=[2e-9]}]`)
	if err == nil {
		_, err = s.Validate()
	}
	if err == nil || !strings.Contains(err.Error(), "kernels.dtrsv.piece") || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("got %v, want an unknown key error naming piece and bogus", err)
	}
}
