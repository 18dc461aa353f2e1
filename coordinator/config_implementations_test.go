package coordinator_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// nilHooks is an Observer and outcome reporter on a pointer.
type nilHooks struct{ panickingHooks }

// A Locator, Liveness, Observer or outcome reporter that is a nil pointer
// (or func) in its interface, so not nil, and a Budget NewBudget did not
// make, are refused by New, naming the field: accepted, each crashed the
// first read that used it.
func TestNewRefusesUnusableImplementations(t *testing.T) {
	var loc *ring.Locator
	var fn coordinator.LocatorFunc
	var cl *replicatest.Cluster
	var hooks *nilHooks
	for field, cfg := range map[string]coordinator.Config{
		"Locator":  {Locator: loc},
		"Locator ": {Locator: fn},
		"Liveness": {Locator: nowhere, Liveness: cl},
		"Observer": {Locator: nowhere, Observer: hooks},
		"Outcomes": {Locator: nowhere, Outcomes: hooks},
		"Budget":   {Locator: nowhere, Budget: &retry.Budget{}},
	} {
		c, err := coordinator.New(cfg)
		assert.ErrorIs(t, err, coordinator.ErrInvalidConfig, field)
		assert.ErrorContains(t, err, field)
		assert.Nil(t, c, field)
	}
}

// expectsEvents is a test double's Observer whose Validate, called when
// the test ends, fails until it has seen an event.
type expectsEvents struct {
	coordinator.ObserverFuncs
	seen int
}

func (o *expectsEvents) Validate() error {
	if o.seen == 0 {
		return errors.New("no event observed")
	}
	return nil
}

// New calls the Validate of a Locator, Liveness or outcome reporter, as a
// ring.Locator or ring.Detector may be those, but not an Observer's, which
// no ring type is, and whose Validate may mean something else: this one's
// failed New before any read (found by review).
func TestNewDoesNotValidateTheObserver(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere, Observer: &expectsEvents{}})
	require.NoError(t, err)
	c.Close()
}
