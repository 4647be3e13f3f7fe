package heap

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

type (
	e8   = Entry[uint8, uint8]
	heap = Heap[uint8, uint8]
)

// check verifies the heap property, and in an indexed heap that Pos
// names every entry's index.
func check(t *testing.T, h *heap) {
	t.Helper()
	s, d := h.Entries(), 1<<h.shift()
	for i := 1; i < len(s); i++ {
		if p := (i - 1) / d; s[i].less(&s[p]) {
			t.Fatalf("entry %d %v is less than its parent %d %v", i, s[i], p, s[p])
		}
	}
	if !h.indexed {
		return
	}
	seen := 0
	for id := range h.pos {
		if i := h.Pos(int32(id)); i >= 0 {
			seen++
			if i >= len(s) || s[i].ID != int32(id) {
				t.Fatalf("Pos(%d) = %d, entries %v", id, i, s)
			}
		}
	}
	if seen != len(s) {
		t.Fatalf("index names %d entries, heap holds %d", seen, len(s))
	}
}

// model is the reference: the entries in a plain slice, the least found
// by sorting.
type model []e8

func order(a, b e8) int {
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	return cmp.Compare(a.Tie, b.Tie)
}

// take removes the entry with got's ID, which must be one of the least.
func (m *model) take(t *testing.T, got e8) {
	t.Helper()
	least := slices.MinFunc(*m, order)
	if order(got, least) != 0 {
		t.Fatalf("popped %v, least is %v", got, least)
	}
	m.drop(t, got)
}

func (m *model) drop(t *testing.T, got e8) {
	t.Helper()
	i := slices.IndexFunc(*m, func(e e8) bool { return e.ID == got.ID })
	if i < 0 || (*m)[i] != got {
		t.Fatalf("%v is not in the model %v", got, *m)
	}
	*m = slices.Delete(*m, i, i+1)
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name string
		push []e8
		want []int32 // IDs in pop order
	}{
		{"empty", nil, nil},
		{"one", []e8{{Key: 5, ID: 0}}, []int32{0}},
		{"keys", []e8{{Key: 3, ID: 0}, {Key: 1, ID: 1}, {Key: 2, ID: 2}}, []int32{1, 2, 0}},
		{"tie decides", []e8{{Key: 1, Tie: 2, ID: 0}, {Key: 1, Tie: 1, ID: 1}, {Key: 0, Tie: 9, ID: 2}}, []int32{2, 1, 0}},
		// Equal in key and tie: the order a binary heap leaves them in,
		// here the pushes' order (no push moves past an equal entry).
		{"full ties", []e8{{Key: 1, ID: 0}, {Key: 1, ID: 1}, {Key: 1, ID: 2}}, []int32{0, 2, 1}},
	} {
		for _, o := range []Options{{}, {Arity: 4}, {Indexed: true}} {
			h := New[uint8, uint8](o)
			for _, e := range c.push {
				h.Push(e)
				check(t, &h)
			}
			var got []int32
			for h.Len() > 0 {
				got = append(got, h.Pop().ID)
				check(t, &h)
			}
			if o.Arity == 4 && c.name == "full ties" {
				continue // a 4-ary heap leaves them otherwise
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s %+v: popped %v, want %v", c.name, o, got, c.want)
			}
		}
	}
}

// TestRandom drives heaps of every shape through random pushes, pops,
// removals, key changes and resets, against the model. Keys and ties are
// drawn from few values so that ties of both kinds are common.
func TestRandom(t *testing.T) {
	for _, o := range []Options{{}, {Arity: 4}, {Indexed: true}, {Arity: 4, Indexed: true}} {
		rng := rand.New(rand.NewPCG(1, uint64(o.Arity)))
		for round := range 200 {
			h := New[uint8, uint8](o)
			var m model
			free := []int32{} // IDs not in the heap, reused to keep them dense
			next := int32(0)
			for range 1 + rng.IntN(300) {
				switch op := rng.IntN(10); {
				case op < 5 || h.Len() == 0:
					id := next
					if len(free) > 0 {
						id, free = free[len(free)-1], free[:len(free)-1]
					} else {
						next++
					}
					e := e8{Key: uint8(rng.IntN(8)), Tie: uint8(rng.IntN(3)), ID: id}
					h.Push(e)
					m = append(m, e)
				case op < 7:
					e := h.Pop()
					m.take(t, e)
					free = append(free, e.ID)
				case op < 8:
					e := h.Remove(rng.IntN(h.Len()))
					m.drop(t, e)
					free = append(free, e.ID)
				case op < 9:
					i := rng.IntN(h.Len())
					e := h.Entries()[i]
					m.drop(t, e)
					e.Key, e.Tie = uint8(rng.IntN(8)), uint8(rng.IntN(3))
					h.Fix(i, e.Key, e.Tie)
					m = append(m, e)
				default:
					all := slices.Clone(h.Entries())
					rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
					k := rng.IntN(len(all) + 1)
					for _, e := range all[k:] {
						m.drop(t, e)
						free = append(free, e.ID)
					}
					h.Reset(append(h.Entries()[:0], all[:k]...))
				}
				check(t, &h)
				if h.Len() != len(m) {
					t.Fatalf("%+v round %d: %d entries, model %d", o, round, h.Len(), len(m))
				}
				if o.Indexed {
					for _, e := range m {
						if h.Entries()[h.Pos(e.ID)] != e {
							t.Fatalf("%+v round %d: Pos(%d) names %v", o, round, e.ID, h.Entries()[h.Pos(e.ID)])
						}
					}
				}
			}
			for h.Len() > 0 {
				m.take(t, h.Pop())
			}
		}
	}
}

// textbook is the binary heap every queue of emu was before this package
// (ranks' ready queue, LogGOPSim's parked entries), comparing keys alone:
// Push sifts up while the parent is greater, Pop moves the last entry to
// the root and sifts it down to the lesser child, the left one on
// equality. Callers that reproduce another program's order rely on equal
// keys coming out as this heap lets them.
type textbook []pair

type pair struct {
	key int64
	id  int32
}

func (h *textbook) push(x pair) {
	s := append(*h, x)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].key <= x.key {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = x
	*h = s
}

func (h *textbook) pop() pair {
	s := *h
	top, n := s[0], len(s)-1
	last := s[n]
	s = s[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1].key < s[c].key {
			c++
		}
		if s[c].key >= last.key {
			break
		}
		s[i] = s[c]
		i = c
	}
	if n > 0 {
		s[i] = last
	}
	*h = s
	return top
}

// TestTextbookTies checks that an Untied binary heap leaves equal keys in
// the very order the textbook heap does; IDs tell equal keys apart.
func TestTextbookTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var h Heap[int64, Untied]
	var ref textbook
	for id := range int32(20000) {
		if h.Len() > 0 && rng.IntN(3) == 0 {
			got, want := h.Pop(), ref.pop()
			if got.Key != want.key || got.ID != want.id {
				t.Fatalf("pop %d: heap gave key %d id %d, textbook key %d id %d", id, got.Key, got.ID, want.key, want.id)
			}
			continue
		}
		k := int64(rng.IntN(5))
		h.Push(Entry[int64, Untied]{Key: k, ID: id})
		ref.push(pair{k, id})
	}
}
