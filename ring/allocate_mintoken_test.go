package ring_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/readpath/readpath/ring"
)

// drawnInTurn is a rand.Source that returns its values in turn.
type drawnInTurn struct{ vals []uint64 }

func (s *drawnInTurn) Uint64() uint64 {
	v := s.vals[0]
	s.vals = s.vals[1:]
	return v
}

// RandomTokens skips MinToken, as its doc says: MinToken is the token of
// the empty key only (Murmur3Token maps a hash of math.MinInt64 to MaxToken),
// never one a node is given. A draw of MinToken (1<<63 as a uint64) is
// drawn again; MaxToken is a token like any other.
func TestRandomTokensSkipsMinToken(t *testing.T) {
	src := &drawnInTurn{vals: []uint64{1 << 63, 1<<63 - 1, 1 << 63, 5}}
	got := ring.RandomTokens(rand.New(src), 2, nil)
	if want := []int64{ring.MaxToken, 5}; !slices.Equal(got, want) {
		t.Errorf("RandomTokens = %v, want %v", got, want)
	}
}
