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

// checkPlacement validates the locator's answer before anything is sent.
func checkPlacement(reps []replica.Replica, repl consistency.Replication) error {
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
		id := r.Endpoint().ID
		for _, o := range reps[:i] {
			if o.Endpoint().ID == id {
				return fmt.Errorf("%w: replica %q listed twice", ErrBadPlacement, id)
			}
		}
	}
	return nil
}
