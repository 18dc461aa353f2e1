package coordinator

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Metrics().Replicas lists the replicas "by datacenter, rack and ID": the
// rack orders a datacenter's replicas before their IDs do, whatever the
// IDs (a cluster's own IDs need not name the rack).
func TestReplicaMetricsAreOrderedByRackBeforeID(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	for _, ep := range []replica.Endpoint{
		{ID: "a", Datacenter: "dc2", Rack: "r1"},
		{ID: "b", Datacenter: "dc1", Rack: "r2"},
		{ID: "c", Datacenter: "dc1", Rack: "r1"},
		{ID: "d", Datacenter: "dc1", Rack: "r2"},
	} {
		s.entry(&ep)
	}
	var ids []string
	for _, r := range s.replicaMetrics() {
		ids = append(ids, r.Endpoint.ID)
	}
	assert.Equal(t, []string{"c", "b", "d", "a"}, ids)
}
