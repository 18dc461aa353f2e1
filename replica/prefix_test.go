package replica_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// prefixKey draws short keys over bytes where the edges are: 0x00, 0xff
// and a letter.
var prefixKey = rapid.Custom(func(t *rapid.T) string {
	return string(rapid.SliceOfN(rapid.SampledFrom([]byte{0x00, 0x01, 'a', 0xfe, 0xff}), 0, 4).Draw(t, "bytes"))
})

// PrefixSlice holds exactly the keys that begin with its prefix, and
// PrefixEnd and its start form split every key into those up to and
// including the prefix's keys and those after them.
func TestPrefixSliceHoldsTheKeysWithThePrefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, k := prefixKey.Draw(t, "prefix"), prefixKey.Draw(t, "key")
		has := strings.HasPrefix(k, p)
		if got := replica.PrefixSlice(p).Contains(k); got != has {
			t.Fatalf("PrefixSlice(%q).Contains(%q) = %v", p, k, got)
		}
		upTo := replica.Slice{Start: replica.Bottom(), End: replica.PrefixEnd(p)}
		if got, want := upTo.Contains(k), k < p || has; got != want {
			t.Fatalf("(c) <= (%q) holds %q: %v", p, k, got)
		}
		after := replica.Slice{Start: replica.PrefixEnd(p).AsStart(), End: replica.Top()}
		if after.Contains(k) == upTo.Contains(k) {
			t.Fatalf("%q is on both sides of, or neither side of, the end of %q", k, p)
		}
	})
}

func TestPrefixEnd(t *testing.T) {
	assert.Equal(t, replica.EndBefore("b"), replica.PrefixEnd("a"))
	assert.Equal(t, replica.EndBefore("b"), replica.PrefixEnd("a\xff\xff"))
	assert.Equal(t, replica.Top(), replica.PrefixEnd("\xff"))
	assert.Equal(t, replica.Top(), replica.PrefixEnd(""))
	assert.Equal(t, replica.AllRows(), replica.PrefixSlice(""))
}

// Past a prefix of 0xff bytes only there is no key: PrefixEnd's start is
// Top, which no slice may start at, so a relation "greater than" it must
// be taken as selecting no row, not made a slice.
func TestNothingFollowsAPrefixOfFFBytes(t *testing.T) {
	start := replica.PrefixEnd("\xff\xff").AsStart()
	assert.Equal(t, replica.Top(), start)
	q := replica.Query{Slices: []replica.Slice{{Start: start, End: replica.Top()}}}
	assert.Error(t, q.Validate())
}
