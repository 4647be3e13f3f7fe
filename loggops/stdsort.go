package loggops

import "github.com/emu-hpc/emu/traceformat"

// LogGOPSim sorts each batch of newly ready ops by type with std::sort,
// which is not stable: past 16 elements libstdc++'s introsort reorders
// equal types, and that order decides which receive is posted first and
// which send takes the NIC first. To replay LogGOPSim exactly we sort the
// same way. This is our own rendering of the algorithm libstdc++ documents
// (introsort with median-of-three pivot and unguarded partition, heapsort
// past 2·⌊log₂ n⌋ levels, then insertion sort over 16-element runs), checked
// against g++'s std::sort in stdsort_test.go.

// stdSortThreshold is libstdc++'s _S_threshold.
const stdSortThreshold = 16

// stdSortByKind sorts ops by kind the way libstdc++'s std::sort does with
// the comparator kind(x) < kind(y).
func stdSortByKind(ops []int32, recs []traceformat.OpRec) {
	if len(ops) < 2 {
		return
	}
	less := func(a, b int32) bool { return recs[a].Kind < recs[b].Kind }
	introsortLoop(ops, 0, len(ops), 2*floorLog2(len(ops)), less)
	finalInsertionSort(ops, 0, len(ops), less)
}

func floorLog2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

func introsortLoop(a []int32, first, last, depth int, less func(a, b int32) bool) {
	for last-first > stdSortThreshold {
		if depth == 0 {
			heapSort(a[first:last], less)
			return
		}
		depth--
		cut := partitionPivot(a, first, last, less)
		introsortLoop(a, cut, last, depth, less)
		last = cut
	}
}

// partitionPivot moves the median of a[first+1], a[mid], a[last-1] to
// a[first] and partitions a[first+1:last] around it.
func partitionPivot(a []int32, first, last int, less func(a, b int32) bool) int {
	mid := first + (last-first)/2
	moveMedianToFirst(a, first, first+1, mid, last-1, less)
	lo, hi := first+1, last
	for {
		for less(a[lo], a[first]) {
			lo++
		}
		hi--
		for less(a[first], a[hi]) {
			hi--
		}
		if lo >= hi {
			return lo
		}
		a[lo], a[hi] = a[hi], a[lo]
		lo++
	}
}

func moveMedianToFirst(a []int32, result, x, y, z int, less func(a, b int32) bool) {
	m := y
	switch {
	case less(a[x], a[y]):
		switch {
		case less(a[y], a[z]):
			m = y
		case less(a[x], a[z]):
			m = z
		default:
			m = x
		}
	case less(a[x], a[z]):
		m = x
	case less(a[y], a[z]):
		m = z
	default:
		m = y
	}
	a[result], a[m] = a[m], a[result]
}

func finalInsertionSort(a []int32, first, last int, less func(a, b int32) bool) {
	if last-first > stdSortThreshold {
		insertionSort(a, first, first+stdSortThreshold, less)
		for i := first + stdSortThreshold; i < last; i++ {
			unguardedLinearInsert(a, i, less)
		}
		return
	}
	insertionSort(a, first, last, less)
}

func insertionSort(a []int32, first, last int, less func(a, b int32) bool) {
	for i := first + 1; i < last; i++ {
		if less(a[i], a[first]) {
			v := a[i]
			copy(a[first+1:i+1], a[first:i])
			a[first] = v
		} else {
			unguardedLinearInsert(a, i, less)
		}
	}
}

func unguardedLinearInsert(a []int32, i int, less func(a, b int32) bool) {
	v := a[i]
	for less(v, a[i-1]) {
		a[i] = a[i-1]
		i--
	}
	a[i] = v
}

// heapSort is std::make_heap followed by std::sort_heap.
func heapSort(a []int32, less func(a, b int32) bool) {
	n := len(a)
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		adjustHeap(a, parent, n, a[parent], less)
		if parent == 0 {
			break
		}
	}
	for last := n - 1; last > 0; last-- {
		v := a[last]
		a[last] = a[0]
		adjustHeap(a, 0, last, v, less)
	}
}

func adjustHeap(a []int32, hole, n int, v int32, less func(a, b int32) bool) {
	top := hole
	child := hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if less(a[child], a[child-1]) {
			child--
		}
		a[hole] = a[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		a[hole] = a[child-1]
		hole = child - 1
	}
	for parent := (hole - 1) / 2; hole > top && less(a[parent], v); parent = (hole - 1) / 2 {
		a[hole] = a[parent]
		hole = parent
	}
	a[hole] = v
}
