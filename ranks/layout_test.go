package ranks

import (
	"testing"
	"unsafe"
)

// TestRequestLayout keeps a Request at 192 bytes, a size class of 64-byte
// aligned objects (three whole cache lines), with matching's fields in the
// first line (see Request).
func TestRequestLayout(t *testing.T) {
	var q Request
	if n := unsafe.Sizeof(q); n != 192 {
		t.Errorf("Request is %d bytes, want 192", n)
	}
	for name, off := range map[string]uintptr{"ctx": unsafe.Offsetof(q.ctx), "src": unsafe.Offsetof(q.src), "tag": unsafe.Offsetof(q.tag), "next": unsafe.Offsetof(q.next), "inFlow": unsafe.Offsetof(q.inFlow), "path": unsafe.Offsetof(q.path)} {
		if off >= 64 {
			t.Errorf("Request.%s at byte %d, want it in the first 64", name, off)
		}
	}
}
