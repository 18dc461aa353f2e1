package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
)

// The enums' String methods name every defined value, and an undefined
// one as Strategy does, rather than panic: a Trace or an event built or
// decoded outside the coordinator may hold any value.
func TestEnumStringsNameUndefinedValues(t *testing.T) {
	for _, c := range []struct {
		v    interface{ String() string }
		want string
	}{
		{coordinator.KindRepair, "repair"},
		{coordinator.RequestKind(7), "RequestKind(7)"},
		{coordinator.PhaseShortRead, "short read"},
		{coordinator.Phase(9), "Phase(9)"},
		{coordinator.Failed, "failed"},
		{coordinator.Outcome(3), "Outcome(3)"},
		{coordinator.NoCandidate, "no candidate"},
		{coordinator.SuppressCause(4), "SuppressCause(4)"},
	} {
		assert.NotPanics(t, func() { assert.Equal(t, c.want, c.v.String()) }, c.want)
	}
}
