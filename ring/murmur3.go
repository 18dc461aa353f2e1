package ring

import (
	"math"
	"math/bits"
)

// MinToken and MaxToken bound Murmur3Partitioner's token space. MinToken is
// the token of the empty key only: no non-empty key hashes to it, because
// Cassandra maps a hash of math.MinInt64 to MaxToken.
const (
	MinToken int64 = math.MinInt64
	MaxToken int64 = math.MaxInt64
)

const (
	murmurC1 = 0x87c37b91114253d5
	murmurC2 = 0x4cf5ad432745937f
)

// Murmur3Token returns the token Cassandra's Murmur3Partitioner gives the
// serialized partition key: h1 of MurmurHash3_x64_128 with seed 0, computed
// as Cassandra computes it, so that tokens agree bit for bit with Cassandra
// and its drivers. An empty key has MinToken, and a hash of math.MinInt64 is
// mapped to MaxToken. It allocates nothing and is safe for concurrent use.
//
// Cassandra hashes the serialized key: for a single-column partition key the
// column's value in its CQL binary encoding (an int is 4 big-endian bytes, a
// text its UTF-8 bytes), for a composite partition key the CompositeKey
// encoding of its components.
func Murmur3Token(key []byte) int64 { return token(key) }

// token is Murmur3Token over either a string or a byte slice, so that
// Locate hashes a string key without converting it.
func token[K string | []byte](key K) int64 {
	if len(key) == 0 {
		return MinToken
	}
	h := int64(murmur3H1(key))
	if h == math.MinInt64 {
		return MaxToken
	}
	return h
}

// murmur3H1 is h1 of MurmurHash3_x64_128 with seed 0, with Cassandra's
// tail: the last len%16 bytes are sign-extended before they are shifted
// into place (Java's bytes are signed), which differs from the reference
// C++ for bytes >= 0x80. The 16-byte blocks are read unsigned, as in C++.
func murmur3H1[K string | []byte](key K) uint64 {
	var h1, h2 uint64
	n := len(key)
	for i := 0; i+16 <= n; i += 16 {
		h1, h2 = murmurBlock(h1, h2, le64(key[i:i+8]), le64(key[i+8:i+16]))
	}
	k1, k2 := murmurTail(key[n&^15:])
	h1 ^= mixK1(k1)
	h2 ^= mixK2(k2)
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	return h1 + h2
}

func le64[K string | []byte](b K) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func murmurBlock(h1, h2, k1, k2 uint64) (uint64, uint64) {
	h1 ^= mixK1(k1)
	h1 = bits.RotateLeft64(h1, 27) + h2
	h1 = h1*5 + 0x52dce729
	h2 ^= mixK2(k2)
	h2 = bits.RotateLeft64(h2, 31) + h1
	h2 = h2*5 + 0x38495ab5
	return h1, h2
}

// murmurTail folds the last 0..15 bytes into k1 (bytes 0-7) and k2 (bytes
// 8-14), each byte sign-extended as Java's (long) of a byte does: a byte at
// or above 0x80 sets every bit above its own position. XOR makes the
// folding order irrelevant.
func murmurTail[K string | []byte](tail K) (k1, k2 uint64) {
	for i := 0; i < len(tail); i++ {
		v := uint64(int64(int8(tail[i]))) << (8 * (i & 7))
		if i < 8 {
			k1 ^= v
		} else {
			k2 ^= v
		}
	}
	return k1, k2
}

// mixK1 and mixK2 are zero for a zero k: an absent tail half mixes nothing
// in, as in the reference, where the tail's switch skips it.
func mixK1(k uint64) uint64 {
	k *= murmurC1
	k = bits.RotateLeft64(k, 31)
	return k * murmurC2
}

func mixK2(k uint64) uint64 {
	k *= murmurC2
	k = bits.RotateLeft64(k, 33)
	return k * murmurC1
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
