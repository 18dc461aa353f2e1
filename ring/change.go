package ring

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/readpath/readpath/internal/enumname"
	"github.com/readpath/readpath/replica"
)

// Cause says why a Detector changed its mind about a node. It is a plain
// value, safe for concurrent use.
type Cause uint8

// The causes of a Change.
const (
	// HeartbeatsStopped: phi exceeded the threshold.
	HeartbeatsStopped Cause = iota + 1
	// ConnectionFailed: ConnectionFailures connection failures in a row.
	ConnectionFailed
	// HeartbeatsResumed: a heartbeat arrived from a node convicted by phi.
	HeartbeatsResumed
	// ProbeSucceeded: a probe of a convicted replica answered.
	ProbeSucceeded
	// ReadmitTimeout: ReadmitAfter passed for a replica with no Prober.
	ReadmitTimeout
)

var causeNames = [...]string{"", "heartbeats stopped", "connection failed", "heartbeats resumed", "probe succeeded", "readmit timeout"}

// String names the cause, e.g. "connection failed".
func (c Cause) String() string {
	if int(c) < len(causeNames) && c != 0 {
		return causeNames[c]
	}
	return "Cause(" + strconv.Itoa(int(c)) + ")"
}

// ErrUnknownCause is wrapped by ParseCause's errors, and by
// Cause.MarshalText's for the zero or an undefined Cause.
var ErrUnknownCause = errors.New("ring: unknown cause")

// ParseCause parses a name String returns, such as "connection failed", in
// any ASCII letter case. The zero Cause has no name.
func ParseCause(s string) (Cause, error) {
	for c := HeartbeatsStopped; int(c) < len(causeNames); c++ {
		// Equal lengths keep the folding to ASCII: "ſ" is no "s".
		if len(s) == len(causeNames[c]) && strings.EqualFold(s, causeNames[c]) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownCause, s)
}

// MarshalText implements encoding.TextMarshaler with the cause's name, so
// that a Change in JSON says "connection failed", not 2. The zero or an
// undefined Cause, which has no name, is an error wrapping ErrUnknownCause.
func (c Cause) MarshalText() ([]byte, error) {
	return enumname.Marshal(c, causeNames[:], ErrUnknownCause)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseCause. On
// error c is left unchanged.
func (c *Cause) UnmarshalText(b []byte) error { return enumname.Unmarshal(c, b, ParseCause) }

// Change is a transition of a node between up and down. It is a plain
// value, safe for concurrent use. In JSON its Cause is its name and At is
// RFC 3339.
type Change struct {
	// Endpoint is the node as the detector knows it: a node known only by
	// its heartbeats has only an ID.
	Endpoint replica.Endpoint
	Alive    bool
	Cause    Cause
	At       time.Time
}

// String renders the change as "n1 (dc1/r1) down at ...: connection failed".
func (c Change) String() string {
	state := "down"
	if c.Alive {
		state = "up"
	}
	return c.Endpoint.String() + " " + state + " at " + c.At.Format(time.RFC3339Nano) + ": " + c.Cause.String()
}
