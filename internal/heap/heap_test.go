package heap

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

type e8 = Entry[uint8, int32]

// kind names a heap type under test.
type kind int

const (
	binary kind = iota
	fourAry
	indexed
)

func (k kind) String() string { return [...]string{"binary", "4-ary", "indexed"}[k] }

// subject is one heap of any kind, with the model it must agree with.
type subject struct {
	k    kind
	h2   Heap[uint8, int32]
	h4   Heap4[uint8, int32]
	hi   Indexed[uint8, int32]
	m    []e8    // the model: the entries in a plain slice
	free []int32 // IDs not in the heap, reused to keep them dense
	next int32
}

func (x *subject) entries() []e8 {
	switch x.k {
	case binary:
		return x.h2.Entries()
	case fourAry:
		return x.h4.Entries()
	}
	return x.hi.Entries()
}

func (x *subject) push(key uint8) {
	id := x.next
	if n := len(x.free); n > 0 {
		id, x.free = x.free[n-1], x.free[:n-1]
	} else {
		x.next++
	}
	e := e8{Key: key, ID: id}
	switch x.k {
	case binary:
		x.h2.Push(e)
	case fourAry:
		x.h4.Push(e)
	default:
		x.hi.Push(e)
	}
	x.m = append(x.m, e)
}

func (x *subject) pop(t *testing.T) {
	var got e8
	switch x.k {
	case binary:
		got = x.h2.Pop()
	case fourAry:
		got = x.h4.Pop()
	default:
		got = x.hi.Pop()
	}
	// (Key, ID) is a total order: the least entry is one entry.
	if least := slices.MinFunc(x.m, order); got != least {
		t.Fatalf("%v: popped %v, least is %v", x.k, got, least)
	}
	x.drop(t, got)
	x.free = append(x.free, got.ID)
}

// change runs the kind's own operation on the entry at i: an indexed
// heap deletes it (odd arg) or fixes it to key; a 4-ary heap raises its
// top's key by key; a binary heap is reset to its entries but the one at i.
func (x *subject) change(t *testing.T, i int, key uint8, odd bool) {
	e := x.entries()[i]
	switch x.k {
	case indexed:
		x.drop(t, e)
		if odd {
			x.hi.Delete(e.ID)
			x.free = append(x.free, e.ID)
			return
		}
		e.Key = key
		x.hi.Fix(e)
		x.m = append(x.m, e)
	case fourAry:
		top := x.h4.Top()
		x.drop(t, top)
		top.Key = min(top.Key+key, 255)
		x.h4.FixTop(top.Key)
		x.m = append(x.m, top)
	default:
		x.drop(t, e)
		x.free = append(x.free, e.ID)
		s := x.h2.Entries()
		s[i] = s[len(s)-1]
		x.h2.Reset(s[:len(s)-1])
	}
}

func (x *subject) drop(t *testing.T, e e8) {
	t.Helper()
	i := slices.Index(x.m, e)
	if i < 0 {
		t.Fatalf("%v: %v is not in the model %v", x.k, e, x.m)
	}
	x.m = slices.Delete(x.m, i, i+1)
}

func order(a, b e8) int {
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// check verifies the heap property, the model's entries, and in an
// indexed heap that Pos names every entry's index.
func (x *subject) check(t *testing.T) {
	t.Helper()
	s, d := x.entries(), 2
	if x.k == fourAry {
		d = 4
	}
	for i := 1; i < len(s); i++ {
		if p := (i - 1) / d; s[i].less(&s[p]) {
			t.Fatalf("%v: entry %d %v is less than its parent %d %v", x.k, i, s[i], p, s[p])
		}
	}
	if !slices.Equal(slices.SortedFunc(slices.Values(s), order), slices.SortedFunc(slices.Values(x.m), order)) {
		t.Fatalf("%v: entries %v, model %v", x.k, s, x.m)
	}
	if x.k != indexed {
		return
	}
	for i, e := range s {
		if x.hi.Pos(e.ID) != i {
			t.Fatalf("Pos(%d) = %d, want %d", e.ID, x.hi.Pos(e.ID), i)
		}
	}
	for _, id := range x.free {
		if x.hi.Pos(id) != -1 {
			t.Fatalf("Pos(%d) = %d for an ID not in the heap", id, x.hi.Pos(id))
		}
	}
}

// step runs one operation chosen by op (0–9) with argument arg.
func (x *subject) step(t *testing.T, op, arg uint8) {
	switch n := len(x.m); {
	case op < 5 || n == 0:
		x.push(arg % 8)
	case op < 8:
		x.pop(t)
	default:
		x.change(t, int(arg)%n, arg%8, arg&1 == 1)
	}
	x.check(t)
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []uint8 // pushed with IDs 0, 1, …
		want []int32 // IDs in pop order
	}{
		{"empty", nil, nil},
		{"one", []uint8{5}, []int32{0}},
		{"keys", []uint8{3, 1, 2}, []int32{1, 2, 0}},
		{"ID breaks ties", []uint8{1, 1, 0, 1}, []int32{2, 0, 1, 3}},
	} {
		for k := range indexed + 1 {
			x := &subject{k: k}
			for _, key := range c.keys {
				x.push(key)
				x.check(t)
			}
			var got []int32
			for len(x.m) > 0 {
				got = append(got, slices.MinFunc(x.m, order).ID)
				x.pop(t)
				x.check(t)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s %v: popped %v, want %v", c.name, k, got, c.want)
			}
		}
	}
}

// TestRandom drives heaps of every kind through random operations
// against the model. Keys are drawn from few values so that ties are
// common.
func TestRandom(t *testing.T) {
	for k := range indexed + 1 {
		rng := rand.New(rand.NewPCG(1, uint64(k)))
		for range 200 {
			x := &subject{k: k}
			for range 1 + rng.IntN(300) {
				x.step(t, uint8(rng.IntN(10)), uint8(rng.IntN(256)))
			}
			for len(x.m) > 0 {
				x.pop(t)
			}
		}
	}
}

// TestResetOrders checks that Reset orders any slice, sharing or not the
// heap's array, and that Reset(Entries()[:0]) empties the heap.
func TestResetOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for n := range 40 {
		s := make([]e8, n)
		for i := range s {
			s[i] = e8{Key: uint8(rng.IntN(8)), ID: int32(i)}
		}
		want := slices.SortedFunc(slices.Values(s), order)
		var h2 Heap[uint8, int32]
		var h4 Heap4[uint8, int32]
		h2.Reset(slices.Clone(s))
		h4.Reset(slices.Clone(s))
		var got2, got4 []e8
		for h2.Len() > 0 {
			got2, got4 = append(got2, h2.Pop()), append(got4, h4.Pop())
		}
		if !slices.Equal(got2, want) || !slices.Equal(got4, want) {
			t.Fatalf("n=%d: popped %v and %v, want %v", n, got2, got4, want)
		}
		h2.Reset(h2.Entries()[:0])
		if h2.Len() != 0 {
			t.Fatalf("n=%d: %d entries after Reset to none", n, h2.Len())
		}
	}
}

// TestHighBits checks that an indexed heap names entries by the low 32
// bits of their ID and orders them by the whole ID, as fluid's flow heap
// needs (a tie above, a slot below).
func TestHighBits(t *testing.T) {
	var h Indexed[float64, uint64]
	for slot, tie := range []uint64{7, 3, 5} {
		h.Push(Entry[float64, uint64]{Key: 1, ID: tie<<32 | uint64(slot)})
	}
	if h.Pos(1) != 0 {
		t.Fatalf("slot 1 (least tie) at %d, want 0", h.Pos(1))
	}
	h.Fix(Entry[float64, uint64]{Key: 1, ID: 9<<32 | 1})
	h.Delete(2)
	var got []uint64
	for h.Len() > 0 {
		got = append(got, h.Pop().ID&(1<<32-1))
	}
	if !slices.Equal(got, []uint64{0, 1}) {
		t.Fatalf("slots in pop order %v, want [0 1]", got)
	}
}

// TestAllocs checks that a heap in steady state allocates nothing.
func TestAllocs(t *testing.T) {
	var h Heap[int64, int32]
	var hi Indexed[int64, int32]
	for i := range int32(100) {
		h.Push(Entry[int64, int32]{Key: int64(i), ID: i})
		hi.Push(Entry[int64, int32]{Key: int64(i), ID: i})
	}
	if n := testing.AllocsPerRun(100, func() {
		e := h.Pop()
		e.Key += 100
		h.Push(e)
		e = hi.Pop()
		e.Key += 100
		hi.Push(e)
	}); n != 0 {
		t.Fatalf("%v allocations per pop and push", n)
	}
}
