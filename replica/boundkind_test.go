package replica_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/nametest"
	"github.com/readpath/readpath/replica"
)

// Every BoundKind parses back from the name it prints, in any ASCII letter
// case; the names are those of the digest encoding's layout.
func TestBoundKindRoundTrips(t *testing.T) {
	kinds := []replica.BoundKind{replica.BoundBottom, replica.BoundInclusiveStart,
		replica.BoundExclusiveStart, replica.BoundInclusiveEnd, replica.BoundExclusiveEnd, replica.BoundTop}
	names := []string{"bottom", "inclusive start", "exclusive start", "inclusive end", "exclusive end", "top"}
	for i, k := range kinds {
		require.Equal(t, names[i], k.String())
		for _, s := range []string{names[i], strings.ToUpper(names[i]), strings.ToUpper(names[i][:1]) + names[i][1:]} {
			got, err := replica.ParseBoundKind(s)
			require.NoError(t, err, "%q", s)
			assert.Equal(t, k, got, "%q", s)
		}
	}
	assert.Equal(t, "BoundKind(6)", replica.BoundKind(6).String())
	assert.Equal(t, `BoundKind(7)"a"`, replica.Bound{Clustering: "a", Kind: 7}.String())
}

// A name no BoundKind prints, an undefined kind's included, is an error
// wrapping ErrUnknownBoundKind that quotes it.
func TestParseBoundKindRejectsUnknownNames(t *testing.T) {
	for _, s := range []string{"", "BoundKind(6)", "inclusive_start", " top", "top ", "bottom\x00",
		"excluſive end", "min", "max", "[", "inclusive"} {
		got, err := replica.ParseBoundKind(s)
		require.ErrorIs(t, err, replica.ErrUnknownBoundKind, "%q", s)
		assert.Equal(t, replica.BoundKind(0), got)
		assert.Contains(t, err.Error(), strconv.Quote(s), "the error quotes the input")
	}
}

// ParseBoundKind accepts exactly a kind's name with its ASCII letters in any
// case (no Unicode folding, such as ſ for s or the Kelvin sign for k, and no
// trimming), and refuses anything else with an error wrapping
// ErrUnknownBoundKind.
func FuzzParseBoundKind(f *testing.F) {
	for _, s := range []string{"top", "INCLUSIVE END", "excluſive end", "", "BoundKind(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, replica.ParseBoundKind, replica.ErrUnknownBoundKind, replica.BoundBottom,
			replica.BoundInclusiveStart, replica.BoundExclusiveStart, replica.BoundInclusiveEnd,
			replica.BoundExclusiveEnd, replica.BoundTop)
	})
}
