package fluid

import "fmt"

// errorf and wrap prefix configuration errors with the package name.
func errorf(format string, args ...any) error {
	return fmt.Errorf("fluid: "+format, args...)
}

func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("fluid: %w", err)
}
