package replica_test

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// counting wraps a Replica to count its reads, as a metrics decorator would.
type counting struct {
	replica.Replica
	reads atomic.Int64
}

func (c *counting) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	c.reads.Add(1)
	return c.Replica.Read(ctx, cmd)
}

// MaxDigestVersion forwards the wrapped replica's, or digest.Latest, which
// is what a replica without one is taken to support.
func (c *counting) MaxDigestVersion() byte {
	if dv, ok := c.Replica.(replica.DigestVersioner); ok {
		return dv.MaxDigestVersion()
	}
	return digest.Latest
}

// A wrapper hides the optional interfaces of the Replica it wraps unless it
// implements them itself: without MaxDigestVersion, a node of an older build
// would be asked for digests it cannot compute.
func ExampleReplica_wrapper() {
	old := replicatest.NewReplica(replica.Endpoint{ID: "n1"}, replicatest.WithMaxDigestVersion(digest.V1))
	hiding := struct{ replica.Replica }{old}
	fmt.Println("hiding:", replica.DigestVersionFor(hiding))
	fmt.Println("forwarding:", replica.DigestVersionFor(&counting{Replica: old}))
	// Output:
	// hiding: 2
	// forwarding: 1
}
