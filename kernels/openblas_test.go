//go:build cblas

package kernels

import "testing"

// TestOpenBLASCompiledIn guards the cblas build: the shared tables of
// blas_test.go run over every backend in Backends, so they test OpenBLAS
// only if it registered.
func TestOpenBLASCompiledIn(t *testing.T) {
	k := New(Config{Mode: Real, Backend: "openblas"}, &recorder{}, nil)
	if k.Backend() != "openblas" {
		t.Fatalf("backend %q, want openblas", k.Backend())
	}
}
