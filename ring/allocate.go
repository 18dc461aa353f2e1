package ring

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/readpath/readpath/consistency"
)

// RandomTokens draws n tokens for a new node uniformly from the token
// space, as Cassandra does without allocate_tokens_for_local_replication_factor
// (Murmur3Partitioner.getRandomToken), skipping MinToken and the tokens r
// already holds (r may be nil). rng is used from one goroutine; a nil rng
// draws from math/rand/v2's top-level source, seeded at random. An n of 0
// or less draws none. n must be at most 1536, the most tokens Cassandra
// lets a node have (num_tokens, DatabaseDescriptor.MAX_NUM_TOKENS): a
// larger n panics, as make does with a length past what memory can hold.
//
// Random tokens balance poorly with few tokens per node: see the package
// documentation for the ownership imbalance measured with 16 and 256.
func RandomTokens(rng *rand.Rand, n int, r *Ring) []int64 {
	if n > maxRandomTokens {
		panic("ring: RandomTokens: n " + strconv.Itoa(n) + " above " +
			strconv.Itoa(maxRandomTokens) + " tokens per node")
	}
	taken := map[int64]bool{MinToken: true}
	if r != nil {
		for _, t := range r.tokens {
			taken[t] = true
		}
	}
	draw := rand.Uint64
	if rng != nil {
		draw = rng.Uint64
	}
	out := make([]int64, 0, max(n, 0))
	for len(out) < n {
		t := int64(draw())
		if !taken[t] {
			taken[t] = true
			out = append(out, t)
		}
	}
	return out
}

// maxRandomTokens is Cassandra's cap on num_tokens
// (DatabaseDescriptor.MAX_NUM_TOKENS).
const maxRandomTokens = 1536

// Ownership returns, for each node ID, the fraction of the token space
// whose data the node holds a replica of under repl: Cassandra's
// "effective ownership" (nodetool status). Under a replication the ring
// can satisfy, the fractions add up to the replication factor. An invalid
// repl gets its Validate error.
func (r *Ring) Ownership(repl consistency.Replication) (map[string]float64, error) {
	if err := repl.Validate(); err != nil {
		return nil, err
	}
	w := r.newWalker(repl)
	owned := make([]float64, len(r.nodes))
	var picked []int32
	for i := range r.tokens {
		share := r.rangeSize(i) / math.Exp2(64)
		picked = w.walk(i, picked)
		for _, n := range picked {
			owned[n] += share
		}
	}
	out := make(map[string]float64, len(r.nodes))
	for i, n := range r.nodes {
		out[n.ID] = owned[i]
	}
	return out, nil
}

// rangeSize is the number of tokens in the range ending at tokens[i]:
// (tokens[i-1], tokens[i]], wrapping, the whole ring for a single token.
func (r *Ring) rangeSize(i int) float64 {
	prev := r.tokens[(i+len(r.tokens)-1)%len(r.tokens)]
	size := uint64(r.tokens[i]) - uint64(prev)
	if size == 0 {
		return math.Exp2(64)
	}
	return float64(size)
}
