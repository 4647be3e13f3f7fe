package hpl

// Phases are HPL's detailed timings (HPL built with -DHPL_DETAILED_TIMING,
// HPL_pdtest's "Max aggregated wall time" lines): the time each phase of
// the factorization took, summed over the run on one rank, and for a test's
// Result the largest over its ranks, as HPL prints them. They are what a
// prediction can be compared with phase by phase against a real run
// (emu explain).
type Phases struct {
	RFact  float64 `json:"rfact_s"`  // panel factorization, recursion included (HPL_pdfact)
	PFact  float64 `json:"pfact_s"`  // its leaves (HPL_pdpan*), part of RFact
	MxSwp  float64 `json:"mxswp_s"`  // pivot search and exchange (HPL_pdmxswp), part of PFact
	Update float64 `json:"update_s"` // trailing update (HPL_pdupdate*)
	Laswp  float64 `json:"laswp_s"`  // its row interchanges and their messages, part of Update
	UpTrsv float64 `json:"uptrsv_s"` // back substitution (HPL_pdtrsv)
}

// Max sets each phase of p to the larger of p's and q's.
func (p *Phases) Max(q Phases) {
	p.RFact = max(p.RFact, q.RFact)
	p.PFact = max(p.PFact, q.PFact)
	p.MxSwp = max(p.MxSwp, q.MxSwp)
	p.Update = max(p.Update, q.Update)
	p.Laswp = max(p.Laswp, q.Laswp)
	p.UpTrsv = max(p.UpTrsv, q.UpTrsv)
}

// Rows are the phases with HPL's labels, in HPL's order.
func (p Phases) Rows() []PhaseRow {
	return []PhaseRow{
		{"rfact", p.RFact}, {"pfact", p.PFact}, {"mxswp", p.MxSwp},
		{"update", p.Update}, {"laswp", p.Laswp}, {"up tr sv", p.UpTrsv},
	}
}

// PhaseRow is one phase and its time, s.
type PhaseRow struct {
	Name    string
	Seconds float64
}

// timed adds the simulated time since t0 to *acc.
func (s *solver) timed(acc *float64, t0 float64) { *acc += s.clk.now() - t0 }
