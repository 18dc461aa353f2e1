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
	eps, err := endpoints(reps, nil, nil)
	if err != nil {
		panic(err) // fakes' Endpoint does not panic
	}
	return reps, eps
}

// The duplicate check finds a duplicate wherever it is, among IDs that
// share their length and ends (addresses with one port) too, and beyond
// the replicas a read plans without allocating, in tables reused from
// check to check.
func TestCheckPlacementFindsDuplicates(t *testing.T) {
	repl := consistency.Simple(3)
	var spill dupTables
	reps, eps := placementOf("a10", "b10", "c10")
	assert.NoError(t, checkPlacement(reps, eps, repl, "dc1", true, &spill), "different IDs of one length and end")

	for _, ids := range [][]string{
		{"a10", "b10", "a10"},
		{"x", "", "x"},
		{"", "y", ""},
	} {
		reps, eps := placementOf(ids...)
		assert.ErrorIs(t, checkPlacement(reps, eps, repl, "dc1", true, &spill), ErrBadPlacement, "%q", ids)
	}

	for _, n := range []int{inlineReplicas, inlineReplicas + 4, 72, 20} { // 20 after 72: a larger table reused
		var many []string
		for i := range n {
			many = append(many, fmt.Sprintf("10.0.%d.%d:9042", i/8, i%8))
		}
		reps, eps = placementOf(many...)
		repl := consistency.Simple(n + 1) // room for the duplicate: the check that fails is the duplicates'
		assert.NoError(t, checkPlacement(reps, eps, repl, "dc1", true, &spill), "%d distinct replicas", n)
		for _, dup := range []int{0, 3, n - 1} {
			ids := append(append([]string(nil), many...), many[dup])
			reps, eps := placementOf(ids...)
			err := checkPlacement(reps, eps, repl, "dc1", true, &spill)
			assert.ErrorIs(t, err, ErrBadPlacement, "%s listed twice among %d", many[dup], len(ids))
			assert.ErrorContains(t, err, "listed twice")
		}
	}
}

// IDs that differ only in the middle, as addresses of one port do, or
// that are short, get different fingerprints: the duplicate check then
// compares no pair of them as strings.
func TestFingerprintsTellAddressesApart(t *testing.T) {
	seen := map[uint64]string{}
	var ids []string
	for i := range 256 {
		ids = append(ids, fmt.Sprintf("10.0.%d.%d:9042", i/16, i%16), fmt.Sprintf("192.168.%d.15:9042", i), fmt.Sprintf("n%d", i))
	}
	for _, id := range ids {
		fp := fingerprint(id)
		if other, ok := seen[fp]; ok {
			t.Fatalf("%q and %q share a fingerprint", other, id)
		}
		seen[fp] = id
	}
}
