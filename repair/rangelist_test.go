package repair_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Vectors ported from Cassandra's RangeTombstoneListTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/RangeTombstoneListTest.java). Each
// RangeTombstoneList.add becomes a version holding that one range
// tombstone, and the list is their Merge: adding to a list is merging, and
// Merge is associative, so addAll is the merge of all the adds. Integer
// clusterings become zero-padded strings, which order alike. Local deletion
// times are 1 where Cassandra's are 0, because the zero Deletion means "not
// deleted" here; they are all equal either way. Cassandra's lists keep
// neighbours with one deletion apart where Merge joins them; no vector
// below has such neighbours.

func ck(i int) string { return fmt.Sprintf("%04d", i) }

// rt is the range [start, end] deleted at ts.
func rt(start, end int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.StartAt(ck(start)), replica.EndAt(ck(end)), replica.DeletedAt(ts, 1))
}

// rtei is (start, end]; rtie is [start, end).
func rtei(start, end int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.StartAfter(ck(start)), replica.EndAt(ck(end)), replica.DeletedAt(ts, 1))
}

func rtie(start, end int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.StartAt(ck(start)), replica.EndBefore(ck(end)), replica.DeletedAt(ts, 1))
}

func atLeast(start int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.StartAt(ck(start)), replica.Top(), replica.DeletedAt(ts, 1))
}

func atMost(end int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.Bottom(), replica.EndAt(ck(end)), replica.DeletedAt(ts, 1))
}

func lessThan(end int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore(ck(end)), replica.DeletedAt(ts, 1))
}

func greaterThan(start int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.StartAfter(ck(start)), replica.Top(), replica.DeletedAt(ts, 1))
}

// added merges versions holding one range tombstone each, in that order.
func added(t *testing.T, rts ...replica.RangeTombstone) []replica.RangeTombstone {
	t.Helper()
	vs := make([]replica.Partition, len(rts))
	for i, r := range rts {
		vs[i] = replica.NewPartition("k").WithRangeTombstones(r)
	}
	return mustMerge(t, vs...).RangeTombstones
}

// search returns the timestamp of the deletion covering clustering i, or -1.
func search(rts []replica.RangeTombstone, i int) int64 {
	for _, r := range rts {
		if r.Covers(ck(i)) {
			return r.Deletion.MarkedForDeleteAt
		}
	}
	return -1
}

func TestRangeTombstoneListVectors(t *testing.T) {
	tests := []struct {
		name      string
		add, want []replica.RangeTombstone
	}{
		{"sortedAdditionTest", []replica.RangeTombstone{rt(1, 5, 3), rt(7, 10, 2), rt(10, 13, 1)},
			[]replica.RangeTombstone{rt(1, 5, 3), rt(7, 10, 2), rtei(10, 13, 1)}},
		{"nonSortedAdditionTest", []replica.RangeTombstone{rt(7, 10, 2), rt(1, 5, 3), rt(10, 13, 1)},
			[]replica.RangeTombstone{rt(1, 5, 3), rt(7, 10, 2), rtei(10, 13, 1)}},
		{"overlappingAdditionTest", []replica.RangeTombstone{rt(4, 10, 3), rt(1, 7, 2), rt(8, 13, 4), rt(0, 15, 1)},
			[]replica.RangeTombstone{rtie(0, 1, 1), rtie(1, 4, 2), rtie(4, 8, 3), rt(8, 13, 4), rtei(13, 15, 1)}},
		{"simpleOverlapTest 1", []replica.RangeTombstone{rt(0, 10, 3), rt(3, 7, 5)},
			[]replica.RangeTombstone{rtie(0, 3, 3), rt(3, 7, 5), rtei(7, 10, 3)}},
		{"simpleOverlapTest 2", []replica.RangeTombstone{rt(0, 10, 3), rt(3, 7, 2)},
			[]replica.RangeTombstone{rt(0, 10, 3)}},
		{"addAllTest", []replica.RangeTombstone{rt(0, 4, 5), rt(6, 10, 2), rt(15, 17, 1), rt(3, 5, 7), rt(7, 8, 3), rt(8, 12, 1), rt(14, 17, 4)},
			[]replica.RangeTombstone{rtie(0, 3, 5), rt(3, 5, 7), rtie(6, 7, 2), rt(7, 8, 3), rtei(8, 10, 2), rtei(10, 12, 1), rt(14, 17, 4)}},
		{"addAllSequentialTest", []replica.RangeTombstone{rt(3, 5, 2), rt(5, 7, 7)},
			[]replica.RangeTombstone{rtie(3, 5, 2), rt(5, 7, 7)}},
		{"addAllIncludedTest", []replica.RangeTombstone{rt(3, 10, 5), rt(4, 5, 2), rt(5, 7, 3), rt(7, 9, 4)},
			[]replica.RangeTombstone{rt(3, 10, 5)}},
		{"nonSortedAdditionTestWithOneTombstoneWithEmptyEnd", []replica.RangeTombstone{rt(7, 10, 2), atLeast(11, 1), rt(1, 5, 3)},
			[]replica.RangeTombstone{rt(1, 5, 3), rt(7, 10, 2), atLeast(11, 1)}},
		{"addRangeWithEmptyEndWitchIncludeExistingRange", []replica.RangeTombstone{rt(4, 10, 3), atLeast(3, 4)},
			[]replica.RangeTombstone{atLeast(3, 4)}},
		{"addRangeWithEmptyStartAndEnd", []replica.RangeTombstone{rt(4, 10, 3), atMost(12, 4)},
			[]replica.RangeTombstone{atMost(12, 4)}},
		{"addRangeWithEmptyEndToRangeWithEmptyStartAndEnd",
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(2, 1)), atLeast(12, 4)},
			[]replica.RangeTombstone{lessThan(12, 2), atLeast(12, 4)}},
		{"addRangeWithEmptyEndWitchIncludeExistingRangeWithEmptyEnd", []replica.RangeTombstone{atLeast(5, 3), atLeast(3, 4)},
			[]replica.RangeTombstone{atLeast(3, 4)}},
		{"addIncludedRangeToRangeWithEmptyEnd", []replica.RangeTombstone{atLeast(3, 3), rt(4, 10, 4)},
			[]replica.RangeTombstone{rtie(3, 4, 3), rt(4, 10, 4), greaterThan(10, 3)}},
		{"addIncludedRangeWithEmptyEndToRangeWithEmptyEnd", []replica.RangeTombstone{atLeast(3, 3), atLeast(5, 4)},
			[]replica.RangeTombstone{rtie(3, 5, 3), atLeast(5, 4)}},
		{"addRangeWithEmptyEndWitchOverlapExistingRange", []replica.RangeTombstone{rt(4, 10, 3), atLeast(6, 4)},
			[]replica.RangeTombstone{rtie(4, 6, 3), atLeast(6, 4)}},
		{"addOverlappingRangeToRangeWithEmptyEnd", []replica.RangeTombstone{atLeast(3, 3), rt(1, 10, 4)},
			[]replica.RangeTombstone{rt(1, 10, 4), greaterThan(10, 3)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, added(t, tt.add...))
		})
	}
}

func TestRangeTombstoneListSearch(t *testing.T) {
	// overlappingAdditionTest, second list, and overlappingPreviousEndEqualsStartTest.
	assert.Equal(t, int64(25), search(added(t, rt(4, 10, 12), rt(0, 8, 25)), 8))
	l := added(t, rt(11, 12, 2), rt(1, 4, 2), rt(4, 10, 5))
	assert.Equal(t, []int64{2, 5, 5}, []int64{search(l, 3), search(l, 4), search(l, 8)})
	assert.Len(t, l, 3)

	tests := []struct {
		name string
		l    []replica.RangeTombstone
		at   []int
		want []int64
	}{
		{"searchTest", added(t, rt(0, 4, 5), rt(4, 6, 2), rt(9, 12, 1), rt(14, 15, 3), rt(15, 17, 6)),
			[]int{-1, 0, 3, 4, 5, 7, 14, 15, 18}, []int64{-1, 5, 5, 5, 2, -1, 3, 6, -1}},
		{"searchTestWithEmptyStart", added(t, atMost(4, 5), rt(4, 6, 2), rt(9, 12, 1), rt(14, 15, 3), rt(15, 17, 6)),
			[]int{-1, 0, 3, 4, 5, 7, 14, 15, 18}, []int64{5, 5, 5, 5, 2, -1, 3, 6, -1}},
		{"searchTestWithRangeWithEmptyEnd", added(t, rt(0, 4, 5), rt(4, 6, 2), rt(9, 12, 1), rt(14, 15, 3), atLeast(15, 6)),
			[]int{-1, 0, 3, 4, 5, 7, 14, 15, 1000}, []int64{-1, 5, 5, 5, 2, -1, 3, 6, 6}},
	}
	for _, tt := range tests {
		got := make([]int64, len(tt.at))
		for i, at := range tt.at {
			got[i] = search(tt.l, at)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestRangeTombstoneListLargeAddition(t *testing.T) {
	// largeAdditionTest (CASSANDRA-6181): 3000 ranges, then one over all.
	const n = 3000
	rts := make([]replica.RangeTombstone, n)
	for i := range rts {
		rts[i] = rt(2*i+1, 2*i+2, 1)
	}
	l := added(t, rts...)
	assert.Len(t, l, n)
	assert.Equal(t, []replica.RangeTombstone{rt(0, 2*n+3, 2)}, added(t, append(rts, rt(0, 2*n+3, 2))...))
}

// addAllBugFrom9799: merging these two lists must give a valid list. Merge
// also matches the naive reference on them.
func TestRangeTombstoneListBugFrom9799(t *testing.T) {
	l1 := parseRanges(t, "{ (6, 7]@4 - (7, 8)@1 - [12, 12]@0 - [13, 13]@0 - (20, 21)@3 - [27, 27]@2 - (33, 34)@2 - (35, 36]@4 - (40, 41]@0 - (42, 43)@2 - (44, 45)@3 - [47, 47]@1 - (47, 48)@0 - [55, 55]@4 - [61, 61]@4 - [67, 67]@0 - [70, 70]@4 - [77, 77]@1 - (83, 84)@1 - [90, 90]@0 - (91, 92]@4 - [93, 93]@0 - (94, 95)@2 - (100, 101]@3 - (103, 104]@0 - (108, 109]@2 - (115, 116]@3 - (116, 117]@3 - (118, 119)@4 - (125, 126)@2 - [131, 131]@1 - [132, 132]@3 - [139, 139]@0 - [145, 145]@1 - (145, 146]@3 - (147, 148]@4 - (150, 151]@1 - (156, 157)@2 - (158, 159)@2 - [164, 164]@4 - (168, 169)@0 - (171, 172)@4 - (173, 174]@0 - [179, 179]@1 - (186, 187]@4 - [191, 191]@1 }")
	l2 := parseRanges(t, "{ (1, 12)@8 - [12, 13)@8 - [13, 18]@7 }")
	vs := []replica.Partition{replica.NewPartition("k").WithRangeTombstones(l1...), replica.NewPartition("k").WithRangeTombstones(l2...)}
	m := mustMerge(t, vs...)
	require.NoError(t, m.Validate())
	requireSame(t, referenceMerge(vs), m, "merge against the reference")
}

var rangePattern = regexp.MustCompile(`^([\[(])(\d+), (\d+)([)\]])@(\d+)$`)

// parseRanges reads Cassandra's "{ [a, b)@ts - ... }" notation.
func parseRanges(t *testing.T, s string) []replica.RangeTombstone {
	var rts []replica.RangeTombstone
	for _, r := range strings.Split(strings.Trim(s, "{} "), " - ") {
		m := rangePattern.FindStringSubmatch(strings.TrimSpace(r))
		require.NotNil(t, m, r)
		start, _ := strconv.Atoi(m[2])
		end, _ := strconv.Atoi(m[3])
		ts, _ := strconv.ParseInt(m[5], 10, 64)
		rt := replica.NewRangeTombstone(replica.StartAt(ck(start)), replica.EndAt(ck(end)), replica.DeletedAt(ts, 1))
		if m[1] == "(" {
			rt.Start = replica.StartAfter(ck(start))
		}
		if m[4] == ")" {
			rt.End = replica.EndBefore(ck(end))
		}
		rts = append(rts, rt)
	}
	return rts
}

// addAllRandomTest: lists of up to 50 ranges built as makeRandom builds
// them (ranges that may touch, the bound where they touch in one of them
// only, one-point ranges, timestamps below 10, so that many tie), merged
// in pairs 1,000 times: the merge is valid and equals the naive reference.
// A fixed seed, where Cassandra's is the clock.
func TestRangeTombstoneListAddAllRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() replica.Partition {
		size, maxSize, maxDistance, maxTs := rng.IntN(50)+1, rng.IntN(20)+1, rng.IntN(10)+1, rng.IntN(10)+1
		var rts []replica.RangeTombstone
		prevEnd, prevEndInclusive := 0, false
		for range size {
			start := prevEnd + rng.IntN(maxDistance)
			end := start + rng.IntN(maxSize)
			startInclusive, endInclusive := rng.IntN(2) == 0, rng.IntN(2) == 0
			if start == prevEnd {
				startInclusive = !prevEndInclusive
			}
			if start == end {
				if startInclusive {
					endInclusive = true
				} else {
					end++
				}
			}
			r := replica.NewRangeTombstone(replica.StartAfter(ck(start)), replica.EndBefore(ck(end)), replica.DeletedAt(int64(rng.IntN(maxTs)), 1))
			if startInclusive {
				r.Start = replica.StartAt(ck(start))
			}
			if endInclusive {
				r.End = replica.EndAt(ck(end))
			}
			rts = append(rts, r)
			prevEnd, prevEndInclusive = end, endInclusive
		}
		return replica.NewPartition("k").WithRangeTombstones(added(t, rts...)...)
	}
	for i := range 1000 {
		vs := []replica.Partition{random(), random()}
		m := mustMerge(t, vs...)
		require.NoError(t, m.Validate(), "merge %d", i)
		requireSame(t, referenceMerge(vs), m, "merge %d against the reference", i)
	}
}
