package hpl

// The port bills its own copy kernels (laswp.go) millions of times a run, a
// few calls per row swap. Each (kernel, routine) pair is resolved to a
// copier once per solver, on first use, so that no call looks its models up
// by name again.

// copyID is a copy kernel billed outside the row-swap routines.
type copyID uint8

const (
	cpLaswp copyID = iota
	cpGather
	cpScatter
	cpUswp
	cpLacpy
	cpLatcpy
	cpLaswp00N // the update's interchanges, HPL_dlaswp00N (its own model where there is one)
	numCopies
)

// copyNames are each copyID's kernel and routine variant, as kern.copier takes them.
var copyNames = [numCopies]struct{ kernel, variant string }{
	cpLaswp:    {kLaswp, ""},
	cpGather:   {kGather, ""},
	cpScatter:  {kScatter, ""},
	cpUswp:     {kUswp, ""},
	cpLacpy:    {kLacpy, ""},
	cpLatcpy:   {kLatcpy, ""},
	cpLaswp00N: {kLaswp, "dlaswp00N"},
}

// routine is one of HPL's row-copy routines (laswp.go).
type routine uint8

const (
	dlaswp01 routine = iota
	dlaswp02
	dlaswp03
	dlaswp04
	dlaswp05
	dlaswp06
	dlaswpU // laswpU's interchanges: HPL_dlaswp00N on the N form, HPL_dlaswp10N on the T form
	numRoutines
)

// routineNames are each routine's names on a plain (N) and a transposed (T)
// U: HPL_dlaswp01T works on a transposed U, HPL_dlaswp01N on a plain one; a
// routine of one form (HPL_dlaswp02N) has it twice.
var routineNames = [numRoutines]struct{ n, t string }{
	dlaswp01: {"dlaswp01N", "dlaswp01T"},
	dlaswp02: {"dlaswp02N", "dlaswp02N"},
	dlaswp03: {"dlaswp03N", "dlaswp03T"},
	dlaswp04: {"dlaswp04N", "dlaswp04T"},
	dlaswp05: {"dlaswp05N", "dlaswp05T"},
	dlaswp06: {"dlaswp06N", "dlaswp06T"},
	dlaswpU:  {"dlaswp00N", "dlaswp10N"},
}

// copies are a solver's resolved copiers (nil: not yet used).
type copies struct {
	byID     [numCopies]copier
	routines [numRoutines]routineCopies
}

// routineCopies is one routine under the name of the solver's U form.
type routineCopies struct {
	resolved    bool
	uswp, laswp copier // its moves within U and W (swapCtx.charge), and those touching A (chargeA)
	own         bool   // the models have one for the routine (kern.owns)
}

// charge bills copy kernel c on m rows of n columns (copier).
func (s *solver) charge(c copyID, m, n, span int) {
	cp := s.copies.byID[c]
	if cp == nil {
		cp = s.k.copier(copyNames[c].kernel, copyNames[c].variant)
		s.copies.byID[c] = cp
	}
	cp.charge(m, n, span)
}

// routine returns r's copiers, named for the solver's U form (Params.UTransposed).
func (s *solver) routine(r routine) *routineCopies {
	rc := &s.copies.routines[r]
	if !rc.resolved {
		name := routineNames[r].n
		if s.p.UTransposed {
			name = routineNames[r].t
		}
		*rc = routineCopies{resolved: true, uswp: s.k.copier(kUswp, name), laswp: s.k.copier(kLaswp, name), own: s.k.owns(name)}
	}
	return rc
}
