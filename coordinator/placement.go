package coordinator

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// ErrBadPlacement is wrapped by the errors of a read whose locator answered
// something unusable: no replicas, a nil replica, a replica ID listed twice,
// or an invalid replication.
var ErrBadPlacement = errors.New("coordinator: bad placement")

// checkPlacement validates the locator's answer before anything is sent;
// replica i's endpoint is eps[i].
func checkPlacement(reps []replica.Replica, eps []replica.Endpoint, repl consistency.Replication) error {
	if err := repl.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrBadPlacement, err)
	}
	if len(reps) == 0 {
		return fmt.Errorf("%w: no replicas", ErrBadPlacement)
	}
	for i, r := range reps {
		if r == nil {
			return fmt.Errorf("%w: replica %d is nil", ErrBadPlacement, i)
		}
		for _, o := range eps[:i] {
			if o.ID == eps[i].ID {
				return fmt.Errorf("%w: replica %q listed twice", ErrBadPlacement, o.ID)
			}
		}
	}
	return nil
}

// endpoints asks each replica for its endpoint once, into buf; a nil
// replica gets the zero endpoint, for checkPlacement to reject.
func endpoints(reps []replica.Replica, buf []replica.Endpoint) []replica.Endpoint {
	for _, r := range reps {
		var ep replica.Endpoint
		if r != nil {
			ep = r.Endpoint()
		}
		buf = append(buf, ep)
	}
	return buf
}
