package loggops

// keyTable maps live (rank, source, tag) keys to list numbers: open
// addressing with linear probing and backward-shift deletion (no
// tombstones), so that it stays as small as the set of live keys.
type keyTable struct {
	keys []mqKey
	vals []int32 // -1 marks an empty slot
	n    int
	mask uint64
}

const keyTableMinSize = 64

func (t *keyTable) init() { t.resize(keyTableMinSize) }

func (t *keyTable) resize(size int) {
	oldK, oldV := t.keys, t.vals
	t.keys = make([]mqKey, size)
	t.vals = fill(make([]int32, size), -1)
	t.mask = uint64(size - 1)
	t.n = 0
	for i, v := range oldV {
		if v >= 0 {
			t.put(oldK[i], v)
		}
	}
}

// slot hashes a key (a multiplicative mix of its three fields).
func (t *keyTable) slot(k mqKey) uint64 {
	h := uint64(uint32(k.rank))*0x9E3779B97F4A7C15 ^ uint64(uint32(k.src))*0xC2B2AE3D27D4EB4F ^ uint64(uint32(k.tag))*0x165667B19E3779F9
	h ^= h >> 29
	return h & t.mask
}

func (t *keyTable) get(k mqKey) int32 {
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		v := t.vals[i]
		if v < 0 {
			return -1
		}
		if t.keys[i] == k {
			return v
		}
	}
}

// put inserts a key that is not in the table.
func (t *keyTable) put(k mqKey, v int32) {
	if 2*(t.n+1) > len(t.vals) {
		t.resize(2 * len(t.vals))
	}
	i := t.slot(k)
	for t.vals[i] >= 0 {
		i = (i + 1) & t.mask
	}
	t.keys[i], t.vals[i] = k, v
	t.n++
}

// del removes a key that is in the table, shifting later entries of its
// probe run back so that lookups never stop early.
func (t *keyTable) del(k mqKey) {
	i := t.slot(k)
	for t.keys[i] != k || t.vals[i] < 0 {
		i = (i + 1) & t.mask
	}
	t.n--
	for {
		t.vals[i] = -1
		j := i
		for {
			j = (j + 1) & t.mask
			if t.vals[j] < 0 {
				return
			}
			// The entry at j may move to i if its home slot is not in (i, j].
			home := t.slot(t.keys[j])
			if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
				t.keys[i], t.vals[i] = t.keys[j], t.vals[j]
				i = j
				break
			}
		}
	}
}
