package replicatest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica/replicatest"
)

// An error built by hand, in a test double say, prints without its cause
// rather than panicking.
func TestRequestErrorPrintsWithoutACause(t *testing.T) {
	assert.Equal(t, "replicatest: read on n1", (&replicatest.RequestError{Replica: "n1", Op: "read"}).Error())
	assert.Equal(t, "replicatest: read on n1: replicatest: injected error",
		(&replicatest.RequestError{Replica: "n1", Op: "read", Err: replicatest.ErrInjected}).Error())
}
