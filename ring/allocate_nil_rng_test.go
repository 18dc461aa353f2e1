package ring_test

import (
	"testing"

	"github.com/readpath/readpath/ring"
)

// A nil rng draws from math/rand/v2's top-level source, as a nil Rand
// does in testing/quick's Config: RandomTokens's doc says so. It panicked
// with a nil pointer dereference inside (*rand.Rand).Uint64, an error
// naming neither the function nor its argument (found by review).
func TestRandomTokensWithANilRngDrawsFromTheDefaultSource(t *testing.T) {
	r := mustRing(t, randomNodes(3, 1, 16, 1, 1))
	tokens := ring.RandomTokens(nil, 256, r)
	if len(tokens) != 256 {
		t.Fatalf("%d tokens, want 256", len(tokens))
	}
	if _, err := r.With(ring.Node{ID: "new", Tokens: tokens}); err != nil {
		t.Errorf("the drawn tokens do not join the ring: %v", err)
	}
}
