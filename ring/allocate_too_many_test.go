package ring_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/readpath/readpath/ring"
)

// RandomTokens draws at most 1536 tokens, Cassandra's num_tokens cap; a
// larger n panics with a message naming it. math.MaxInt panicked in
// makeslice, with a runtime message naming neither the function nor n
// (found by review).
func TestRandomTokensAboveTheCapPanicsClearly(t *testing.T) {
	if got := ring.RandomTokens(rand.New(rand.NewPCG(1, 2)), 1536, nil); len(got) != 1536 {
		t.Fatalf("%d tokens, want 1536", len(got))
	}
	for _, n := range []int{1537, math.MaxInt} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "ring: RandomTokens: n ") {
					t.Errorf("RandomTokens(%d) panicked with %q, want a message naming it", n, msg)
				}
			}()
			ring.RandomTokens(rand.New(rand.NewPCG(1, 2)), n, nil)
		}()
	}
}
