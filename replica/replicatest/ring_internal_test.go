package replicatest

import (
	"strconv"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/readpath/readpath/consistency"
)

// The ring wraps: a key whose token is past the ring's last token belongs
// to the first token's range, as on Cassandra's ring (TokenMetadata's
// firstToken wraps round to the first token), not to the last's.
func TestAKeyPastTheLastTokenWrapsToTheFirst(t *testing.T) {
	c, err := NewCluster(ClusterConfig{
		Datacenters: []Datacenter{{Name: "dc1", Nodes: 3}},
		Replication: consistency.Simple(1), Seed: 1, TokensPerNode: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	g := c.ring
	last := g.tokens[len(g.tokens)-1]
	if g.owners[0].nodes[0] == g.owners[len(g.owners)-1].nodes[0] {
		t.Fatal("the first and last tokens' owners must differ for the test to tell them apart")
	}
	for i := range 100_000 {
		key := "k" + strconv.Itoa(i)
		if xxh3.HashString(key) <= last {
			continue
		}
		if got, want := g.locate(key).nodes[0].ep.ID, g.owners[0].nodes[0].ep.ID; got != want {
			t.Errorf("key %q, token %d past the last token %d, is on %s, want %s, the first token's owner", key, xxh3.HashString(key), last, got, want)
		}
		return
	}
	t.Fatal("no key past the last token")
}
