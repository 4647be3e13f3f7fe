package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// notDecimal is the error of an integer flag given in one of Go's other
// integer forms (--seeds 0x10, 0o17, 0b101, 1_000): pflag reads them as Go
// source does, so --seeds 0x10 ran 16 seeds where a user who meant hex is
// rare and one who typed it by mistake is not told. emu's integer flags are
// decimal, as every number in its guides is; a leading zero is a decimal
// digit (--seeds 010 is 10, where pflag read it as octal 8).
type notDecimal struct{ name, value string }

func (e notDecimal) Error() string {
	return fmt.Sprintf("--%s %q: want a decimal integer", e.name, e.value)
}

// intTypes are the pflag type names of single-integer flags.
var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true}

// decimalValue wraps an integer flag's value so that it takes decimal only:
// the value is read in base 10 and handed on in its plain decimal spelling.
type decimalValue struct {
	pflag.Value
	name string
}

func (d *decimalValue) Set(v string) error {
	k, err := parseDecimal(d.name, v, !strings.HasPrefix(d.Value.Type(), "uint"))
	if err != nil {
		return err
	}
	return d.Value.Set(k)
}

// parseDecimal reads v as a decimal integer (an optional sign, then digits)
// and returns it in canonical form. A value that is an integer only in Go's
// other forms is notDecimal; anything else is strconv's error, which
// flagError words as for any other number flag.
func parseDecimal(name, v string, signed bool) (string, error) {
	if signed {
		k, err := strconv.ParseInt(v, 10, 64)
		if err == nil {
			return strconv.FormatInt(k, 10), nil
		}
		if _, err0 := strconv.ParseInt(v, 0, 64); err0 == nil || errors.Is(err0, strconv.ErrRange) && !errors.Is(err, strconv.ErrRange) {
			return "", notDecimal{name, v}
		}
		return "", err
	}
	k, err := strconv.ParseUint(v, 10, 64)
	if err == nil {
		return strconv.FormatUint(k, 10), nil
	}
	if _, err0 := strconv.ParseUint(v, 0, 64); err0 == nil || errors.Is(err0, strconv.ErrRange) && !errors.Is(err, strconv.ErrRange) {
		return "", notDecimal{name, v}
	}
	return "", err
}

// decimalOnly makes every single-integer flag of cmd and of its subcommands
// decimal only (notDecimal), whatever the subcommand.
func decimalOnly(cmd *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		if _, done := f.Value.(*decimalValue); !done && intTypes[f.Value.Type()] {
			f.Value = &decimalValue{Value: f.Value, name: f.Name}
		}
	}
	cmd.PersistentFlags().VisitAll(wrap)
	cmd.Flags().VisitAll(wrap)
	for _, sub := range cmd.Commands() {
		decimalOnly(sub)
	}
}

// asNotDecimal returns the notDecimal inside a flag error, if it is one.
func asNotDecimal(err error) (notDecimal, bool) {
	var d notDecimal
	return d, errors.As(err, &d)
}
