package replicatest_test

import (
	"errors"
	"testing"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A replica NewReplica could not configure fails every Read and Apply, so
// its Probe must fail too: a probe answered nil would have a failure
// detector readmit a replica that cannot serve, again after every
// conviction.
func TestProbeOfAMisconfiguredReplicaFails(t *testing.T) {
	r := replicatest.NewReplica(replica.Endpoint{ID: "a"}, replicatest.WithWorkers(-1, 0))
	err := r.Probe(t.Context())
	var ce *replicatest.ConfigError
	if !isProbeFailure(replicatest.ErrInvalidConfig)(err) || !errors.As(err, &ce) {
		t.Errorf("Probe = %v, want a probe failure wrapping the replica's *ConfigError %v", err, r.Err())
	}
}
