package replica_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// fuzzSlices decodes up to four slices from data, two bytes a bound: a
// kind, of which 6 and 7 are no kind at all, and a key of keyUniverse.
func fuzzSlices(data []byte) []replica.Slice {
	bound := func(i int) replica.Bound {
		if i+1 >= len(data) {
			return replica.Bound{}
		}
		return replica.Bound{Kind: replica.BoundKind(data[i] % 8), Clustering: keyUniverse[int(data[i+1])%len(keyUniverse)]}
	}
	var in []replica.Slice
	for i := 0; i+3 < len(data) && len(in) < 4; i += 4 {
		in = append(in, replica.Slice{Start: bound(i), End: bound(i + 2)})
	}
	return in
}

// badBounds is the index of the first slice of in whose bounds are of the
// wrong kind, or an open bound with a key, or -1.
func badBounds(in []replica.Slice) int {
	for i, s := range in {
		open := (s.Start.Kind == replica.BoundBottom && s.Start.Clustering != "") ||
			(s.End.Kind == replica.BoundTop && s.End.Clustering != "")
		if s.Start.Kind > replica.BoundExclusiveStart || s.End.Kind < replica.BoundInclusiveEnd || s.End.Kind > replica.BoundTop || open {
			return i
		}
	}
	return -1
}

// FuzzNormalizeSlices checks NormalizeSlices and Query.Validate on slices
// of any bounds: a refusal is a *QueryError naming the first slice at
// fault, and what is accepted selects, normalized, the keys the slices
// select, as a valid query whose After keeps the keys after one.
func FuzzNormalizeSlices(f *testing.F) {
	f.Add([]byte{}, false)
	f.Add([]byte{1, 1, 3, 5}, false)
	f.Add([]byte{0, 0, 5, 0, 1, 3, 4, 9}, true)
	f.Add([]byte{2, 7, 3, 2, 1, 1, 4, 20, 0, 1, 5, 0}, false)
	f.Add([]byte{6, 1, 3, 2}, false)
	f.Add([]byte{1, 1, 4, 18, 1, 18, 3, 35}, false) // ["a", "b") and ["b", "c"] touch
	f.Fuzz(func(t *testing.T, data []byte, reversed bool) {
		in := fuzzSlices(data)
		before := slices.Clone(in)
		out, err := replica.NormalizeSlices(in)
		require.Equal(t, before, in, "NormalizeSlices changed its input")
		requireQueryError(t, err, badBounds(in))
		if err == nil {
			requireNormal(t, in, out)
		}
		q := replica.Query{Slices: in, Reversed: reversed}
		if verr := q.Validate(); verr != nil {
			var qe *replica.QueryError
			require.ErrorAs(t, verr, &qe)
			require.True(t, qe.Slice >= 0 && qe.Slice < len(in), "slice %d of %d", qe.Slice, len(in))
			return
		}
		require.NoError(t, err, "a valid query's slices do not normalize")
		requireAfter(t, q)
	})
}

// requireQueryError checks that err is a *QueryError naming slice bad, or
// nil when bad is -1.
func requireQueryError(t *testing.T, err error, bad int) {
	t.Helper()
	if bad < 0 {
		require.NoError(t, err)
		return
	}
	var qe *replica.QueryError
	require.ErrorAs(t, err, &qe)
	require.True(t, errors.Is(err, replica.ErrInvalidQuery))
	require.Equal(t, bad, qe.Slice, "%v", err)
}

// requireNormal checks that out, NormalizeSlices's result for in, is valid,
// normal, its own normal form, sharing no memory with in, and selects
// what in does.
func requireNormal(t *testing.T, in, out []replica.Slice) {
	t.Helper()
	require.NotNil(t, out)
	require.NoError(t, replica.Query{Slices: out}.Validate())
	for _, k := range keyUniverse {
		held := slices.ContainsFunc(in, func(s replica.Slice) bool { return s.Contains(k) })
		require.Equal(t, held, replica.Query{Slices: out}.Contains(k), "%v from %v holds %q", out, in, k)
	}
	for i := 1; i < len(out); i++ {
		require.Positive(t, out[i].Start.Compare(out[i-1].End), "touching slices are joined: %v", out)
	}
	again, err := replica.NormalizeSlices(out)
	require.NoError(t, err)
	require.Equal(t, out, again, "normalizing twice")
	if len(out) > 0 && len(in) > 0 {
		before := slices.Clone(in)
		out[0].Start.Clustering += "x"
		require.Equal(t, before, in, "the result shares memory with the input")
	}
}

// requireAfter checks that q.After(k) is valid and keeps the keys of q
// beyond k in q's order, for every k.
func requireAfter(t *testing.T, q replica.Query) {
	t.Helper()
	for _, c := range keyUniverse {
		next := q.After(c)
		require.NoError(t, next.Validate(), "%v after %q", q, c)
		requireBeyond(t, q, next, c, keyUniverse)
	}
}

// requireBeyond checks that next holds exactly those of keys that q holds
// beyond last in q's order.
func requireBeyond(t *testing.T, q, next replica.Query, last string, keys []string) {
	t.Helper()
	for _, k := range keys {
		beyond := k > last
		if q.Reversed {
			beyond = k < last
		}
		require.Equal(t, q.Contains(k) && beyond, next.Contains(k), "%v after %q holds %q", q, last, k)
	}
}
