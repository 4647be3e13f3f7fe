package traceformat

// labelTable maps a rank block's labels to op indices. Schedgen's labels
// are l1, l2, … so "l<k>" (no leading zero) is looked up in a slice;
// other labels go to a map. Both are reset at every rank block.
type labelTable struct {
	num   []int32 // num[k] = op+1 of label "l<k>", 0 if undefined
	used  []int32 // ks set in num, to reset them cheaply
	other map[string]int32
}

func (t *labelTable) reset() {
	for _, k := range t.used {
		t.num[k] = 0
	}
	t.used = t.used[:0]
	clear(t.other)
}

// lNumber returns k for a label "l<k>" with 1 ≤ k < 2²⁴, else -1.
func lNumber(label []byte) int {
	if len(label) < 2 || len(label) > 9 || label[0] != 'l' || label[1] == '0' {
		return -1
	}
	k := 0
	for _, c := range label[1:] {
		if !isDigit(c) {
			return -1
		}
		k = k*10 + int(c-'0')
	}
	if k >= 1<<24 {
		return -1
	}
	return k
}

// define binds label, whose lNumber is k, to op; if it is already bound it
// returns the first op.
func (t *labelTable) define(label []byte, k int, op int32) (int32, bool) {
	if k >= 0 {
		if k >= len(t.num) {
			t.num = append(t.num, make([]int32, k+1-len(t.num)+len(t.num)/2)...)
		}
		if prev := t.num[k]; prev != 0 {
			return prev - 1, true
		}
		t.num[k] = op + 1
		t.used = append(t.used, int32(k))
		return 0, false
	}
	if t.other == nil {
		t.other = make(map[string]int32)
	}
	if prev, ok := t.other[string(label)]; ok {
		return prev, true
	}
	t.other[string(label)] = op
	return 0, false
}

func (t *labelTable) lookup(label []byte) (int32, bool) {
	if k := lNumber(label); k >= 0 {
		return t.lookupNum(k)
	}
	op, ok := t.other[string(label)]
	return op, ok
}

// lookupNum looks up the label "l<k>" (k as lNumber returns it).
func (t *labelTable) lookupNum(k int) (int32, bool) {
	if k < len(t.num) && t.num[k] != 0 {
		return t.num[k] - 1, true
	}
	return 0, false
}

// lDigits reads a label "l<k>" off the start of b as lNumber accepts it
// and returns k and the rest of b; k is -1 (and rest b) if b does not
// start with such a label followed by a character that cannot continue
// an identifier.
func lDigits(b []byte) (int, []byte) {
	if len(b) < 2 || b[0] != 'l' || b[1] < '1' || b[1] > '9' {
		return -1, b
	}
	k, i := 0, 1
	for ; i < len(b) && isDigit(b[i]); i++ {
		if i > 8 {
			return -1, b // more digits than lNumber takes
		}
		k = k*10 + int(b[i]-'0')
	}
	if k >= 1<<24 || i < len(b) && isIdent(b[i]) {
		return -1, b
	}
	return k, b[i:]
}
