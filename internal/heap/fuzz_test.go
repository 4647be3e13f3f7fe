package heap

import "testing"

// FuzzOps reads its input as a program of heap operations, two bytes
// each (an opcode and an argument), on a heap of each kind, and checks
// the heap against the model after every one.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 3, 0, 1, 0, 3, 5, 0, 8, 1, 9, 7, 6, 0})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 5, 0, 5, 0})
	f.Fuzz(func(t *testing.T, prog []byte) {
		for k := range indexed + 1 {
			x := &subject{k: k}
			for i := 0; i+1 < len(prog); i += 2 {
				x.step(t, prog[i]%10, prog[i+1])
			}
		}
	})
}
