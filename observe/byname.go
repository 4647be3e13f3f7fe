package observe

import "unsafe"

// byName holds one entry per name (an MPI call, a kernel) and finds a
// name's entry first by where the name's bytes are: ranks and kernels name
// their calls with constants, so a name comes with the same pointer every
// time, and a hit is two compares where a map hashed and compared the
// string at each of a run's millions of calls (--json cost Dahu
// N = 10,000 15% more instructions than a run without it:
// docs/evidence/callsjson.md). A miss (a name built at run time, or a slot
// another name holds) falls back to the map.
type byName[T any] struct {
	entries map[string]*T
	slots   [16]struct {
		data *byte
		size int
		t    *T
	}
}

// get returns name's entry, made by fresh on its first use.
func (b *byName[T]) get(name string, fresh func(string) *T) *T {
	data := unsafe.StringData(name)
	slot := &b.slots[uintptr(unsafe.Pointer(data))>>3%uintptr(len(b.slots))]
	if slot.data == data && slot.size == len(name) && slot.t != nil {
		return slot.t
	}
	t := b.entries[name]
	if t == nil {
		if b.entries == nil {
			b.entries = map[string]*T{}
		}
		t = fresh(name)
		b.entries[name] = t
	}
	slot.data, slot.size, slot.t = data, len(name), t
	return t
}
