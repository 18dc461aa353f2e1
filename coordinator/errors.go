package coordinator

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/replica"
)

// ErrWrongKey is wrapped by the failure of a replica that answered a data
// read with a partition of another key.
var ErrWrongKey = errors.New("coordinator: replica answered with the wrong partition")

// PanicError is the failure recorded for a replica whose Read or Apply
// panicked. The coordinator recovers the panic; the read goes on without
// that replica.
type PanicError struct {
	Endpoint replica.Endpoint
	Value    any
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("coordinator: replica %s panicked: %v", e.Endpoint.ID, e.Value)
}

// checkData rejects a data answer the read cannot use.
func checkData(cmd *replica.Command, p *replica.Partition) error {
	if p.Key != cmd.Key {
		return fmt.Errorf("%w: asked for %q, got %q", ErrWrongKey, cmd.Key, p.Key)
	}
	return p.Validate()
}
