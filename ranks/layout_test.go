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

// TestRankLayout keeps a Rank at 256 bytes (64-byte aligned) with what a
// message's matching, a block and a resumption touch in its first two lines
// and what a task's step reads in the third (see Rank).
func TestRankLayout(t *testing.T) {
	var r Rank
	if n := unsafe.Sizeof(r); n != 256 {
		t.Errorf("Rank is %d bytes, want 256", n)
	}
	for name, off := range map[string]uintptr{"state": unsafe.Offsetof(r.state), "gid": unsafe.Offsetof(r.gid), "owed": unsafe.Offsetof(r.owed), "yield": unsafe.Offsetof(r.yield), "resume": unsafe.Offsetof(r.resume), "paths": unsafe.Offsetof(r.paths), "probe": unsafe.Offsetof(r.probe)} {
		if off >= 64 {
			t.Errorf("Rank.%s at byte %d, want it in the first 64", name, off)
		}
	}
	for name, off := range map[string]uintptr{"mbox": unsafe.Offsetof(r.mbox), "blk": unsafe.Offsetof(r.blk)} {
		if off < 64 || off+32 > 128 {
			t.Errorf("Rank.%s at byte %d, want it in the second 64", name, off)
		}
	}
	for name, f := range map[string][2]uintptr{
		"task":   {unsafe.Offsetof(r.task), unsafe.Sizeof(r.task)},
		"waitOn": {unsafe.Offsetof(r.waitOn), unsafe.Sizeof(r.waitOn)},
		"due":    {unsafe.Offsetof(r.due), unsafe.Sizeof(r.due)},
	} {
		if off, size := f[0], f[1]; off < 128 || off+size > 192 {
			t.Errorf("Rank.%s at bytes %d to %d, want it in the third 64", name, off, off+size)
		}
	}
}

// TestPathLayout keeps a path at 128 bytes (64-byte aligned) with what a
// flow's start reads in its first line and what the hooks' events read in
// its second (see path).
func TestPathLayout(t *testing.T) {
	var p path
	if n := unsafe.Sizeof(p); n != 128 {
		t.Errorf("path is %d bytes, want 128", n)
	}
	for name, end := range map[string]uintptr{"links": unsafe.Offsetof(p.links) + unsafe.Sizeof(p.links), "loads": unsafe.Offsetof(p.loads) + 8,
		"bound": unsafe.Offsetof(p.bound) + 8, "penalty": unsafe.Offsetof(p.penalty) + 8, "delay": unsafe.Offsetof(p.delay) + 1} {
		if end > 64 {
			t.Errorf("path.%s ends at byte %d, want it in the first 64", name, end)
		}
	}
	if off := unsafe.Offsetof(p.hops); off < unsafe.Offsetof(p.classes) || off+8 > 128 || unsafe.Offsetof(p.classes) < 64 {
		t.Errorf("path.classes and hops at bytes %d and %d, want them in the second 64", unsafe.Offsetof(p.classes), off)
	}
}

// TestRankTasksLayout keeps a rank's task storage a whole number of cache
// lines, the exchanges first and the fields of a probe's steps in one line
// (see rankTasks).
func TestRankTasksLayout(t *testing.T) {
	var x rankTasks
	if n := unsafe.Sizeof(x); n%64 != 0 || n > 448 {
		t.Errorf("rankTasks is %d bytes, want a multiple of 64 up to 448", n)
	}
	if off := unsafe.Offsetof(x.x); off != 0 {
		t.Errorf("the exchanges at byte %d, want 0", off)
	}
	p := unsafe.Offsetof(x.p)
	if end := p + unsafe.Offsetof(x.p.once) + 1; p%64 != 0 || end-p > 64 {
		t.Errorf("probing at byte %d, its hot fields ending at %d: want them in one line", p, end)
	}
	// The exchanges: every step's fields in the first line, a post's, a
	// wait's and an overhead's in the second.
	e := &x.x
	for line, fields := range [][]uintptr{
		{unsafe.Offsetof(e.r), unsafe.Offsetof(e.c), unsafe.Offsetof(e.ex) + 8, unsafe.Offsetof(e.k), unsafe.Offsetof(e.n), unsafe.Offsetof(e.dst), unsafe.Offsetof(e.src), unsafe.Offsetof(e.skips)},
		{unsafe.Offsetof(e.tag), unsafe.Offsetof(e.send), unsafe.Offsetof(e.recv), unsafe.Offsetof(e.bytes), unsafe.Offsetof(e.data) + unsafe.Sizeof(e.data) - 1, unsafe.Offsetof(e.d)},
	} {
		for i, off := range fields {
			if int(off/64) != line {
				t.Errorf("exchanges: field %d of line %d at byte %d", i, line, off)
			}
		}
	}
}
