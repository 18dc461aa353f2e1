package replicatest

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/replica"
)

var (
	// ErrInvalidConfig is matched by every *ConfigError.
	ErrInvalidConfig = errors.New("replicatest: invalid configuration")
	// ErrDown is the failure of a replica with the Down fault. It wraps
	// replica.ErrConnectionFailed: the node refuses connections.
	ErrDown = fmt.Errorf("replicatest: replica is down: %w", replica.ErrConnectionFailed)
	// ErrOverloaded is the failure of a request that found a replica's queue
	// full. It wraps replica.ErrOverloaded: the request was refused unrun.
	ErrOverloaded = fmt.Errorf("replicatest: replica is overloaded: %w", replica.ErrOverloaded)
	// ErrInjected is the failure of a replica with an ErrorAfter fault whose
	// error is nil.
	ErrInjected = errors.New("replicatest: injected error")
	// ErrInjectedPanic is wrapped by the value a replica with the Panics
	// fault panics with.
	ErrInjectedPanic = errors.New("replicatest: injected panic")
	// ErrUnknownReplica reports a replica ID the cluster does not have.
	ErrUnknownReplica = errors.New("replicatest: unknown replica")
	// ErrUnknownTable reports a table outside a cluster's ClusterConfig.Tables.
	ErrUnknownTable = errors.New("replicatest: unknown table")
)

// ConfigError says which setting of a replica, a behaviour, a latency model
// or a cluster is invalid and why. Nothing was changed. Like every error
// here it is not modified after it is returned, so sharing it is safe.
type ConfigError struct {
	Setting string
	Reason  string
	// Err is the underlying error, if another package reported the
	// problem (an invalid consistency.Replication, say).
	Err error
}

func (e *ConfigError) Error() string {
	return "replicatest: invalid " + e.Setting + ": " + e.Reason
}

// Is makes errors.Is(err, ErrInvalidConfig) hold.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// Unwrap returns the underlying error, if any.
func (e *ConfigError) Unwrap() error { return e.Err }

// invalid returns a *ConfigError with a formatted reason.
func invalid(setting, format string, args ...any) *ConfigError {
	return &ConfigError{Setting: setting, Reason: fmt.Sprintf(format, args...)}
}

// RequestError is how a fake replica fails a Read, an Apply or a Probe:
// Replica is its ID, Op is "read", "apply" or "probe", and Err the cause —
// ErrDown, ErrOverloaded, the context's error, an injected error, an invalid
// command's error, Respond's *replica.TombstoneOverwhelmingError, the merge's
// error, or the *ConfigError of a replica NewReplica could not configure —
// which errors.Is and errors.As see through Unwrap. It is not modified after
// it is returned, so it may be shared between goroutines.
type RequestError struct {
	Replica string
	Op      string
	Err     error
}

func (e *RequestError) Error() string {
	msg := "replicatest: " + e.Op + " on " + e.Replica
	if e.Err == nil { // a value made by hand: Error must not panic
		return msg
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }
