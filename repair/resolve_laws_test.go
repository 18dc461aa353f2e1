package repair_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// requireResolved checks what Resolve returned for vs against Merge and
// Diff: the same merge, and for each version the same diff, empty exactly
// when Diff reports nothing to send.
func requireResolved(t *rapid.T, vs []replica.Partition, merged replica.Partition, diffs []replica.Partition) {
	requireEqual(t, "merge", merge(t, vs...), merged)
	if len(diffs) != len(vs) {
		t.Fatalf("%d diffs for %d versions", len(diffs), len(vs))
	}
	for i, v := range vs {
		want, stale := repair.Diff(merged, v)
		requireEqual(t, fmt.Sprintf("diff of version %d", i), want, diffs[i])
		if diffs[i].IsEmpty() == stale {
			t.Fatalf("diff of version %d: empty %v, Diff reports stale %v", i, diffs[i].IsEmpty(), stale)
		}
	}
}

// Resolve, and ResolveValid of valid versions, is Merge and a Diff of each
// version, over the whole data model (range tombstones, static rows,
// liveness, complex cells), whatever the merges one Resolver served before.
func TestResolveIsMergeAndDiff(t *testing.T) {
	var r repair.Resolver // one for every case: its scratch is reused
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		before := cloneAll(vs)
		merged, diffs, err := r.Resolve(vs...)
		if err != nil {
			t.Fatalf("Resolve of valid versions: %v", err)
		}
		requireResolved(t, vs, merged, diffs)
		for i := range vs {
			requireEqual(t, "version", before[i], vs[i])
		}
		merged, diffs, err = r.ResolveValid(vs...)
		if err != nil {
			t.Fatalf("ResolveValid of valid versions: %v", err)
		}
		requireResolved(t, vs, merged, diffs)
	})
}

// What Resolve returns is the caller's: a later Resolve on the same
// Resolver does not change it. The merge's values are the versions' own
// bytes; nothing else is shared: writing every value byte of a diff
// changes neither the merge, nor another diff, nor a version, and writing
// the merge's changes no diff.
func TestResolveResultsShareOnlyValuesWithTheVersions(t *testing.T) {
	var r repair.Resolver
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		merged, diffs, err := r.Resolve(vs...)
		if err != nil {
			t.Fatal(err)
		}
		requireValuesOf(t, merged, vs)
		keptMerge, keptDiffs, keptVersions := merged.Clone(), cloneAll(diffs), cloneAll(vs)
		if _, _, err := r.Resolve(genVersions(t)...); err != nil {
			t.Fatal(err)
		}
		requireEqual(t, "merge after another Resolve", keptMerge, merged)
		for i := range diffs {
			requireEqual(t, "diff after another Resolve", keptDiffs[i], diffs[i])
		}
		for i := range diffs {
			scribble(diffs[i])
			requireEqual(t, "merge after writing to a diff", keptMerge, merged)
			for j := range vs {
				requireEqual(t, "version after writing to a diff", keptVersions[j], vs[j])
			}
			for j := i + 1; j < len(diffs); j++ {
				requireEqual(t, "diff after writing to another", keptDiffs[j], diffs[j])
			}
		}
		scribble(merged)
		for i := range diffs {
			scribble(diffs[i]) // back as they were
			requireEqual(t, "diff after writing to the merge", keptDiffs[i], diffs[i])
		}
	})
}

// requireValuesOf checks that every value merged holds is the very bytes
// of a version's cell.
func requireValuesOf(t *rapid.T, merged replica.Partition, vs []replica.Partition) {
	held := map[*byte]bool{}
	for _, v := range vs {
		forEachCell(v, func(_ string, _ bool, c replica.Cell) {
			if len(c.Value) > 0 {
				held[&c.Value[0]] = true
			}
		})
	}
	forEachCell(merged, func(clustering string, _ bool, c replica.Cell) {
		if len(c.Value) > 0 && !held[&c.Value[0]] {
			t.Fatalf("%v of row %q is a copy, not a version's value", c, clustering)
		}
	})
}

// scribble overwrites every value byte of p.
func scribble(p replica.Partition) {
	rows := append([]replica.Row{p.Static}, p.Rows...)
	for _, r := range rows {
		for _, c := range r.Cells {
			for i := range c.Value {
				c.Value[i] ^= 0xff
			}
		}
	}
}

// invalidVersions are inputs Merge refuses: its error names the first fault
// in version order, even where a later version's fault comes first in
// clustering order, or lies past the rows a merge validates at a time.
func invalidVersions() map[string][]replica.Partition {
	badRowAt := func(n, bad int) replica.Partition {
		p := wide(n, 0, 1)
		p.Rows[bad].Cells[0].TTL = -1
		return p
	}
	badStatic := wide(3, 0, 1)
	badStatic.Static = row("s", live("a", "x", 1))
	return map[string][]replica.Partition{
		"none":                          nil,
		"a second key":                  {wide(3, 0, 1), part("j")},
		"a bad row far down":            {wide(1000, 0, 1), badRowAt(1000, 900)},
		"two bad rows, the later first": {badRowAt(1000, 900), badRowAt(1000, 5)},
		"rows out of order far down": {wide(500, 0, 1), func() replica.Partition {
			p := wide(500, 0, 1)
			p.Rows[300], p.Rows[301] = p.Rows[301], p.Rows[300]
			return p
		}()},
		"a bad static row after a bad row": {badRowAt(10, 2), badStatic},
		"an inverted range": {wide(3, 0, 1), part("k").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("a"), delAt(1, 1)))},
	}
}

// checkedVersions is the error Merge returned before it validated rows as
// it merged them: the first version that is of another key or fails
// Validate.
func checkedVersions(vs []replica.Partition) error {
	if len(vs) == 0 {
		return &repair.VersionsError{Index: -1, Reason: "no versions to merge"}
	}
	for i, v := range vs {
		if v.Key != vs[0].Key {
			return &repair.VersionsError{Index: i, Reason: fmt.Sprintf("key %q differs from version 0's key %q", v.Key, vs[0].Key)}
		}
		if err := v.Validate(); err != nil {
			return &repair.VersionsError{Index: i, Reason: "fails validation", Err: err}
		}
	}
	return nil
}

// Merge, Resolve, ResolveIn and MergeIn refuse invalid versions with Merge's error.
func TestMergeAndResolveRefuseInvalidVersions(t *testing.T) {
	var r repair.Resolver
	for name, vs := range invalidVersions() {
		t.Run(name, func(t *testing.T) {
			want := checkedVersions(vs)
			require.Error(t, want)
			_, err := repair.Merge(vs...)
			assert.Equal(t, want, err, "Merge")
			merged, diffs, err := r.Resolve(vs...)
			assert.Equal(t, want, err, "Resolve")
			assert.True(t, errors.Is(err, repair.ErrInvalidVersions))
			assert.True(t, merged.Equal(replica.Partition{}) && diffs == nil, "nothing but the error")
			if headsInvalid(vs) { // what ResolveValid still checks
				_, _, err := r.ResolveValid(vs...)
				assert.Equal(t, want, err, "ResolveValid")
			}
			// ResolveIn and MergeIn are Resolve and Merge built in Blocks: they
			// check the rows too, as the Valid forms do not.
			var b repair.Blocks
			merged, diffs, err = r.ResolveIn(&b, vs...)
			assert.Equal(t, want, err, "ResolveIn")
			assert.True(t, merged.Equal(replica.Partition{}) && diffs == nil, "ResolveIn: the error alone")
			_, err = r.MergeIn(&b, vs...)
			assert.Equal(t, want, err, "MergeIn")
		})
	}
	a, b := wide(100, 0, 2), wide(100, 1, 2)
	merged, diffs, err := r.Resolve(a, b)
	require.NoError(t, err, "a Resolver that refused versions serves the next")
	requireSame(t, mustMerge(t, a, b), merged, "merge after refusals")
	requireDiff(t, diffs[0], merged, a)
}

// headsInvalid reports whether Merge refuses vs for something besides their
// rows.
func headsInvalid(vs []replica.Partition) bool {
	heads := make([]replica.Partition, len(vs))
	for i, v := range vs {
		heads[i] = replica.Partition{Key: v.Key, Deletion: v.Deletion, Static: v.Static, RangeTombstones: v.RangeTombstones}
	}
	return checkedVersions(heads) != nil
}
