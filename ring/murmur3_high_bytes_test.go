package ring_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Keys of every length from 0 to 48 (every tail length, with and without
// whole 16-byte blocks) made of bytes at and above 0x80, which Java's
// (long) of a byte sign-extends in MurmurHash.hash3_x64_128's tail
// (apache/cassandra src/java/org/apache/cassandra/utils/MurmurHash.java):
// Murmur3Token agrees with the literal transcription refMurmur3Token, and
// Locate, which hashes the key as a string, places each key where the
// token of its bytes falls.
func TestMurmur3SignedTailsAndTheStringPath(t *testing.T) {
	var nodes []ring.Node
	for i := range 16 {
		nodes = append(nodes, ring.Node{ID: string(rune('a' + i)), Datacenter: "dc1", Rack: "r1",
			Tokens: []int64{ring.MinToken + int64(i+1)*(1<<59)}})
	}
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes,
		Tables:  map[string]consistency.Replication{"t": consistency.Simple(1)},
		Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil }})
	require.NoError(t, err)
	for _, fill := range []byte{0x80, 0xff, 0xc3, 0x7f, 0x00} {
		for n := 0; n <= 48; n++ {
			key := make([]byte, n)
			for i := range key {
				key[i] = fill + byte(i*37)
			}
			tok := ring.Murmur3Token(key)
			require.Equal(t, refMurmur3Token(key), tok, "fill %#x length %d", fill, n)
			if n == 0 {
				assert.Equal(t, ring.MinToken, tok)
			} else {
				assert.NotEqual(t, ring.MinToken, tok, "only the empty key has MinToken")
			}
			reps, _, err := l.Locate("t", string(key))
			require.NoError(t, err)
			require.Len(t, reps, 1)
			assert.Equal(t, l.Ring().Owner(tok).ID, reps[0].Endpoint().ID, "fill %#x length %d", fill, n)
		}
	}
}
