package replicatest

import (
	"fmt"

	"github.com/readpath/readpath/replica"
)

// IsAlive reports whether the cluster's liveness view holds ep up: the
// view a coordinator filters candidates with. An unknown endpoint is down.
func (c *Cluster) IsAlive(ep replica.Endpoint) bool {
	a := c.alive[ep.ID]
	return a != nil && a.Load()
}

// SetAlive changes the liveness view of replica id. It changes only what
// IsAlive says, not how the replica answers: to make it fail as well, give
// it a Down fault. An unknown id gets an error wrapping ErrUnknownReplica.
func (c *Cluster) SetAlive(id string, alive bool) error {
	a := c.alive[id]
	if a == nil {
		return unknownReplica(id)
	}
	a.Store(alive)
	return nil
}

func unknownReplica(id string) error { return fmt.Errorf("%w %q", ErrUnknownReplica, id) }
