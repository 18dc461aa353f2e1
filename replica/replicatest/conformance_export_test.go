package replicatest

import (
	"testing"
	"time"
)

// SetCallTimeouts sets the conformance check's call timeout and grace for
// the rest of t, so that a test of replicas that hang takes milliseconds.
func SetCallTimeouts(t *testing.T, timeout, grace time.Duration) {
	oldTimeout, oldGrace := callTimeout, callGrace
	callTimeout, callGrace = timeout, grace
	t.Cleanup(func() { callTimeout, callGrace = oldTimeout, oldGrace })
}
