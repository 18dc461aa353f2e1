package coordinator_test

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Each request of a read across datacenters names its replica's
// datacenter beside its rack, in the trace and its text, so that a tracer
// can tell a local request from a remote one without the ring.
func TestTraceRequestsNameTheirDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnvOn(t, fiveThreeCluster(t), coordinator.Config{DefaultTable: policy(t, "NEVER"), LocalDatacenter: "dc1"})
		res, _, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		dcs := map[string]int{}
		for _, rt := range res.Trace.Requests {
			ep := e.replica(rt.Endpoint).Endpoint()
			assert.Equal(t, ep.Datacenter, rt.Datacenter, rt.Endpoint)
			assert.Equal(t, ep.Rack, rt.Rack, rt.Endpoint)
			assert.Contains(t, res.Trace.String(), rt.Endpoint+" ("+ep.Datacenter+"/"+ep.Rack+")")
			dcs[rt.Datacenter]++
		}
		assert.Equal(t, map[string]int{"dc1": 3, "dc2": 2}, dcs, "EACH_QUORUM asks a quorum of each")
	})
}

// A request with no datacenter (read back from JSON written before traces
// had one) prints its rack alone, and one with neither prints no place.
func TestTraceTextWithoutDatacenter(t *testing.T) {
	tr := coordinator.Trace{Requests: []coordinator.RequestTrace{{Endpoint: "a", Rack: "r1"}, {Endpoint: "b"}}}
	lines := strings.Split(tr.String(), "\n")
	require.Len(t, lines, 3)
	assert.Contains(t, lines[1], "-> a (r1) ")
	assert.Contains(t, lines[2], "-> b        ")
}
