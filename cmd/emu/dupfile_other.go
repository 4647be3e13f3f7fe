//go:build !unix

package main

import "os"

// dupFile opens f's file again for appending, where dup(2) is missing.
func dupFile(f *os.File) (*os.File, error) {
	return os.OpenFile(f.Name(), os.O_WRONLY|os.O_APPEND, 0)
}
