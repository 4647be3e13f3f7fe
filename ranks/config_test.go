package ranks

import (
	"errors"
	"reflect"
	"testing"
)

// TestSetCollectives: "smpi" is SMPI 3.32's default selector's choice for
// every collective left unset (smpi_coll.cpp's "default" table: linear
// barrier, reduce, gather, scatter and allgather, binomial bcast, allreduce
// as reduce then bcast, Open MPI's alltoall decision); a collective chosen
// already keeps its algorithm; "ompi" gives every collective Open MPI's
// decision (AlgoOMPI); "emu" and "" change nothing.
func TestSetCollectives(t *testing.T) {
	var c Config
	c.BcastAlgo = AlgoLinear
	if err := c.SetCollectives(CollectivesSMPI); err != nil {
		t.Fatal(err)
	}
	want := Config{BarrierAlgo: AlgoLinear, BcastAlgo: AlgoLinear, ReduceAlgo: AlgoLinear, AllreduceAlgo: AlgoReduceBcast,
		GatherAlgo: AlgoLinear, ScatterAlgo: AlgoLinear, AllgatherAlgo: AlgoLinear, AlltoallAlgo: AlgoOMPI, Selector: CollectivesSMPI}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("smpi over a linear bcast: %+v, want %+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("the smpi set does not validate: %v", err)
	}
	// "ompi": Open MPI's decision for each collective left unset
	var o Config
	o.GatherAlgo = AlgoBinomial
	if err := o.SetCollectives(CollectivesOMPI); err != nil {
		t.Fatal(err)
	}
	want = Config{BarrierAlgo: AlgoOMPI, BcastAlgo: AlgoOMPI, ReduceAlgo: AlgoOMPI, AllreduceAlgo: AlgoOMPI,
		GatherAlgo: AlgoBinomial, ScatterAlgo: AlgoOMPI, AllgatherAlgo: AlgoOMPI, AlltoallAlgo: AlgoOMPI, Selector: CollectivesOMPI}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("ompi over a binomial gather: %+v, want %+v", o, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("the ompi set does not validate: %v", err)
	}
	for _, set := range []string{"", CollectivesEmu} {
		var d Config
		if err := d.SetCollectives(set); err != nil || !reflect.DeepEqual(d, Config{}) {
			t.Errorf("%q: %+v, %v; want no change", set, d, err)
		}
	}
	if err := new(Config).SetCollectives("mpich"); err == nil {
		t.Error(`"mpich" accepted`)
	}
}

// TestValidateBoundsTheLatFactor: a latency factor past MaxLatFactor is
// refused by name (1e300 ran HPL to a Time in 300 digits, qa47); at the
// bound, and SMPI's own table, pass. Largest reads a constant and chunks.
func TestValidateBoundsTheLatFactor(t *testing.T) {
	for _, c := range []struct {
		table string
		ok    bool
	}{
		{SMPILatFactor, true},
		{"0:1e9", true},
		{"0:1;65536:1000000001", false},
		{"0:1e300", false},
		{"2e9", false},
	} {
		cfg := Config{LatFactor: MustParseTable(c.table)}
		err := cfg.Validate()
		var ce *ConfigError
		if c.ok != (err == nil) || !c.ok && (!errors.As(err, &ce) || ce.Field != "LatFactor") {
			t.Errorf("LatFactor %q: err = %v, want ok = %v (a LatFactor error)", c.table, err, c.ok)
		}
	}
}
