package ring_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// probeError is an embedder's error type whose Unwrap, like most, reads
// its receiver.
type probeError struct{ err error }

func (e *probeError) Error() string { return "probe: " + e.err.Error() }
func (e *probeError) Unwrap() error { return e.err }

// A probe that returns a nil pointer as its error (Go's non-nil nil
// error), or an error wrapping one, is a failed probe, as one that panics is: the detector goes on
// probing, where errors.Is, looking for errors.ErrUnsupported, called the
// pointer's Unwrap on the probing goroutine and crashed the process.
func TestAProbeReturningANilPointerFails(t *testing.T) {
	typedNil := func(context.Context) error {
		var err *probeError
		return err
	}
	wrapped := func(context.Context) error {
		var err error = (*probeError)(nil)
		return fmt.Errorf("adapter: %w", err)
	}
	wantTwoProbesFailed(t, typedNil, wrapped)
}

// A Connect that returns a nil pointer as its error fails with a
// *ConnectError that names the type, where the error NewLocator returned
// crashed whoever printed it or matched it with errors.Is.
func TestAConnectReturningANilPointerFails(t *testing.T) {
	connect := func(n ring.Node) (replica.Replica, error) {
		var err *probeError
		return nil, err
	}
	_, err := ring.NewLocator(ring.LocatorConfig{Nodes: randomNodes(5, 4, 4, 2, 2), Tables: tables, Connect: connect})
	var connErr *ring.ConnectError
	if !errors.As(err, &connErr) {
		t.Fatalf("NewLocator = %v, want a *ConnectError", err)
	}
	if errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "nil *ring_test.probeError") {
		t.Errorf("NewLocator = %v, want an error naming the nil *ring_test.probeError", err)
	}
}
