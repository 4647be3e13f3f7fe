package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// repeatedFlag is the error of a flag that takes one value given twice
// (emu run --seeds 3 --seeds 5): pflag keeps the last value without a word,
// so the run would silently be another than one of the two asked for.
type repeatedFlag struct {
	name        string
	first, then string
}

func (r repeatedFlag) Error() string {
	if r.first == r.then {
		return fmt.Sprintf("--%s given twice (%s): give it once", r.name, r.first)
	}
	return fmt.Sprintf("--%s given twice (%s, then %s): give it once", r.name, r.first, r.then)
}

// onceValue wraps a flag's value so that a second Set is refused.
type onceValue struct {
	pflag.Value
	name  string
	first string
	set   bool
}

func (o *onceValue) Set(v string) error {
	if o.set {
		return repeatedFlag{o.name, o.first, v}
	}
	if err := o.Value.Set(v); err != nil {
		return err
	}
	o.first, o.set = v, true
	return nil
}

// repeatable reports whether a flag takes several values, one a use (--set,
// tune's --sweep, fit's --product) or a list it appends to (calibrate's
// --nb 64 --nb 128): only those may be given more than once.
func repeatable(f *pflag.Flag) bool {
	if _, ok := f.Value.(pflag.SliceValue); ok { // pflag's stringArray, stringSlice, intSlice
		return true
	}
	// run's --set is a Value of its own (setFlag appends in order with
	// --hostfile's), not a SliceValue: its type name is what says it is a list.
	return f.Value.Type() == "stringArray"
}

// onceOnly makes every flag of cmd and of its subcommands that takes one
// value refuse a second use (repeatedFlag), whatever the subcommand.
func onceOnly(cmd *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		if _, done := f.Value.(*onceValue); !done && !repeatable(f) {
			f.Value = &onceValue{Value: f.Value, name: f.Name}
		}
	}
	cmd.PersistentFlags().VisitAll(wrap)
	cmd.Flags().VisitAll(wrap)
	for _, sub := range cmd.Commands() {
		onceOnly(sub)
	}
}

// asRepeated returns the repeatedFlag inside a flag error, if it is one.
func asRepeated(err error) (repeatedFlag, bool) {
	var r repeatedFlag
	return r, errors.As(err, &r)
}
