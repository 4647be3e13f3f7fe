//go:build unix

package main

import (
	"os"
	"syscall"
)

// dupFile is a new descriptor of f's open file (dup(2)), which shares its
// offset: what is written through it follows what f has written, and
// closing it leaves f open.
func dupFile(f *os.File) (*os.File, error) {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name()), nil
}
