package latency

import "errors"

// ErrInvalidSpeculativeRetry is returned, wrapped, for a speculative retry
// policy that is not in the grammar or out of range; the message quotes the
// offending input.
var ErrInvalidSpeculativeRetry = errors.New("latency: invalid speculative retry policy")

// ErrUnknownKind is returned, wrapped, by ParseKind for a name that is no
// Kind, and by Kind.MarshalText for the zero or an undefined Kind.
var ErrUnknownKind = errors.New("latency: unknown speculative retry kind")
