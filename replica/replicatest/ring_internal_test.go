package replicatest

import (
	"math/rand/v2"
	"slices"
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

// A key's first replica is the node that owns the first token at or after
// the key's token (Cassandra's TokenMetadata.firstToken, then the walk
// clockwise from it), not the node of the token after that. The nodes'
// tokens are drawn again here from the seed, as newRing draws them: node i
// its TokensPerNode tokens in turn.
func TestAKeysFirstReplicaOwnsTheFirstTokenAtOrAfterIt(t *testing.T) {
	const seed, perNode = 5, 2
	c, err := NewCluster(ClusterConfig{
		Datacenters: []Datacenter{{Name: "dc1", Nodes: 4}},
		Replication: consistency.Simple(2), Seed: seed, TokensPerNode: perNode,
	})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	owner := map[uint64]string{}
	var tokens []uint64
	for _, n := range c.replicas {
		for range perNode {
			tok := rng.Uint64()
			owner[tok] = n.ep.ID
			tokens = append(tokens, tok)
		}
	}
	slices.Sort(tokens)
	for i := range 1000 {
		key := "k" + strconv.Itoa(i)
		j, _ := slices.BinarySearch(tokens, xxh3.HashString(key))
		if j == len(tokens) {
			j = 0
		}
		if got, want := c.ring.locate(key).nodes[0].ep.ID, owner[tokens[j]]; got != want {
			t.Fatalf("key %q, token %d, is first on %s; want %s, the owner of token %d, the first at or after it", key, xxh3.HashString(key), got, want, tokens[j])
		}
	}
}
