package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// subcommandTypo is the error for a command that takes a file and has
// commands of its own (calibrate merge, tune task), given one argument that
// is no file and is near one of those commands' names: "emu calibrate merg"
// is a typo, not a scenario to calibrate, and was answered "--out is
// required". nil otherwise: a missing file is reported where it is read.
func subcommandTypo(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return nil
	}
	if _, err := os.Stat(args[0]); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	cmd.SuggestionsMinimumDistance = 2 // cobra's own default, set only where it suggests
	near := cmd.SuggestionsFor(args[0])
	if len(near) == 0 {
		return nil
	}
	return fmt.Errorf("%s: no such file, nor a command of %s (did you mean %s %s?)", args[0], cmd.CommandPath(), cmd.CommandPath(), strings.Join(near, ", "))
}
