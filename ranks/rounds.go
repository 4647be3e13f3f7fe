package ranks

// Rounds is what Comm.SendRecvsRounds runs: work in rounds, each ending
// with the SendRecvs it asks for (HPL's panel factorization: a panel
// column's kernels, then its pivot search's hypercube exchanges).
type Rounds interface {
	// Next runs the work up to the next round's SendRecvs and returns its
	// count and steps, or ok false once the work is over. Past the first
	// call it may run in whichever goroutine advances the task, under
	// Worker's rules: it may only charge kernels (Rank.Compute) and read
	// the rank's clock (Rank.Now). ex's methods run there too.
	Next() (n int, ex Exchanger, ok bool)
}

// SendRecvsRounds is
//
//	for {
//		n, ex, ok := rounds.Next()
//		if !ok {
//			return
//		}
//		c.SendRecvs(n, tag, ex)
//	}
//
// with the same calls, hooks, sleeps, counters and events at the same
// times and in the same order. The first Next runs on the rank's
// coroutine. Where the World merges kernel sleeps (World.lazy) the rest is
// one task (see task): the rank's coroutine parks once for all the rounds,
// where it parked once for each SendRecvs, and each round's work runs
// when the previous SendRecvs is over, in the rank's turn; the kernel
// sleeps it merges are settled before the next SendRecvs, as SendRecvs's
// runTask settles them. A kernel that Next charges and that Compute would
// sleep at once (the clock cannot count it) is deferred, as in
// SendRecvsIprobe's work: the task ends after that Next, and the coroutine
// makes the deferred sleeps, then the SendRecvs Next asked for, then goes
// on with the rounds. Elsewhere (another wake order, a listener of the
// compute events) it is the loop above.
func (c *Comm) SendRecvsRounds(tag int, rounds Rounds) {
	checkUserTag("SendRecvs", tag)
	r := c.r
	n, ex, ok := rounds.Next()
	for ok {
		if !r.w.lazy || n <= 0 {
			c.SendRecvs(n, tag, ex)
			n, ex, ok = rounds.Next()
			continue
		}
		tk := r.w.tasksOf(r)
		x, t := &tk.x, &tk.r
		*x = exchanges{r: r, c: c, n: n, tag: tag, ex: ex}
		x.setSkip(ex)
		*t = roundsTask{x: x, rounds: rounds}
		r.runTask(t, "SendRecvs")
		n, ex, ok = x.n, x.ex, t.phase == roundsDeferred
		x.ex, x.skip, x.skips, t.rounds = nil, nil, false, nil
		if t.phase == roundsOver {
			return
		}
		// Kernels deferred: slept here, then the SendRecvs asked for
		// (none after the last round: roundsDeferredLast).
		tk.d.sleep(r)
	}
}

// roundsTask is the task of Comm.SendRecvsRounds: the exchanges of a round
// (x), then, once they are over, the next round's work (rounds.Next), the
// settle of the kernel sleeps it merged and its exchanges, up to a Next
// that ends the rounds or defers a kernel.
type roundsTask struct {
	x      *exchanges
	rounds Rounds
	phase  uint8 // the rounds* constants
}

const (
	roundsExchange     uint8 = iota // x runs
	roundsWork                      // rounds.Next runs (kernels it charges may be deferred)
	roundsOver                      // Next ended the rounds: the task is over
	roundsDeferred                  // Next deferred kernels: x holds the SendRecvs it asked for, not begun
	roundsDeferredLast              // Next deferred kernels and ended the rounds
)

func (t *roundsTask) step() *Request {
	x := t.x
	r := x.r
	for {
		if q := x.step(); q != nil {
			return q
		}
		t.phase = roundsWork
		n, ex, ok := t.rounds.Next()
		t.phase = roundsExchange
		if d := &r.w.tasksOf(r).d; d.active {
			d.end(r)
			t.phase = roundsDeferredLast
			if ok {
				*x = exchanges{r: r, c: x.c, n: n, tag: x.tag, ex: ex}
				t.phase = roundsDeferred
			}
			return nil
		}
		if !ok {
			t.phase = roundsOver
			return nil
		}
		*x = exchanges{r: r, c: x.c, n: max(n, 0), tag: x.tag, ex: ex}
		x.setSkip(ex)
		if n > 0 && r.taskSettle() { // SendRecvs's runTask settles first
			return sleepStep
		}
	}
}
