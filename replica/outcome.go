package replica

import (
	"context"
	"errors"
	"syscall"
	"time"
)

// ErrConnectionFailed is matched (errors.Is) by an adapter's error when the
// replica could not be reached at all: the connection was refused or reset,
// or there is no route to the node. A failure detector convicts on such
// errors; it never convicts on a timeout, so that a slow cluster does not
// turn into an unavailable one. Adapters should wrap their transport's
// connection errors with it; IsConnectionFailure also recognises the usual
// system errors.
var ErrConnectionFailed = errors.New("replica: connection failed")

// ErrOverloaded is matched (errors.Is) by an adapter's error when the
// replica refused the request unrun because it is overloaded: its queue
// was full (Cassandra's OverloadedException, gRPC's RESOURCE_EXHAUSTED).
// The coordinator takes it as that replica's failure, as any error, and
// hedges around it; a failure detector does not convict on it (see
// IsConnectionFailure): the node is up, and busy.
var ErrOverloaded = errors.New("replica: overloaded")

// IsConnectionFailure reports whether err says the replica could not be
// reached: it matches ErrConnectionFailed, or the system errors for a
// refused, reset or aborted connection, a write to one the peer closed
// (EPIPE), and an unreachable host or network. A context's error, a
// timeout or a replica's own error is not one, unless it wraps one of
// those too (the coordinator reports a request it cut short with its
// context's error alone).
func IsConnectionFailure(err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, ErrConnectionFailed):
		return true
	}
	for _, errno := range connectionErrnos {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

var connectionErrnos = []error{
	syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
	syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EPIPE,
}

// Outcome is how one request to a replica ended, as the coordinator saw it.
// It is a plain value, safe for concurrent reads.
type Outcome struct {
	Replica  Replica
	Endpoint Endpoint
	// Err is nil for an answer. A request the coordinator or its caller
	// cut short (the read had its answers, a hedge won, the read or a
	// repair write timed out, the caller gave up, Close) ends with the
	// context's error, whatever error the adapter returned once its
	// context had ended: a transport error an adapter gives for a
	// cancelled call (ErrConnectionFailed, say) is not the node's failure.
	// It is decided as the call returns: one that failed before its
	// context ended keeps its error. A panic is the replica's failure
	// whenever it comes.
	Err error
	// Latency is from when the request was sent to when it ended.
	Latency time.Duration
}

// OutcomeReporter is told how each request to a replica ended. A failure
// detector implements it to learn from the coordinator's own traffic (see
// coordinator.Config.Outcomes). It is called on the goroutine that ran the
// request, so it must be quick, must not block, and must be safe for
// concurrent use.
type OutcomeReporter interface {
	ReportOutcome(Outcome)
}

// Prober is implemented by a replica adapter that can check, cheaply and
// without a read, whether its node answers again (a ping, or opening a
// connection). A failure detector probes a convicted replica through it to
// readmit the replica without wasting a client's read on it. Probe returns
// nil when the node answered; it must honour ctx. An error matching
// errors.ErrUnsupported says that the replica cannot be probed after all,
// and a failure detector then treats it as no Prober: a decorator of
// replicas (adding metrics, say) implements Probe to forward it, and
// returns that for a replica that is not one. Like Read and Apply, Probe
// must be safe for concurrent use.
type Prober interface {
	Probe(ctx context.Context) error
}
