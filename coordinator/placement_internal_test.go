package coordinator

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// placementOf returns replicas with the given IDs, and their endpoints.
func placementOf(ids ...string) ([]replica.Replica, []replica.Endpoint) {
	reps := make([]replica.Replica, len(ids))
	for i, id := range ids {
		reps[i] = replicatest.NewReplica(replica.Endpoint{ID: id, Datacenter: "dc1", Rack: "r1"})
	}
	return reps, endpoints(reps, nil)
}

// The duplicate check compares fingerprints first: IDs whose fingerprints
// agree must still be told apart, and a duplicate found wherever it is,
// beyond the replicas a read plans without allocating too.
func TestCheckPlacementFindsDuplicatesWhateverTheirFingerprints(t *testing.T) {
	repl := consistency.Simple(3)
	// "a10" and "b10": same length, same last two bytes.
	assert.Equal(t, fingerprint("a10"), fingerprint("b10"))
	reps, eps := placementOf("a10", "b10", "c10")
	assert.NoError(t, checkPlacement(reps, eps, repl), "different IDs of one fingerprint")

	for _, ids := range [][]string{
		{"a10", "b10", "a10"},
		{"x", "", "x"},
		{"", "y", ""},
	} {
		reps, eps := placementOf(ids...)
		assert.ErrorIs(t, checkPlacement(reps, eps, repl), ErrBadPlacement, "%q", ids)
	}

	var many []string
	for i := range inlineReplicas + 4 {
		many = append(many, fmt.Sprintf("n%d", i))
	}
	reps, eps = placementOf(many...)
	assert.NoError(t, checkPlacement(reps, eps, repl), "%d distinct replicas", len(many))
	for _, dup := range []int{3, inlineReplicas + 1} {
		ids := append(append([]string(nil), many...), many[dup])
		reps, eps := placementOf(ids...)
		assert.ErrorIs(t, checkPlacement(reps, eps, repl), ErrBadPlacement, "n%d listed twice among %d", dup, len(ids))
	}
}
