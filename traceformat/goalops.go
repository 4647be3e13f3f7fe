package traceformat

import (
	"fmt"
	"math"
)

// Limits on numbers. txt2bin truncates silently; we refuse instead.
const (
	maxSize  = 1 << 42 // bytes of one message, or ns of one calc (73 min)
	maxIndex = 255     // cpu and nic indices are 8-bit in LogGOPSim
)

// sizeWhat names an op's size in messages, without building the string per op.
var sizeWhat = [...]string{OpSend: "send's size", OpRecv: "recv's size", OpCalc: "calc's duration"}

// number reads blanks then an unsigned decimal integer.
func (p *parser) number(b []byte, what string) (int64, []byte, error) {
	b = skipBlanks(b)
	if len(b) == 0 || !isDigit(b[0]) {
		if len(b) == 0 {
			return 0, b, p.errorf("want %s, found the end of the line", what)
		}
		return 0, b, p.errorf("want %s, found %q", what, clip(b))
	}
	var v int64
	i := 0
	for ; i < len(b) && isDigit(b[i]); i++ {
		if v > (math.MaxInt64-9)/10 {
			return 0, b, p.errorf("%s %s… is too large", what, clip(b[:i]))
		}
		v = v*10 + int64(b[i]-'0')
	}
	return v, b[i:], nil
}

// numberOrAny reads an unsigned integer or the wildcard -1 (returned as -1).
func (p *parser) numberOrAny(b []byte, what string) (int64, []byte, error) {
	b = skipBlanks(b)
	if hasPrefix(b, "-1") && (len(b) == 2 || !isDigit(b[2])) {
		return -1, b[2:], nil
	}
	return p.number(b, what)
}

// keyword consumes blanks then kw, reporting whether it was there.
func keyword(b []byte, kw string) ([]byte, bool) {
	t := skipBlanks(b)
	if hasPrefix(t, kw) {
		return t[len(kw):], true
	}
	return b, false
}

// op parses the rest of a send, recv or calc statement and appends the op.
// num is the label's number if it is "l<num>" and known, else -1.
func (p *parser) op(label []byte, num int, k OpKind, b []byte) error {
	kind := k.String()
	if p.curRank < 0 {
		return p.errorf("%s outside a rank block", kind)
	}
	if len(p.s.ops) >= maxOps {
		return p.errorf("more than %d ops", maxOps)
	}
	size, b, err := p.number(b, sizeWhat[k])
	if err != nil {
		return err
	}
	if size > maxSize {
		return p.errorf("%s size %d is larger than %d", kind, size, int64(maxSize))
	}
	if k == OpCalc {
		return p.clauses(label, num, OpCalc, 0, 0, size, b)
	}
	peerWord, what := "to", "destination rank"
	if k == OpRecv {
		peerWord, what = "from", "source rank"
	}
	var ok bool
	if b, ok = keyword(b, "b"); !ok {
		return p.errorf("want 'b' after %s's size %d", kind, size)
	}
	if b, ok = keyword(b, peerWord); !ok {
		return p.errorf("want %q after %s's size", peerWord, kind)
	}
	var peer, tag int64
	if k == OpRecv {
		peer, b, err = p.numberOrAny(b, what)
	} else {
		peer, b, err = p.number(b, what)
	}
	if err != nil {
		return err
	}
	if peer >= int64(p.numRanks) {
		return p.errorf("%s %s %d outside 0..%d", kind, what, peer, p.numRanks-1)
	}
	if b, ok = keyword(b, "tag"); ok {
		if tag, b, err = p.numberOrAny(b, "a tag"); err != nil {
			return err
		}
		if tag > math.MaxUint32 {
			return p.errorf("tag %d does not fit 32 bits", tag)
		}
	}
	return p.clauses(label, num, k, peer, tag, size, b)
}

// clauses parses the optional "cpu C" and (not for calc) "nic N" clauses,
// checks the end of the line and appends the op.
func (p *parser) clauses(label []byte, num int, k OpKind, peer, tag, size int64, b []byte) error {
	var cpu, nic int64
	var ok bool
	var err error
	if b, ok = keyword(b, "cpu"); ok {
		if cpu, b, err = p.number(b, "a cpu index"); err != nil {
			return err
		}
	}
	if b, ok = keyword(b, "nic"); ok {
		if k == OpCalc {
			return p.errorf("calc takes no nic clause")
		}
		if nic, b, err = p.number(b, "a nic index"); err != nil {
			return err
		}
	}
	if cpu > maxIndex || nic > maxIndex {
		return p.errorf("cpu %d / nic %d: indices must be 0..%d", cpu, nic, maxIndex)
	}
	if err := p.endOfLine(b, k.String()); err != nil {
		return err
	}
	op := int32(len(p.s.ops))
	if label != nil {
		if num < 0 {
			num = lNumber(label)
		}
		if prev, dup := p.labels.define(label, num, op); dup {
			return p.errorf("duplicate label %q (first defined on line %d)", label, p.s.line[prev])
		}
	}
	s := p.s
	s.ops = append(s.ops, OpRec{Kind: k, CPU: uint8(cpu), NIC: uint8(nic), Rank: int32(p.curRank),
		Peer: int32(peer), Tag: int32(uint32(tag)), Size: size})
	s.line = append(s.line, p.line)
	s.maxCPU = max(s.maxCPU, uint8(cpu))
	s.maxNIC = max(s.maxNIC, uint8(nic))
	return nil
}

// dependency parses "A requires B" or "A irequires B" after the keyword.
func (p *parser) dependency(a, b []byte, start bool) error {
	if p.curRank < 0 {
		return p.errorf("dependency outside a rank block")
	}
	kw := "requires"
	if start {
		kw = "irequires"
	}
	t := skipBlanks(b)
	if len(t) == len(b) {
		return p.errorf("want a blank after %q", kw)
	}
	bl, rest := ident(t)
	if bl == nil {
		return p.errorf("want a label after %q, found %q", kw, clip(t))
	}
	if err := p.endOfLine(rest, "the dependency"); err != nil {
		return err
	}
	succ, ok := p.labels.lookup(a)
	if !ok {
		return p.errorf("dependency on undefined label %q (labels must be defined earlier in the same rank block)", a)
	}
	pred, ok := p.labels.lookup(bl)
	if !ok {
		return p.errorf("dependency on undefined label %q (labels must be defined earlier in the same rank block)", bl)
	}
	if succ == pred {
		return p.errorf("dependency cycle: %q %s itself", a, kw)
	}
	return p.addDep(pred, succ, start)
}

// addDep records that op succ waits for op pred, two distinct ops of the
// open block, to complete (or to start).
func (p *parser) addDep(pred, succ int32, start bool) error {
	if pred > succ {
		p.backward = true
	}
	if len(p.s.succ)+len(p.s.isucc)+len(p.deps)+len(p.ideps) >= maxDeps {
		return p.errorf("more than %d dependencies", maxDeps)
	}
	if start {
		p.ideps = append(p.ideps, dep{pred, succ})
	} else {
		p.deps = append(p.deps, dep{pred, succ})
	}
	return nil
}

// checkAcyclic runs Kahn's algorithm over the dependencies (they never
// cross ranks) and reports an op left on a cycle.
func (p *parser) checkAcyclic() error {
	if !p.backward {
		return nil // every dependency waits for an earlier op: no cycle possible
	}
	s := p.s
	n := len(s.ops)
	indeg := make([]int32, n)
	for i := range indeg {
		indeg[i] = s.NumPreds(i)
	}
	stack := make([]int32, 0, 1024)
	for i := range indeg {
		if indeg[i] == 0 {
			stack = append(stack, int32(i))
		}
	}
	done := 0
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		done++
		for _, list := range [2][]int32{s.Requires(int(v)), s.IRequires(int(v))} {
			for _, w := range list {
				if indeg[w]--; indeg[w] == 0 {
					stack = append(stack, w)
				}
			}
		}
	}
	if done == n {
		return nil
	}
	return p.cycleError(indeg)
}

// cycleError finds ops on one cycle: every op left with indeg > 0 has a
// predecessor also left, so walking predecessors from any of them must
// come back to an op already seen.
func (p *parser) cycleError(indeg []int32) error {
	s := p.s
	stuckPred := make(map[int32]int32)
	for v := range s.ops {
		for _, list := range [2][]int32{s.Requires(v), s.IRequires(v)} {
			for _, w := range list {
				if indeg[v] > 0 && indeg[w] > 0 {
					stuckPred[w] = int32(v)
				}
			}
		}
	}
	v := int32(-1)
	for i := range indeg {
		if indeg[i] > 0 {
			v = int32(i)
			break
		}
	}
	seen := make(map[int32]int)
	var path []int32
	for {
		if at, ok := seen[v]; ok {
			path = path[at:]
			break
		}
		seen[v] = len(path)
		path = append(path, v)
		v = stuckPred[v]
	}
	lines := ""
	for i := len(path) - 1; i >= 0 && len(path)-i <= 8; i-- {
		lines += fmt.Sprintf(" %d", s.line[path[i]])
	}
	return fmt.Errorf("%s:%d: dependency cycle in rank %d through the ops on lines%s",
		p.name, s.line[path[len(path)-1]], s.ops[path[0]].Rank, lines)
}

// numberedLabel parses the two statements Schedgen writes on nearly every
// line, "l<k>: op ..." and "l<k> requires l<m>", reading the label numbers
// as it scans them (the general path scans each label twice). It returns
// false, having changed nothing, for any other shape or any error, which
// the general path then parses and reports.
func (p *parser) numberedLabel(b []byte) (bool, error) {
	k, rest := lDigits(b)
	if k < 0 || len(rest) == 0 {
		return false, nil
	}
	switch rest[0] {
	case ':':
		kw, after := ident(skipBlanks(rest[1:]))
		var kind OpKind
		switch string(kw) {
		case "send":
			kind = OpSend
		case "recv":
			kind = OpRecv
		case "calc":
			kind = OpCalc
		default:
			return false, nil
		}
		return true, p.op(b[:len(b)-len(rest)], k, kind, after)
	case ' ':
		const req = " requires "
		if !hasPrefix(rest, req) || p.curRank < 0 {
			return false, nil
		}
		m, tail := lDigits(rest[len(req):])
		if m < 0 || len(tail) > 0 {
			return false, nil
		}
		succ, ok := p.labels.lookupNum(k)
		pred, okPred := p.labels.lookupNum(m)
		if !ok || !okPred || succ == pred {
			return false, nil
		}
		return true, p.addDep(pred, succ, false)
	}
	return false, nil
}
