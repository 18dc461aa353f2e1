package retry

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/typednil"
)

// ErrInvalidStatement is returned, wrapped, by Statement.Validate and by
// Execute for a statement it cannot run.
var ErrInvalidStatement = errors.New("retry: invalid statement")

// Statement is what the executor runs and the policies judge: the
// consistency level the application asked for, whether the statement is
// idempotent, and optionally its own policy. It is a small value, safe to
// copy and to share.
type Statement struct {
	// Level is the consistency level the application asked for. Policies
	// receive the statement with Level set to the failed attempt's level.
	Level consistency.Level
	// Idempotent says whether the statement may be applied twice. Leave it
	// unset only if the executor's default (false) is right. Counter updates
	// and lightweight transactions must never be marked Idempotent.
	Idempotent Idempotence
	// Policy, if not nil, replaces the executor's policy for this statement,
	// as an execution profile does: for example FallthroughPolicy for
	// counter updates, which no failure makes safe to retry.
	Policy Policy
}

// Validate returns an error wrapping ErrInvalidStatement for an undefined
// level or idempotence, a Policy that is a nil pointer in its interface
// (not nil, so it would replace the executor's, and fail at its first
// call), or a Policy whose own Validate method fails (wrapping its error).
func (s Statement) Validate() error {
	if typednil.Holds(s.Policy) {
		return fmt.Errorf("%w: a nil %T as its policy", ErrInvalidStatement, s.Policy)
	}
	if err := policyError(s.Policy); err != nil {
		return fmt.Errorf("%w: its policy: %w", ErrInvalidStatement, err)
	}
	if !s.Level.Valid() {
		return fmt.Errorf("%w: consistency level %s", ErrInvalidStatement, s.Level)
	}
	if !s.Idempotent.Valid() {
		return fmt.Errorf("%w: idempotence %s", ErrInvalidStatement, s.Idempotent)
	}
	return nil
}
