package replicatest

import (
	"context"

	"github.com/readpath/readpath/replica"
)

var _ replica.Prober = (*Replica)(nil)

// Probe implements replica.Prober, as a ping of the node would answer: a
// Down replica fails at once with ErrDown (a replica.ErrConnectionFailed);
// an Unreachable one waits for ctx to end and fails with its error; any
// other replica answers nil at once, however slow its reads, since a probe
// checks that the node is reachable, not that it is fast. A context that
// has already ended fails the probe, and so does a replica NewReplica
// could not configure, with its *ConfigError, as its requests fail: a
// replica that cannot serve must not look reachable. Failures are
// *RequestError values with Op "probe". Probes are not requests: Stats
// does not count them.
func (r *Replica) Probe(ctx context.Context) error {
	if r.err != nil {
		return r.probeError(r.err)
	}
	if err := ctx.Err(); err != nil {
		return r.probeError(err)
	}
	switch r.behavior.Load().Fault.kind {
	case down:
		return r.probeError(ErrDown)
	case unreachable:
		<-ctx.Done()
		return r.probeError(ctx.Err())
	}
	return nil
}

func (r *Replica) probeError(err error) error {
	return &RequestError{Replica: r.ep.ID, Op: "probe", Err: err}
}
