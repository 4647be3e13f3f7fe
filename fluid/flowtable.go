package fluid

// flowTable maps the FlowIDs of running flows to their state without
// hashing: ids are handed out in increasing order, so id>>flowPageBits
// names a page of 1,024 consecutive ids and the low bits a slot in it. A
// page is given back (kept as a spare) once every flow on it has gone,
// and the directory drops its leading pages once their flows have all
// gone, so memory follows the span of ids of the running flows, not the
// ids ever started (a whole Stampede run starts 3.2e9).
//
// Why not a map: a flow start and end cost a map assignment and a delete,
// about 40% of what fluid adds to a small message before this table.
type flowTable struct {
	pages []*flowPage
	first int         // page number of pages[0]: the pages before it have emptied
	next  FlowID      // the highest id put + 1: pages below next's are complete
	spare []*flowPage // emptied pages, reused by the next pages needed
	n     int         // flows in the table
}

const (
	flowPageBits = 10
	flowPageSize = 1 << flowPageBits
)

// maxSparePages bounds the emptied pages kept for reuse (8 KiB each): a
// few suffice when flows of neighbouring pages end out of order.
const maxSparePages = 8

type flowPage struct {
	slot [flowPageSize]*flow
	live int // non-nil slots
}

// get returns the flow with this id, or nil if it is not running.
func (t *flowTable) get(id FlowID) *flow {
	p := int(id>>flowPageBits) - t.first
	if id < 0 || p < 0 || p >= len(t.pages) || t.pages[p] == nil {
		return nil
	}
	return t.pages[p].slot[id&(flowPageSize-1)]
}

// put records f under f.id (a fresh id).
func (t *flowTable) put(f *flow) {
	if len(t.pages) == 0 {
		t.first = int(f.id >> flowPageBits) // a directory starts at its first id
	}
	p := int(f.id>>flowPageBits) - t.first
	for len(t.pages) <= p {
		t.pages = append(t.pages, nil)
	}
	pg := t.pages[p]
	if pg == nil {
		if k := len(t.spare); k > 0 {
			pg = t.spare[k-1]
			t.spare = t.spare[:k-1]
		} else {
			pg = new(flowPage)
		}
		t.pages[p] = pg
	}
	pg.slot[f.id&(flowPageSize-1)] = f
	pg.live++
	t.n++
	t.next = max(t.next, f.id+1)
}

// del forgets flow id, which must be in the table.
func (t *flowTable) del(id FlowID) {
	p := int(id>>flowPageBits) - t.first
	pg := t.pages[p]
	pg.slot[id&(flowPageSize-1)] = nil
	pg.live--
	t.n--
	if pg.live == 0 {
		t.pages[p] = nil // every slot is nil again: reusable as is
		if len(t.spare) < maxSparePages {
			t.spare = append(t.spare, pg)
		}
		if t.pages[0] == nil {
			t.dropLeading()
		}
	}
}

// dropLeading drops the directory's leading empty pages whose ids have
// all been handed out, once they are at least half of it, sliding the
// rest down: each entry moves at most once per halving, and the count
// runs once per emptied page (1,024 flows).
func (t *flowTable) dropLeading() {
	complete := int(t.next>>flowPageBits) - t.first // pages[:complete] will get no new id
	k := 0
	for k < complete && k < len(t.pages) && t.pages[k] == nil {
		k++
	}
	if k > 0 && 2*k >= len(t.pages) {
		n := copy(t.pages, t.pages[k:])
		clear(t.pages[n:])
		t.pages = t.pages[:n]
		t.first += k
	}
}
