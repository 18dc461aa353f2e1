package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

func TestEndpointString(t *testing.T) {
	e := replica.Endpoint{ID: "node-1", Datacenter: "dc1", Rack: "rack2"}
	assert.Equal(t, "node-1 (dc1/rack2)", e.String())
}
