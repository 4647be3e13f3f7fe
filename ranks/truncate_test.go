package ranks

import (
	"errors"
	"fmt"
	"testing"
)

// recvStyle is one way an application receives a message of at most max
// bytes: it returns the status it got.
type recvStyle struct {
	name string
	recv func(r *Rank, src, tag, max int) Status
}

var recvStyles = []recvStyle{
	{"Recv", func(r *Rank, src, tag, max int) Status {
		_, st := r.World().RecvUpTo(src, tag, max)
		return st
	}},
	{"Wait", func(r *Rank, src, tag, max int) Status {
		_, st := r.World().IrecvUpTo(src, tag, max).Wait()
		return st
	}},
	{"Test", func(r *Rank, src, tag, max int) Status {
		q := r.World().IrecvUpTo(src, tag, max)
		for {
			if ok, _, st := q.Test(); ok {
				return st
			}
		}
	}},
	{"Waitany", func(r *Rank, src, tag, max int) Status {
		_, _, st := Waitany([]*Request{nil, r.World().IrecvUpTo(src, tag, max)})
		return st
	}},
	{"Testany", func(r *Rank, src, tag, max int) Status {
		reqs := []*Request{r.World().IrecvUpTo(src, tag, max)}
		for {
			if _, ok, _, st := Testany(reqs); ok {
				return st
			}
		}
	}},
	{"Waitall", func(r *Rank, src, tag, max int) Status {
		Waitall(r.World().IrecvUpTo(src, tag, max))
		return Status{Source: 0, Tag: 7, Bytes: -1} // Waitall gives no status
	}},
	{"WaitSet", func(r *Rank, src, tag, max int) Status {
		s := r.NewWaitSet()
		s.Add(r.World().IrecvUpTo(src, tag, max), 3)
		_, _, _, st := s.Next()
		return st
	}},
	{"Probe", func(r *Rank, src, tag, max int) Status { // the size a probe gives, then a receive from its source
		p := r.World().Probe(src, tag)
		_, st := r.World().RecvUpTo(p.Source, p.Tag, max)
		return st
	}},
	{"Iprobe", func(r *Rank, src, tag, max int) Status {
		for {
			if ok, p := r.World().Iprobe(src, tag); ok {
				_, st := r.World().RecvUpTo(p.Source, p.Tag, max)
				return st
			}
		}
	}},
}

// TestRecvUpTo: a receive of at most max bytes that matches a longer
// message stops the run with MPI_ERR_TRUNCATE (SimGrid 3.32's SMPI: "recv -
// returned MPI_ERR_TRUNCATE", evidence/truncate.md), whichever call
// completes it, whether the message came first (unexpected) or the
// receive, with or without wildcards. A message of max bytes or fewer is
// received whole (MPI's count is an upper bound), with the status and at
// the instant of a plain Recv of it.
func TestRecvUpTo(t *testing.T) {
	sizes := []struct{ bytes, max int }{
		{1000, 10},     // detached, truncated
		{8, 0},         // a count of 0 takes only an empty message
		{1 << 20, 8},   // rendezvous, truncated
		{1000, 999},    // one byte short
		{1000, 1000},   // exact
		{1000, 1e6},    // larger: legal
		{0, 0},         // empty
		{1 << 20, 2e6}, // rendezvous, larger
	}
	for _, style := range recvStyles {
		for _, sz := range sizes {
			for _, wild := range []bool{false, true} {
				for _, late := range []bool{false, true} {
					name := fmt.Sprintf("%s/%dB_max%d/wild=%v/late=%v", style.name, sz.bytes, sz.max, wild, late)
					t.Run(name, func(t *testing.T) {
						checkRecvUpTo(t, style, sz.bytes, sz.max, wild, late)
					})
				}
			}
		}
	}
}

func checkRecvUpTo(t *testing.T, style recvStyle, bytes, max int, wild, late bool) {
	cfg := preset(t, "cm02")
	src, tag := 0, 7
	if wild {
		src, tag = AnySource, AnyTag
	}
	// prog runs rank 0's send and rank 1's receive; late: the receive
	// is posted 1 ms after the message is in.
	prog := func(recv func(r *Rank) Status, end *float64, st *Status) func(r *Rank) {
		return func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 7, Msg{Bytes: bytes})
				return
			}
			if late {
				r.Sleep(1e-3)
			}
			*st = recv(r)
			*end = r.Now()
		}
	}
	// The reference: the same program with a plain Irecv and Wait.
	var wantEnd float64
	var wantSt Status
	run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, prog(func(r *Rank) Status {
		_, st := r.World().Irecv(src, tag).Wait()
		return st
	}, &wantEnd, &wantSt))

	w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	var end float64
	var st Status
	err = w.Run(prog(func(r *Rank) Status { return style.recv(r, src, tag, max) }, &end, &st))
	if bytes > max {
		var te *TruncateError
		want := TruncateError{Rank: 1, Source: 0, Tag: 7, Bytes: bytes, Max: max}
		if !errors.As(err, &te) || *te != want {
			t.Fatalf("error %v, want %+v", err, want)
		}
		line := fmt.Sprintf("rank 1: MPI_ERR_TRUNCATE: a receive of at most %d bytes matched a message of %d bytes (from rank 0, tag 7)", max, bytes)
		if msg := err.Error(); msg != line {
			t.Errorf("error %q, want %q", msg, line)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes == -1 { // Waitall
		wantSt.Bytes = -1
	}
	if st != wantSt || st.Source != 0 || st.Tag != 7 || (st.Bytes != bytes && st.Bytes != -1) {
		t.Errorf("status %+v, want %+v (the message's, as a plain receive's)", st, wantSt)
	}
	if style.name != "Test" && style.name != "Testany" && style.name != "Iprobe" && style.name != "Probe" && end != wantEnd {
		t.Errorf("received at %.15g s, a plain receive at %.15g s", end, wantEnd)
	}
}

// TestRecvUpToBesideCollectives: the collectives' own receives take
// whatever their messages hold, and a bounded wildcard receive posted
// before them never takes one of their messages (their tags are
// negative): rank 3's receive of at most 8 bytes from any source, any tag
// waits through a bcast, a reduce, an allgather and an alltoall of 1 MiB
// parts and then gets rank 0's 8 bytes.
func TestRecvUpToBesideCollectives(t *testing.T) {
	for _, coll := range []struct {
		name string
		do   func(c *Comm)
	}{
		{"Barrier", func(c *Comm) { c.Barrier() }},
		{"Bcast", func(c *Comm) { c.Bcast(0, Msg{Bytes: 1 << 20}) }},
		{"Reduce", func(c *Comm) { c.Reduce(0, Msg{Bytes: 1 << 20}, Sum) }},
		{"Allgather", func(c *Comm) { c.Allgather(Msg{Bytes: 1 << 20}) }},
		{"Alltoall", func(c *Comm) {
			parts := make([]Msg, c.Size())
			for i := range parts {
				parts[i] = Msg{Bytes: 1 << 20}
			}
			c.Alltoall(parts)
		}},
		{"Gather", func(c *Comm) { c.Gather(3, Msg{Bytes: 1000}) }},
	} {
		t.Run(coll.name, func(t *testing.T) {
			var st Status
			run(t, preset(t, "smpi"), newCrossbar(4, 1e9, 1e-6), 4, func(r *Rank) {
				c := r.World()
				var q *Request
				if r.ID() == 3 {
					q = c.IrecvUpTo(AnySource, AnyTag, 8)
				}
				coll.do(c)
				switch r.ID() {
				case 0:
					c.Send(3, 5, Msg{Bytes: 8})
				case 3:
					_, st = q.Wait()
				}
			})
			if want := (Status{Source: 0, Tag: 5, Bytes: 8}); st != want {
				t.Errorf("status %+v, want %+v", st, want)
			}
		})
	}
}

// TestSendrecvUpTo: Sendrecv's receive bounded as RecvUpTo's: ranks 0 and
// 1 exchange messages of 1,000 and 8 bytes; rank 1's receive of at most
// max bytes stops the run below 1,000 and gets the message, at the instant
// of a plain Sendrecv, from 1,000 up.
func TestSendrecvUpTo(t *testing.T) {
	for _, max := range []int{0, 10, 999, 1000, 1e6} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			prog := func(bounded bool, end *float64, st *Status) func(r *Rank) {
				return func(r *Rank) {
					c := r.World()
					if r.ID() == 0 {
						c.Sendrecv(1, 7, Msg{Bytes: 1000}, 1, 8)
						return
					}
					if bounded {
						_, *st = c.SendrecvUpTo(0, 8, Msg{Bytes: 8}, AnySource, 7, max)
					} else {
						_, *st = c.Sendrecv(0, 8, Msg{Bytes: 8}, AnySource, 7)
					}
					*end = r.Now()
				}
			}
			cfg := preset(t, "smpi")
			var wantEnd, end float64
			var wantSt, st Status
			run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, prog(false, &wantEnd, &wantSt))
			w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
			if err != nil {
				t.Fatal(err)
			}
			err = w.Run(prog(true, &end, &st))
			if max < 1000 {
				var te *TruncateError
				if want := (TruncateError{Rank: 1, Source: 0, Tag: 7, Bytes: 1000, Max: max}); !errors.As(err, &te) || *te != want {
					t.Errorf("error %v, want %+v", err, want)
				}
				return
			}
			if err != nil || st != wantSt || end != wantEnd {
				t.Errorf("error %v, status %+v at %.15g s; want %+v at %.15g s", err, st, end, wantSt, wantEnd)
			}
		})
	}
}
