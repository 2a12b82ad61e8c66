package race_test

import "os"

// sized is a random comparison's size: ci in the normal suite, which must
// stay short on a loaded two-core machine, full with PGASROB_FULL=1
// (README, "Testing").
func sized(ci, full int) int {
	if os.Getenv("PGASROB_FULL") != "" {
		return full
	}
	return ci
}
