package runner

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/internal/scenariotest"
)

// hpl.pivot_exchange picks how the pivot search's exchanges are emulated:
// HPL's messages by default, uncontended on request (an approximation),
// from the table or --set, kept under an HPL.dat; anything else is refused
// naming the key and its line. A plan with it cannot record what needs
// every message (the execution graph, the link traffic).
func TestHPLPivotExchange(t *testing.T) {
	const base = approxBase
	for _, tc := range []struct {
		name, src, hplDat string
		sets              []string
		want              hpl.PivotExchange
		err               string
	}{
		{"default", base, "", nil, hpl.PivotMessages, ""},
		{"table", base + "pivot_exchange = \"uncontended\"\n", "", nil, hpl.PivotUncontended, ""},
		{"set", base, "", []string{"hpl.pivot_exchange=uncontended"}, hpl.PivotUncontended, ""},
		{"set over table", base + "pivot_exchange = \"uncontended\"\n", "", []string{"hpl.pivot_exchange=messages"}, hpl.PivotMessages, ""},
		{"kept under an HPL.dat", base + "pivot_exchange = \"uncontended\"\n", "../hpldat/testdata/shipped.dat", nil, hpl.PivotUncontended, ""},
		{"bad word", base + "pivot_exchange = \"free\"\n", "", nil, 0, `s.toml:9: hpl.pivot_exchange: "free": want "messages" or "uncontended"`},
		{"bad type", base + "pivot_exchange = 1\n", "", nil, 0, "s.toml:9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := approxPlan(t, tc.src, tc.hplDat, tc.err, tc.sets...)
			if p == nil {
				return
			}
			if p.PivotExchange != tc.want {
				t.Errorf("pivot exchange %v, want %v", p.PivotExchange, tc.want)
			}
			rec := p.CanRecordMessages()
			if (rec != nil) != (tc.want == hpl.PivotUncontended) {
				t.Errorf("CanRecordMessages: %v", rec)
			}
			if rec != nil {
				if _, err := Run(p, Options{Graph: true}); err == nil || err.Error() != rec.Error() {
					t.Errorf("Run with a graph: %v, want %v", err, rec)
				}
			}
		})
	}
}

// A [[jobs]] HPL job with uncontended pivot exchanges makes the whole
// scenario unable to record every message: its link traffic is refused
// naming the job.
func TestJobsPivotExchangeRefusesLinks(t *testing.T) {
	src := scenariotest.JobsPlatform + "\n[[jobs]]\nname = \"solver\"\napp = \"hpl\"\n[jobs.hpl]\nn = 400\ngrids = [[2, 2]]\npivot_exchange = \"uncontended\"\n" + scenariotest.RingJob("")
	p := approxPlan(t, src, "", "")
	err := p.CanRecordMessages()
	if err == nil || !strings.HasPrefix(err.Error(), "job solver: hpl.pivot_exchange") {
		t.Fatalf("CanRecordMessages: %v, want job solver's refusal", err)
	}
	if _, rerr := Run(p, Options{Links: true}); rerr == nil || rerr.Error() != err.Error() {
		t.Errorf("Run with links: %v, want %v", rerr, err)
	}
	if _, err := Run(p, Options{}); err != nil {
		t.Errorf("Run: %v", err)
	}
}
