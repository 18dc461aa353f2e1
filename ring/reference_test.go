package ring_test

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// refMurmur3Token is a deliberately literal transcription of Cassandra's
// MurmurHash.hash3_x64_128 and Murmur3Partitioner.getToken: blocks read a
// byte at a time, the tail a switch that falls through with Java's signed
// bytes. It is the reference the fast Murmur3Token is checked and
// benchmarked against.
func refMurmur3Token(key []byte) int64 {
	if len(key) == 0 {
		return math.MinInt64
	}
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	length := len(key)
	var h1, h2 uint64
	block := func(i int) uint64 {
		var v uint64
		for b := 7; b >= 0; b-- {
			v = v<<8 | uint64(key[i*8+b])
		}
		return v
	}
	for i := 0; i < length>>4; i++ {
		h1, h2 = refMixBlock(h1, h2, block(i*2), block(i*2+1))
	}
	off := length &^ 15
	signed := func(i int) uint64 { return uint64(int64(int8(key[off+i]))) }
	var k1, k2 uint64
	switch length & 15 {
	case 15:
		k2 ^= signed(14) << 48
		fallthrough
	case 14:
		k2 ^= signed(13) << 40
		fallthrough
	case 13:
		k2 ^= signed(12) << 32
		fallthrough
	case 12:
		k2 ^= signed(11) << 24
		fallthrough
	case 11:
		k2 ^= signed(10) << 16
		fallthrough
	case 10:
		k2 ^= signed(9) << 8
		fallthrough
	case 9:
		k2 ^= signed(8)
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		fallthrough
	case 8:
		k1 ^= signed(7) << 56
		fallthrough
	case 7:
		k1 ^= signed(6) << 48
		fallthrough
	case 6:
		k1 ^= signed(5) << 40
		fallthrough
	case 5:
		k1 ^= signed(4) << 32
		fallthrough
	case 4:
		k1 ^= signed(3) << 24
		fallthrough
	case 3:
		k1 ^= signed(2) << 16
		fallthrough
	case 2:
		k1 ^= signed(1) << 8
		fallthrough
	case 1:
		k1 ^= signed(0)
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	return refFinish(h1, h2, length)
}

// refMixBlock mixes one 16-byte block, k1 and k2, into h1 and h2.
func refMixBlock(h1, h2, k1, k2 uint64) (uint64, uint64) {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	k1 *= c1
	k1 = bits.RotateLeft64(k1, 31)
	k1 *= c2
	h1 ^= k1
	h1 = bits.RotateLeft64(h1, 27)
	h1 += h2
	h1 = h1*5 + 0x52dce729
	k2 *= c2
	k2 = bits.RotateLeft64(k2, 33)
	k2 *= c1
	h2 ^= k2
	h2 = bits.RotateLeft64(h2, 31)
	h2 += h1
	h2 = h2*5 + 0x38495ab5
	return h1, h2
}

// refFinish is the hash's finalization and Murmur3Partitioner's token of
// it, which is never the minimum token: the empty key's alone.
func refFinish(h1, h2 uint64, length int) int64 {
	h1 ^= uint64(length)
	h2 ^= uint64(length)
	h1 += h2
	h2 += h1
	h1 = refFmix(h1) + refFmix(h2)
	if h1 == 1<<63 { // math.MinInt64 becomes math.MaxInt64
		h1--
	}
	return int64(h1)
}

func refFmix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// refLocate is the straightforward locator the benchmarks compare with:
// it hashes the key, walks the sorted token list from the start and builds
// a fresh replica list for every call.
type refLocate struct {
	tokens []int64
	owners []ring.Node
	rf     int
}

func newRefLocate(r *ring.Ring, rf int) *refLocate {
	ref := &refLocate{tokens: r.Tokens(), rf: rf}
	for _, t := range ref.tokens {
		ref.owners = append(ref.owners, r.Owner(t))
	}
	return ref
}

func (l *refLocate) locate(key string) []string {
	t := refMurmur3Token([]byte(key))
	start := 0
	for start < len(l.tokens) && l.tokens[start] < t {
		start++
	}
	var out []string
	for i := 0; len(out) < l.rf && i < len(l.tokens); i++ {
		id := l.owners[(start+i)%len(l.tokens)].ID
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// locateSearched is locate as a careful engineer writes it: the same hash
// as Locate's (BenchmarkMurmur3Token measures the hash), a binary search
// for the first token at or after the key's, and the replica list
// allocated once at its size. It still places the key on every call.
func (l *refLocate) locateSearched(key string) []string {
	t := ring.Murmur3Token([]byte(key))
	start, _ := slices.BinarySearch(l.tokens, t)
	out := make([]string, 0, l.rf)
	for i := 0; len(out) < l.rf && i < len(l.tokens); i++ {
		id := l.owners[(start+i)%len(l.tokens)].ID
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// leMurmur3Token is refMurmur3Token as a careful engineer writes it in Go:
// each block read as one little-endian word, not a byte at a time.
func leMurmur3Token(key []byte) int64 {
	length := len(key)
	if length == 0 || length&15 != 0 {
		return refMurmur3Token(key) // the benchmark's key is one whole block
	}
	var h1, h2 uint64
	for i := 0; i+16 <= length; i += 16 {
		h1, h2 = refMixBlock(h1, h2, binary.LittleEndian.Uint64(key[i:]), binary.LittleEndian.Uint64(key[i+8:]))
	}
	return refFinish(h1, h2, length)
}

// legacyTopology is the placement of Cassandra before 3.0 (kept in
// Cassandra's NetworkTopologyStrategyTest as calculateNaturalEndpoints, and
// still the Java driver's): nodes on an already used rack are skipped, then
// appended once every rack of the datacenter was seen. Cassandra's test
// accepts that it orders replicas differently from the current algorithm
// but requires the same primary and the same set.
func legacyTopology(nodes []ring.Node, token int64, repl consistency.Replication) []string {
	tokens, owners := sortedVnodes(nodes)
	dcNodes, dcRacks := map[string]int{}, map[string]map[string]bool{}
	for _, n := range nodes {
		dcNodes[n.Datacenter]++
		if dcRacks[n.Datacenter] == nil {
			dcRacks[n.Datacenter] = map[string]bool{}
		}
		dcRacks[n.Datacenter][n.Rack] = true
	}
	need := func(dc string) int { return min(dcNodes[dc], repl.Factor(dc)) }
	var out []string
	got, seen, skipped := map[string]int{}, map[string]map[string]bool{}, map[string][]string{}
	in := map[string]bool{}
	add := func(n ring.Node) {
		if !in[n.ID] {
			in[n.ID] = true
			out = append(out, n.ID)
			got[n.Datacenter]++
		}
	}
	sufficient := func() bool {
		for _, f := range repl.Datacenters() {
			if got[f.Datacenter] < need(f.Datacenter) {
				return false
			}
		}
		return true
	}
	start, _ := slices.BinarySearch(tokens, token)
	for i := 0; i < len(tokens) && !sufficient(); i++ {
		n := owners[(start+i)%len(tokens)]
		dc := n.Datacenter
		if repl.Factor(dc) == 0 || got[dc] >= need(dc) {
			continue
		}
		if seen[dc] == nil {
			seen[dc] = map[string]bool{}
		}
		switch {
		case len(seen[dc]) == len(dcRacks[dc]):
			add(n)
		case seen[dc][n.Rack]:
			if !slices.Contains(skipped[dc], n.ID) && !in[n.ID] {
				skipped[dc] = append(skipped[dc], n.ID)
			}
		default:
			add(n)
			seen[dc][n.Rack] = true
			if len(seen[dc]) == len(dcRacks[dc]) {
				for _, id := range skipped[dc] {
					if got[dc] < need(dc) {
						add(nodeByID(nodes, id))
					}
				}
			}
		}
	}
	return out
}

func sortedVnodes(nodes []ring.Node) ([]int64, []ring.Node) {
	byToken := map[int64]ring.Node{}
	var tokens []int64
	for _, n := range nodes {
		for _, t := range n.Tokens {
			byToken[t] = n
			tokens = append(tokens, t)
		}
	}
	slices.Sort(tokens)
	owners := make([]ring.Node, len(tokens))
	for i, t := range tokens {
		owners[i] = byToken[t]
	}
	return tokens, owners
}

func nodeByID(nodes []ring.Node, id string) ring.Node {
	for _, n := range nodes {
		if n.ID == id {
			return n
		}
	}
	panic("no node " + id)
}
