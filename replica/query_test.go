package replica_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func slice(start, end replica.Bound) replica.Slice { return replica.Slice{Start: start, End: end} }

func TestQueryValidate(t *testing.T) {
	tests := []struct {
		name    string
		q       replica.Query
		message string // "" when valid
	}{
		{"the zero query", replica.Query{}, ""},
		{"no slice", replica.Query{Slices: []replica.Slice{}}, ""},
		{"every row", replica.Query{Slices: []replica.Slice{replica.AllRows()}, Reversed: true, Limit: 3}, ""},
		{"touching slices", replica.Query{Slices: []replica.Slice{
			slice(replica.StartAt("a"), replica.EndBefore("b")), slice(replica.StartAt("b"), replica.EndAt("c")),
			slice(replica.StartAfter("c"), replica.Top())}}, ""},
		{"one key", replica.Query{Slices: []replica.Slice{slice(replica.StartAt("a"), replica.EndAt("a"))}}, ""},
		{"negative limit", replica.Query{Limit: -1}, "replica: invalid query: negative limit -1"},
		{"an end starting", replica.Query{Slices: []replica.Slice{slice(replica.EndAt("a"), replica.Top())}},
			`replica: invalid query: slice 0: starting with "a"], not a start bound`},
		{"a start ending", replica.Query{Slices: []replica.Slice{replica.AllRows(), slice(replica.StartAt("a"), replica.StartAt("b"))}},
			`replica: invalid query: slice 1: ending with ["b", not an end bound`},
		{"an unknown kind", replica.Query{Slices: []replica.Slice{slice(replica.Bottom(), replica.Bound{Kind: 9})}},
			`replica: invalid query: slice 0: ending with BoundKind(9)"", not an end bound`},
		{"bottom with a key", replica.Query{Slices: []replica.Slice{slice(replica.Bound{Clustering: "a"}, replica.Top())}},
			"replica: invalid query: slice 0: open bound with a clustering key"},
		{"top with a key", replica.Query{Slices: []replica.Slice{slice(replica.Bottom(), replica.Bound{Kind: replica.BoundTop, Clustering: "a"})}},
			"replica: invalid query: slice 0: open bound with a clustering key"},
		{"empty", replica.Query{Slices: []replica.Slice{slice(replica.StartAfter("a"), replica.EndAt("a"))}},
			`replica: invalid query: slice 0: ("a", "a"] selects no clustering key`},
		{"empty between a key and its successor", replica.Query{Slices: []replica.Slice{slice(replica.StartAfter("a"), replica.EndBefore("a\x00"))}},
			`replica: invalid query: slice 0: ("a", "a\x00") selects no clustering key`},
		{"reversed", replica.Query{Slices: []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("a"))}},
			`replica: invalid query: slice 0: ["b", "a"] selects no clustering key`},
		{"overlapping", replica.Query{Slices: []replica.Slice{slice(replica.StartAt("a"), replica.EndAt("b")), slice(replica.StartAt("b"), replica.Top())}},
			"replica: invalid query: slice 1: slices out of order or overlapping (NormalizeSlices joins them)"},
		{"out of order", replica.Query{Slices: []replica.Slice{slice(replica.StartAt("c"), replica.Top()), slice(replica.Bottom(), replica.EndAt("a"))}},
			"replica: invalid query: slice 1: slices out of order or overlapping (NormalizeSlices joins them)"},
	}
	for _, tt := range tests {
		err := tt.q.Validate()
		if tt.message == "" {
			assert.NoError(t, err, tt.name)
			continue
		}
		assert.EqualError(t, err, tt.message, tt.name)
		assert.ErrorIs(t, err, replica.ErrInvalidQuery, tt.name)
		var qe *replica.QueryError
		assert.ErrorAs(t, err, &qe, tt.name)
	}
}

func TestQueryContains(t *testing.T) {
	q := replica.Query{Slices: []replica.Slice{
		slice(replica.Bottom(), replica.EndBefore("a")),
		slice(replica.StartAfter("b"), replica.EndAt("c")),
		slice(replica.StartAt("e"), replica.EndBefore("f")),
		slice(replica.StartAfter("g"), replica.Top()),
	}}
	for k, want := range map[string]bool{
		"": true, "\x00": true, "a": false, "a\x00": false, "b": false, "b\x00": true, "ba": true, "c": true, "c\x00": false,
		"d": false, "e": true, "ez": true, "f": false, "g": false, "g\x00": true, "zzz": true,
	} {
		assert.Equal(t, want, q.Contains(k), "%q", k)
	}
	assert.True(t, replica.Query{}.Contains("anything"), "nil slices hold every row")
	assert.False(t, replica.Query{Slices: []replica.Slice{}}.Contains(""), "an empty list holds none")
}

func TestQuerySelectsAllRows(t *testing.T) {
	tests := []struct {
		slices []replica.Slice
		want   bool
	}{
		{nil, true},
		{[]replica.Slice{}, false},
		{[]replica.Slice{replica.AllRows()}, true},
		// Explicit bounds restrict, even where they select every row.
		{[]replica.Slice{slice(replica.StartAt(""), replica.Top())}, false},
		{[]replica.Slice{slice(replica.StartAfter(""), replica.Top())}, false},
		{[]replica.Slice{slice(replica.Bottom(), replica.EndBefore("b")), slice(replica.StartAt("b"), replica.Top())}, false},
		{[]replica.Slice{slice(replica.Bottom(), replica.EndAt("b")), slice(replica.StartAt("b\x00"), replica.Top())}, false},
		{[]replica.Slice{slice(replica.Bottom(), replica.EndAt("b")), slice(replica.StartAt("c"), replica.Top())}, false},
		{[]replica.Slice{slice(replica.Bottom(), replica.EndAt("z"))}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, replica.Query{Slices: tt.slices}.SelectsAllRows(), "%v", tt.slices)
	}
}

func TestQueryAfter(t *testing.T) {
	two := []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("d")), slice(replica.StartAfter("f"), replica.EndBefore("h"))}
	tests := []struct {
		name     string
		q        replica.Query
		after    string
		want     []replica.Slice
		reversed bool
	}{
		{"every row", replica.Query{}, "c", []replica.Slice{slice(replica.StartAfter("c"), replica.Top())}, false},
		{"every row, reversed", replica.Query{Reversed: true}, "c", []replica.Slice{slice(replica.Bottom(), replica.EndBefore("c"))}, true},
		{"inside the first", replica.Query{Slices: two, Limit: 2}, "c",
			[]replica.Slice{slice(replica.StartAfter("c"), replica.EndAt("d")), two[1]}, false},
		{"at the end of the first", replica.Query{Slices: two}, "d", two[1:], false},
		{"between", replica.Query{Slices: two}, "e", two[1:], false},
		{"before everything", replica.Query{Slices: two}, "a", two, false},
		{"past the last", replica.Query{Slices: two}, "h", []replica.Slice{}, false},
		{"inside the last", replica.Query{Slices: two}, "g", []replica.Slice{slice(replica.StartAfter("g"), replica.EndBefore("h"))}, false},
		{"reversed, inside the last", replica.Query{Slices: two, Reversed: true}, "g",
			[]replica.Slice{two[0], slice(replica.StartAfter("f"), replica.EndBefore("g"))}, true},
		{"reversed, at the start of the first", replica.Query{Slices: two, Reversed: true}, "b", []replica.Slice{}, true},
		{"reversed, before its successor", replica.Query{Slices: two, Reversed: true}, "c\x00",
			[]replica.Slice{slice(replica.StartAt("b"), replica.EndAt("c"))}, true},
		{"reversed, at the empty key", replica.Query{Reversed: true}, "", []replica.Slice{}, true},
	}
	for _, tt := range tests {
		got := tt.q.After(tt.after)
		assert.Equal(t, tt.want, got.Slices, tt.name)
		assert.NotNil(t, got.Slices, tt.name)
		assert.Equal(t, tt.reversed, got.Reversed, tt.name)
		assert.Equal(t, tt.q.Limit, got.Limit, tt.name)
		assert.NoError(t, got.Validate(), tt.name)
	}
	orig := append([]replica.Slice(nil), two...)
	_ = replica.Query{Slices: two}.After("c")
	assert.Equal(t, orig, two, "After does not modify q's slices")
}

// After keeps exactly the rows of q strictly after the clustering in q's
// order.
func TestQueryAfterProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := queryGen().Draw(t, "q")
		c := clusteringKey.Draw(t, "after")
		next := q.After(c)
		require.NoError(t, next.Validate())
		for _, k := range keyUniverse {
			beyond := k > c
			if q.Reversed {
				beyond = k < c
			}
			assert.Equal(t, q.Contains(k) && beyond, next.Contains(k), "%v after %q holds %q", q, c, k)
		}
	})
}

func TestQueryContainsMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := queryGen().Draw(t, "q")
		for _, k := range keyUniverse {
			assert.Equal(t, referenceContains(q.Slices, k), q.Contains(k), "%v holds %q", q.Slices, k)
		}
		assert.Equal(t, selectsEverything(q.Slices), q.SelectsAllRows(), "%v", q.Slices)
	})
}

// Vectors from apache/cassandra test/unit/org/apache/cassandra/db/filter/
// SliceTest.java, testSliceNormalization, with Int32 clustering keys encoded
// big-endian with the sign bit flipped so that they order as bytes: s(a, b)
// is [a, b].
func TestNormalizeSlicesCassandraVectors(t *testing.T) {
	s := func(start, end int32) replica.Slice {
		return slice(replica.StartAt(int32Key(start)), replica.EndAt(int32Key(end)))
	}
	tests := []struct{ in, want []replica.Slice }{
		{[]replica.Slice{s(0, 2), s(2, 4)}, []replica.Slice{s(0, 4)}},
		{[]replica.Slice{s(0, 2), s(1, 4)}, []replica.Slice{s(0, 4)}},
		{[]replica.Slice{s(0, 2), s(3, 4), s(3, 4)}, []replica.Slice{s(0, 2), s(3, 4)}},
		{[]replica.Slice{s(-1, 3), s(-1, 4)}, []replica.Slice{s(-1, 4)}},
		{[]replica.Slice{s(-1, 2), s(-1, 3), s(5, 9)}, []replica.Slice{s(-1, 3), s(5, 9)}},
	}
	for _, tt := range tests {
		got, err := replica.NormalizeSlices(tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%v", tt.in)
	}
}

func int32Key(v int32) string {
	return string(binary.BigEndian.AppendUint32(nil, uint32(v)^1<<31))
}

func TestNormalizeSlices(t *testing.T) {
	tests := []struct {
		name    string
		in      []replica.Slice
		want    []replica.Slice
		message string
	}{
		{"nil", nil, []replica.Slice{}, ""},
		{"only empty slices", []replica.Slice{slice(replica.StartAfter("a"), replica.EndAt("a")), slice(replica.StartAt("b"), replica.EndAt("a"))}, []replica.Slice{}, ""},
		{"touching through the successor key", []replica.Slice{slice(replica.StartAt("a\x00"), replica.EndAt("b")), slice(replica.StartAt("a"), replica.EndAt("a"))},
			[]replica.Slice{slice(replica.StartAt("a"), replica.EndAt("b"))}, ""},
		{"contained", []replica.Slice{replica.AllRows(), slice(replica.StartAt("a"), replica.EndAt("b"))}, []replica.Slice{replica.AllRows()}, ""},
		{"apart", []replica.Slice{slice(replica.StartAfter("c"), replica.Top()), slice(replica.Bottom(), replica.EndBefore("a"))},
			[]replica.Slice{slice(replica.Bottom(), replica.EndBefore("a")), slice(replica.StartAfter("c"), replica.Top())}, ""},
		{"a bound of the wrong kind", []replica.Slice{replica.AllRows(), slice(replica.Top(), replica.Bottom())}, nil,
			"replica: invalid query: slice 1: starting with max), not a start bound"},
	}
	for _, tt := range tests {
		got, err := replica.NormalizeSlices(tt.in)
		if tt.message != "" {
			assert.EqualError(t, err, tt.message, tt.name)
			assert.ErrorIs(t, err, replica.ErrInvalidQuery, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.SliceOfN(anySliceGen(), 0, 5).Draw(t, "slices")
		got, err := replica.NormalizeSlices(in)
		require.NoError(t, err)
		require.NotNil(t, got)
		require.NoError(t, replica.Query{Slices: got}.Validate())
		for _, k := range keyUniverse {
			held := false
			for _, s := range in {
				held = held || s.Contains(k)
			}
			assert.Equal(t, held, replica.Query{Slices: got}.Contains(k), "%v from %v holds %q", got, in, k)
		}
		for i := 1; i < len(got); i++ {
			assert.Positive(t, got[i].Start.Compare(got[i-1].End), "touching slices are joined: %v", got)
		}
	})
}

func TestSliceString(t *testing.T) {
	assert.Equal(t, `["a", "b")`, slice(replica.StartAt("a"), replica.EndBefore("b")).String())
	assert.Equal(t, "(min, max)", replica.AllRows().String())
}

// keyUniverse holds every clustering key the generators use, and keys
// between them.
var keyUniverse = func() []string {
	keys := []string{""}
	for _, a := range []string{"a", "b", "c"} {
		keys = append(keys, a, a+"\x00")
		for _, b := range []string{"a", "b", "c"} {
			keys = append(keys, a+b, a+b+"\x00")
			for _, c := range []string{"a", "b", "c"} {
				keys = append(keys, a+b+c)
			}
		}
	}
	keys = append(keys, "\x00", "d")
	return keys
}()

// referenceContains reports whether a slice of slices holds k, by the
// reference positions of bound_test.go.
func referenceContains(in []replica.Slice, k string) bool {
	if in == nil {
		return true
	}
	for _, s := range in {
		start, _ := reference(s.Start)
		end, finite := reference(s.End)
		if start <= k && (!finite || k+"\x00" <= end) {
			return true
		}
	}
	return false
}

var clusteringKey = rapid.SampledFrom(keyUniverse)

// anySliceGen draws a slice of start and end bounds at keys of the
// universe, perhaps empty.
func anySliceGen() *rapid.Generator[replica.Slice] {
	return rapid.Custom(func(t *rapid.T) replica.Slice {
		return slice(startBoundGen().Draw(t, "start"), endBoundGen().Draw(t, "end"))
	})
}

func startBoundGen() *rapid.Generator[replica.Bound] {
	return rapid.Custom(func(t *rapid.T) replica.Bound {
		switch k := clusteringKey.Draw(t, "key"); rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return replica.Bottom()
		case 1:
			return replica.StartAt(k)
		default:
			return replica.StartAfter(k)
		}
	})
}

func endBoundGen() *rapid.Generator[replica.Bound] {
	return rapid.Custom(func(t *rapid.T) replica.Bound {
		switch k := clusteringKey.Draw(t, "key"); rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return replica.Top()
		case 1:
			return replica.EndAt(k)
		default:
			return replica.EndBefore(k)
		}
	})
}

// queryGen draws valid queries: nil slices now and then, else ordered
// slices that may touch, with bounds in every form, the position after a
// key sometimes written as the one before its successor (k+"\x00").
func queryGen() *rapid.Generator[replica.Query] {
	return rapid.Custom(func(t *rapid.T) replica.Query {
		q := replica.Query{Reversed: rapid.Bool().Draw(t, "reversed"), Limit: rapid.IntRange(0, 4).Draw(t, "limit")}
		if rapid.IntRange(0, 4).Draw(t, "all") == 0 {
			return q
		}
		keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"", "a", "ab", "b", "ba", "c", "cc"}), 0, 4, rapid.ID).Draw(t, "keys")
		slices.Sort(keys)
		q.Slices = slicesOver(t, keys)
		return q
	})
}

// slicesOver draws slices between positions before and after keys.
func slicesOver(t *rapid.T, keys []string) []replica.Slice {
	type pos struct {
		key          string
		after, edges bool
	}
	ps := []pos{{edges: true}}
	for _, k := range keys {
		ps = append(ps, pos{key: k}, pos{key: k, after: true})
	}
	ps = append(ps, pos{edges: true, after: true})
	out := []replica.Slice{}
	at := 0
	for range rapid.IntRange(0, 3).Draw(t, "slices") {
		start := rapid.IntRange(at, len(ps)-1).Draw(t, "start")
		if start >= len(ps)-1 {
			break
		}
		end := rapid.IntRange(start+1, len(ps)-1).Draw(t, "end")
		out = append(out, slice(startOf(t, ps[start].key, ps[start].after, ps[start].edges), endOf(t, ps[end].key, ps[end].after, ps[end].edges)))
		at = end
	}
	return dropEmpty(out)
}

func startOf(t *rapid.T, key string, after, edge bool) replica.Bound {
	switch {
	case edge:
		return replica.Bottom()
	case after && rapid.Bool().Draw(t, "successor"):
		return replica.StartAt(key + "\x00")
	case after:
		return replica.StartAfter(key)
	}
	return replica.StartAt(key)
}

func endOf(t *rapid.T, key string, after, edge bool) replica.Bound {
	switch {
	case edge:
		return replica.Top()
	case after && rapid.Bool().Draw(t, "successor"):
		return replica.EndBefore(key + "\x00")
	case after:
		return replica.EndAt(key)
	}
	return replica.EndBefore(key)
}

// dropEmpty drops slices that hold no key: two positions drawn apart can
// still be one, as before "" and Bottom.
func dropEmpty(in []replica.Slice) []replica.Slice {
	out := in[:0]
	for _, s := range in {
		if s.Start.Compare(s.End) < 0 {
			out = append(out, s)
		}
	}
	return out
}
