package heap

import "testing"

// FuzzOps reads its input as a program of heap operations, two bytes
// each (an opcode and an argument), on an indexed heap of each arity,
// and checks the heap against the model after every one.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 3, 0, 1, 0, 3, 1, 0, 2, 1, 3, 7, 1, 0})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 4, 2, 1, 0, 1, 0})
	f.Fuzz(func(t *testing.T, prog []byte) {
		for _, arity := range []int{2, 4} {
			h := New[uint8, uint8](Options{Arity: arity, Indexed: true})
			var m model
			var free []int32
			next := int32(0)
			for k := 0; k+1 < len(prog); k += 2 {
				op, arg := prog[k]%5, prog[k+1]
				if h.Len() == 0 {
					op = 0
				}
				switch op {
				case 0: // push: key in the high bits, tie in the low
					id := next
					if len(free) > 0 {
						id, free = free[len(free)-1], free[:len(free)-1]
					} else {
						next++
					}
					e := e8{Key: arg >> 2, Tie: arg & 3, ID: id}
					h.Push(e)
					m = append(m, e)
				case 1:
					e := h.Pop()
					m.take(t, e)
					free = append(free, e.ID)
				case 2:
					e := h.Remove(int(arg) % h.Len())
					m.drop(t, e)
					free = append(free, e.ID)
				case 3: // fix the entry of an ID, found through the index
					e := m[int(arg)%len(m)]
					m.drop(t, e)
					e.Key, e.Tie = arg>>2, arg&3
					h.Fix(h.Pos(e.ID), e.Key, e.Tie)
					m = append(m, e)
				case 4: // reset to the entries' first arg % (n+1)
					s := h.Entries()
					keep := int(arg) % (len(s) + 1)
					for _, e := range s[keep:] {
						m.drop(t, e)
						free = append(free, e.ID)
					}
					h.Reset(s[:keep])
				}
				check(t, &h)
				if h.Len() != len(m) {
					t.Fatalf("%d entries, model %d", h.Len(), len(m))
				}
			}
		}
	})
}
