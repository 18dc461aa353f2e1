package replica_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func TestBoundConstructors(t *testing.T) {
	assert.Equal(t, replica.Bound{}, replica.Bottom(), "the zero Bound is Bottom")
	assert.Equal(t, replica.Bound{Kind: replica.BoundTop}, replica.Top())
	assert.Equal(t, replica.Bound{Clustering: "a", Kind: replica.BoundInclusiveStart}, replica.StartAt("a"))
	assert.Equal(t, replica.Bound{Clustering: "a", Kind: replica.BoundExclusiveStart}, replica.StartAfter("a"))
	assert.Equal(t, replica.Bound{Clustering: "a", Kind: replica.BoundInclusiveEnd}, replica.EndAt("a"))
	assert.Equal(t, replica.Bound{Clustering: "a", Kind: replica.BoundExclusiveEnd}, replica.EndBefore("a"))
	for _, b := range []replica.Bound{replica.Bottom(), replica.StartAt("a"), replica.StartAfter("a")} {
		assert.True(t, b.IsStart(), "%v", b)
		assert.False(t, b.IsEnd(), "%v", b)
	}
	for _, b := range []replica.Bound{replica.Top(), replica.EndAt("a"), replica.EndBefore("a")} {
		assert.True(t, b.IsEnd(), "%v", b)
		assert.False(t, b.IsStart(), "%v", b)
	}
	odd := replica.Bound{Kind: 9}
	assert.False(t, odd.IsStart() || odd.IsEnd())
}

func TestBoundCompare(t *testing.T) {
	// In order; bounds on one line stand for the same position.
	order := [][]replica.Bound{
		{replica.Bottom(), replica.StartAt(""), replica.EndBefore("")},
		{replica.StartAfter(""), replica.EndAt(""), replica.StartAt("\x00"), replica.EndBefore("\x00")},
		{replica.StartAfter("\x00"), replica.EndAt("\x00"), replica.StartAt("\x00\x00")},
		{replica.StartAt("a"), replica.EndBefore("a")},
		{replica.StartAfter("a"), replica.EndAt("a"), replica.StartAt("a\x00"), replica.EndBefore("a\x00")},
		{replica.StartAt("a\x01"), replica.EndBefore("a\x01")},
		{replica.StartAt("ab"), replica.EndBefore("ab")},
		{replica.StartAfter("ab"), replica.EndAt("ab")},
		{replica.StartAt("b")},
		{replica.StartAt("\xff")},
		{replica.Top()},
	}
	for i, line := range order {
		for _, a := range line {
			for j, other := range order {
				for _, b := range other {
					want := 0
					if i < j {
						want = -1
					} else if i > j {
						want = 1
					}
					assert.Equal(t, want, a.Compare(b), "%v against %v", a, b)
				}
			}
		}
	}
}

// reference returns the position of b as a key before which it stands: the
// position after k is the one before k+"\x00". Top has none (false).
func reference(b replica.Bound) (string, bool) {
	switch b.Kind {
	case replica.BoundBottom:
		return "", true
	case replica.BoundExclusiveStart, replica.BoundInclusiveEnd:
		return b.Clustering + "\x00", true
	case replica.BoundTop:
		return "", false
	}
	return b.Clustering, true
}

var boundKey = rapid.SampledFrom([]string{"", "\x00", "\x00\x00", "a", "a\x00", "a\x00\x00", "a\x01", "ab", "b"})

func boundGen() *rapid.Generator[replica.Bound] {
	return rapid.Custom(func(t *rapid.T) replica.Bound {
		kind := replica.BoundKind(rapid.IntRange(0, 5).Draw(t, "kind"))
		if kind == replica.BoundBottom || kind == replica.BoundTop {
			return replica.Bound{Kind: kind}
		}
		return replica.Bound{Kind: kind, Clustering: boundKey.Draw(t, "key")}
	})
}

func compareReferences(a, b replica.Bound) int {
	ra, finiteA := reference(a)
	rb, finiteB := reference(b)
	if !finiteA || !finiteB {
		return compareBool(!finiteA, !finiteB)
	}
	return strings.Compare(ra, rb)
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func TestBoundCompareMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := boundGen().Draw(t, "a"), boundGen().Draw(t, "b")
		assert.Equal(t, compareReferences(a, b), a.Compare(b), "%v against %v", a, b)
	})
}

func TestBoundCanonicalForms(t *testing.T) {
	tests := []struct {
		b          replica.Bound
		start, end replica.Bound
	}{
		{replica.Bottom(), replica.Bottom(), replica.Bottom()},
		{replica.StartAt(""), replica.Bottom(), replica.Bottom()},
		{replica.StartAt("a"), replica.StartAt("a"), replica.EndBefore("a")},
		{replica.EndBefore("a"), replica.StartAt("a"), replica.EndBefore("a")},
		{replica.StartAfter("a"), replica.StartAfter("a"), replica.EndAt("a")},
		{replica.EndAt("a"), replica.StartAfter("a"), replica.EndAt("a")},
		{replica.StartAt("a\x00"), replica.StartAfter("a"), replica.EndAt("a")},
		{replica.EndBefore("a\x00"), replica.StartAfter("a"), replica.EndAt("a")},
		{replica.StartAt("\x00"), replica.StartAfter(""), replica.EndAt("")},
		{replica.Top(), replica.Top(), replica.Top()},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.start, tt.b.AsStart(), "%v as a start", tt.b)
		assert.Equal(t, tt.end, tt.b.AsEnd(), "%v as an end", tt.b)
	}
	rapid.Check(t, func(t *rapid.T) {
		a, b := boundGen().Draw(t, "a"), boundGen().Draw(t, "b")
		for _, c := range []replica.Bound{a.AsStart(), a.AsEnd()} {
			assert.Zero(t, c.Compare(a), "%v canonicalises to %v, elsewhere", a, c)
		}
		assert.Equal(t, a.AsStart(), a.AsStart().AsStart())
		assert.Equal(t, a.AsStart(), a.AsEnd().AsStart())
		assert.Equal(t, a.Compare(b) == 0, a.AsStart() == b.AsStart(), "%v and %v", a, b)
		assert.Equal(t, a.Compare(b) == 0, a.AsEnd() == b.AsEnd(), "%v and %v", a, b)
	})
}

func TestRangeTombstoneCovers(t *testing.T) {
	d := replica.DeletedAt(1, 1)
	rt := replica.NewRangeTombstone(replica.StartAfter("a"), replica.EndAt("c"), d)
	for k, want := range map[string]bool{"": false, "a": false, "a\x00": true, "b": true, "c": true, "c\x00": false, "d": false} {
		assert.Equal(t, want, rt.Covers(k), "%q", k)
	}
	all := replica.NewRangeTombstone(replica.Bottom(), replica.Top(), d)
	for _, k := range []string{"", "\x00", "zzz"} {
		assert.True(t, all.Covers(k), "%q", k)
	}
	rapid.Check(t, func(t *rapid.T) {
		start, end, k := boundGen().Draw(t, "start"), boundGen().Draw(t, "end"), boundKey.Draw(t, "k")
		want := compareReferences(start, replica.StartAt(k)) <= 0 && compareReferences(replica.EndAt(k), end) <= 0
		assert.Equal(t, want, replica.NewRangeTombstone(start, end, d).Covers(k), "[%v, %v] covers %q", start, end, k)
	})
}

func TestBoundString(t *testing.T) {
	assert.Equal(t, "(min", replica.Bottom().String())
	assert.Equal(t, "max)", replica.Top().String())
	assert.Equal(t, `["a"`, replica.StartAt("a").String())
	assert.Equal(t, `("a"`, replica.StartAfter("a").String())
	assert.Equal(t, `"a"]`, replica.EndAt("a").String())
	assert.Equal(t, `"a\x00")`, replica.EndBefore("a\x00").String())
	assert.Equal(t, `BoundKind(9)"a"`, replica.Bound{Kind: 9, Clustering: "a"}.String())
}
