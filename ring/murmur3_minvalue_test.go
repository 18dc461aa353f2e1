package ring_test

import (
	"encoding/binary"
	"math/bits"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Murmur3Partitioner.getToken returns normalize(hash[0]), and normalize maps
// Long.MIN_VALUE to Long.MAX_VALUE (apache/cassandra
// src/java/org/apache/cassandra/dht/Murmur3Partitioner.java), so that only
// the empty key has the minimum token. No random key hashes to
// Long.MIN_VALUE, so minValueKey builds one: MurmurHash3_x64_128 of one
// 16-byte block with an empty tail (utils/MurmurHash.java) is a chain of
// invertible steps (xor-shifts by 33, multiplications by odd constants,
// rotations, additions), run here backwards from an h1 of 1<<63.
func TestMurmur3TokenOfAHashOfLongMinValue(t *testing.T) {
	key := minValueKey()
	if h := rawH1OneBlock(key); h != 1<<63 {
		t.Fatalf("the constructed key hashes to %#x, not Long.MIN_VALUE", h)
	}
	if got := ring.Murmur3Token(key); got != ring.MaxToken {
		t.Errorf("Murmur3Token(%x) = %d, want MaxToken", key, got)
	}
	if got := refMurmur3Token(key); got != ring.MaxToken {
		t.Errorf("refMurmur3Token(%x) = %d, want MaxToken", key, got)
	}
	// MaxToken falls in the range of the node holding MaxToken; the
	// unnormalized MinToken would fall in the range of the node holding
	// MinToken. Locate hashes the key as a string.
	l, err := ring.NewLocator(ring.LocatorConfig{
		Nodes: []ring.Node{
			{ID: "min", Datacenter: "dc1", Rack: "r1", Tokens: []int64{ring.MinToken}},
			{ID: "zero", Datacenter: "dc1", Rack: "r1", Tokens: []int64{0}},
			{ID: "max", Datacenter: "dc1", Rack: "r1", Tokens: []int64{ring.MaxToken}},
		},
		Tables:  map[string]consistency.Replication{"t": consistency.Simple(1)},
		Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	reps, _, err := l.Locate("t", string(key))
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || reps[0].Endpoint().ID != "max" {
		t.Errorf("Locate of the key hashing to Long.MIN_VALUE: %v, want [max]", endpointIDs(reps))
	}
}

const (
	mmC1 = 0x87c37b91114253d5
	mmC2 = 0x4cf5ad432745937f
	mmF1 = 0xff51afd7ed558ccd
	mmF2 = 0xc4ceb9fe1a85ec53
)

// rawH1OneBlock is hash3_x64_128's hash[0] for a 16-byte key, before
// Murmur3Partitioner normalizes it.
func rawH1OneBlock(key []byte) uint64 {
	h1, h2 := refMixBlock(0, 0, binary.LittleEndian.Uint64(key), binary.LittleEndian.Uint64(key[8:]))
	h1 ^= 16
	h2 ^= 16
	h1 += h2
	h2 += h1
	return refFmix(h1) + refFmix(h2)
}

// minValueKey returns a 16-byte key whose hash[0] is Long.MIN_VALUE.
func minValueKey() []byte {
	f1 := uint64(0x0123456789abcdef) // any split of 1<<63 into fmix(h1) + fmix(h2)
	f2 := uint64(1<<63) - f1
	s1, s2 := unfmix(f1), unfmix(f2) // h1 and h2 after h1 += h2; h2 += h1
	h2 := s2 - s1
	h1 := s1 - h2
	h1, h2 = h1^16, h2^16 // before h ^= length
	// h1 = rotl(mixK1(k1), 27)*5 + 0x52dce729 (h1 and h2 start at seed 0)
	a1 := bits.RotateLeft64((h1-0x52dce729)*oddInverse(5), -27)
	// h2 = (rotl(mixK2(k2), 31) + h1)*5 + 0x38495ab5
	a2 := bits.RotateLeft64((h2-0x38495ab5)*oddInverse(5)-h1, -31)
	k1 := bits.RotateLeft64(a1*oddInverse(mmC2), -31) * oddInverse(mmC1)
	k2 := bits.RotateLeft64(a2*oddInverse(mmC1), -33) * oddInverse(mmC2)
	return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, k1), k2)
}

// unfmix inverts fmix64: a xor-shift by 33 is its own inverse.
func unfmix(k uint64) uint64 {
	k ^= k >> 33
	k *= oddInverse(mmF2)
	k ^= k >> 33
	k *= oddInverse(mmF1)
	k ^= k >> 33
	return k
}

// oddInverse returns the inverse of odd a modulo 2^64 (Newton's iteration).
func oddInverse(a uint64) uint64 {
	x := a // correct to 3 bits for odd a
	for range 5 {
		x *= 2 - a*x
	}
	return x
}
