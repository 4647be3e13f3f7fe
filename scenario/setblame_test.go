package scenario

import (
	"strings"
	"testing"
)

// An error about a key the file does not have, in a table a --set changed, is the
// --set's: a model made incomplete by --set kernels.dtrsv.terms is reported
// against that argument, not against some line of the file.
func TestErrorsOfSetTablesNameTheSet(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{`kernels.dtrsv.terms=["n"]`, `--set kernels.dtrsv.terms=["n"]: kernels.dtrsv.coef: `},
		{`kernels.dgemmm.terms=["n"]`, `--set kernels.dgemmm.terms=["n"]: kernels.dgemmm: no kernel of that name`},
	} {
		s := Default()
		err := s.Set(c.set)
		if err == nil {
			_, err = s.Validate()
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("--set %s: got %v, want %q...", c.set, err, c.want)
		}
	}
	// an error about a key of the file stays the file's
	s := Default()
	if err := s.Set("hpl.nb=32"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("platform.hosts=2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "scenario/default.toml:36: hpl.grids: a 4-process grid") {
		t.Errorf("hosts: %v", err)
	}
}
