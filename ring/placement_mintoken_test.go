package ring_test

import (
	"math"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// A node may hold MinToken (RandomTokens never draws it, but an operator
// may assign it). Its range is (the largest token, MinToken]: the tokens
// past the largest, wrapping, and MinToken itself, the empty key's, as
// Cassandra's TokenMetadata.firstToken finds it; MinToken + 1 is the next
// node's. Its effective ownership counts those tokens, not the whole ring.
func TestANodeHoldingMinToken(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "a", Datacenter: "dc1", Rack: "r1", Tokens: []int64{ring.MinToken}},
		{ID: "b", Datacenter: "dc1", Rack: "r1", Tokens: []int64{0}},
	})
	for _, tc := range []struct {
		token int64
		want  string
	}{
		{ring.MinToken, "a"}, {ring.MinToken + 1, "b"}, {0, "b"}, {1, "a"}, {ring.MaxToken, "a"},
	} {
		if got := r.Owner(tc.token).ID; got != tc.want {
			t.Errorf("Owner(%d) = %s, want %s", tc.token, got, tc.want)
		}
	}
	own, err := r.Ownership(consistency.Simple(1))
	if err != nil {
		t.Fatal(err)
	}
	// a holds (0, MaxToken] and MinToken: 2^63 tokens, half the ring.
	if own["a"] != 0.5 || own["b"] != 0.5 {
		t.Errorf("ownership %v, want a and b 0.5", own)
	}

	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: r.Nodes(),
		Tables:  map[string]consistency.Replication{"t": consistency.Simple(1)},
		Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.New(n.Endpoint()) }})
	if err != nil {
		t.Fatal(err)
	}
	reps, _, err := l.Locate("t", "") // the empty key's token is MinToken
	if err != nil || len(reps) != 1 || reps[0].Endpoint().ID != "a" {
		t.Errorf("Locate of the empty key: %v, %v; want a", reps, err)
	}
	// A node at MaxToken leaves a only MinToken itself.
	r2, err := r.With(ring.Node{ID: "c", Datacenter: "dc1", Rack: "r2", Tokens: []int64{math.MaxInt64}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r2.Owner(ring.MaxToken).ID; got != "c" {
		t.Errorf("Owner(MaxToken) = %s, want c", got)
	}
	got, _ := r2.ReplicasFor(ring.MinToken, consistency.NetworkTopology(map[string]int{"dc1": 2}))
	if want := []string{"a", "c"}; !slices.Equal(ids(got), want) { // b shares a's rack
		t.Errorf("replicas of MinToken %v, want %v", ids(got), want)
	}
	own, _ = r2.Ownership(consistency.Simple(1))
	if own["a"] != math.Exp2(-64) {
		t.Errorf("a owns %v of the ring, want one token, 2^-64", own["a"])
	}
}
