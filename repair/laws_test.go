package repair_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// merge is Merge for property tests, whose inputs are valid.
func merge(t *rapid.T, versions ...replica.Partition) replica.Partition {
	m, err := repair.Merge(versions...)
	if err != nil {
		t.Fatalf("Merge of valid versions: %v", err)
	}
	return m
}

func requireEqual(t *rapid.T, what string, want, got replica.Partition) {
	if !want.Equal(got) {
		t.Fatalf("%s:\n got  %s\n want %s", what, got, want)
	}
}

func TestMergeIsCommutative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		shuffled := rapid.Permutation(vs).Draw(t, "order")
		requireEqual(t, "merge of reordered versions", merge(t, vs...), merge(t, shuffled...))
	})
}

func TestMergeIsAssociative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := genVersion(t, "a"), genVersion(t, "b"), genVersion(t, "c")
		all := merge(t, a, b, c)
		requireEqual(t, "(a+b)+c", all, merge(t, merge(t, a, b), c))
		requireEqual(t, "a+(b+c)", all, merge(t, a, merge(t, b, c)))
	})
}

func TestMergeIsIdempotent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		m := merge(t, vs...)
		requireEqual(t, "merge of the merge", m, merge(t, m))
		requireEqual(t, "merge with itself", m, merge(t, m, m))
		requireEqual(t, "merge with an input again", m, merge(t, append(vs, vs[0])...))
		if err := m.Validate(); err != nil {
			t.Fatalf("merge is invalid: %v", err)
		}
	})
}

// Merge equals a naive reference, built from the rules one element at a
// time with maps (reference_test.go).
func TestMergeMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		requireEqual(t, "merge against the reference", referenceMerge(vs), merge(t, vs...))
	})
}

// The merged range tombstones are canonical: every bound in the form
// AsStart and AsEnd give it, no two neighbours that touch with the same
// deletion, none the partition deletion covers.
func TestMergedRangesAreCanonical(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := merge(t, genVersions(t)...)
		for i, rt := range m.RangeTombstones {
			if rt.Start != rt.Start.AsStart() || rt.End != rt.End.AsEnd() {
				t.Fatalf("range %d: %v is not canonical", i, rt)
			}
			if !rt.Deletion.Supersedes(m.Deletion) {
				t.Fatalf("range %d: %v is covered by the partition deletion", i, rt)
			}
			if prev := m.RangeTombstones[max(i-1, 0)]; i > 0 && prev.End.Compare(rt.Start) == 0 && prev.Deletion == rt.Deletion {
				t.Fatalf("ranges %d and %d could be one: %v, %v", i-1, i, prev, rt)
			}
		}
	})
}

// No write that no deletion of any version covers is lost, unless a cell of
// another version beats it; and no cell a deletion of any version covers
// survives: the merge deletes exactly what some version deletes.
func TestMergeLosesNoWriteAndResurrectsNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		m := merge(t, vs...)
		forEachCell(m, func(clustering string, static bool, c replica.Cell) {
			if deletedBy(vs, clustering, static, c.Column, c.Timestamp) {
				t.Fatalf("%v of row %q survives a deletion at or above it", c, clustering)
			}
		})
		for _, v := range vs {
			forEachCell(v, func(clustering string, static bool, c replica.Cell) {
				if deletedBy(vs, clustering, static, c.Column, c.Timestamp) {
					return
				}
				held, ok := cellOf(m, clustering, static, c.Column, c.Path)
				if !ok || !repair.Reconcile(held, c).Equal(held) {
					t.Fatalf("%v of row %q is lost: the merge holds %v (%v)", c, clustering, held, ok)
				}
			})
		}
	})
}

// Every version converges to the merge by applying its diff, digests
// included, and then has nothing left to receive.
func TestDiffConverges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		m := merge(t, vs...)
		for _, v := range vs {
			d, stale := repair.Diff(m, v)
			if err := d.Validate(); err != nil {
				t.Fatalf("diff %s is invalid: %v", d, err)
			}
			repaired := merge(t, v, d)
			requireEqual(t, "version after repair", m, repaired)
			if repaired.Digest() != m.Digest() {
				t.Fatalf("digest after repair %v, merge %v", repaired.Digest(), m.Digest())
			}
			if upToDate := merge(t, v).Equal(m); stale == upToDate {
				t.Fatalf("Diff says stale=%v of a version whose merge equals the whole: %v", stale, upToDate)
			}
			if again, more := repair.Diff(m, repaired); more || !again.IsEmpty() {
				t.Fatalf("a repaired version still lacks %s", again)
			}
		}
	})
}

// A diff holds only what the version lacks: no cell, liveness, row or
// complex deletion, range tombstone piece or partition deletion that the
// version already holds, or holds a stronger one of.
func TestDiffIsMinimal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		m := merge(t, vs...)
		v := vs[0]
		d, _ := repair.Diff(m, v)
		if !d.Deletion.IsLive() && !d.Deletion.Supersedes(v.Deletion) {
			t.Fatalf("diff resends the partition deletion %v", v.Deletion)
		}
		for _, rt := range d.RangeTombstones {
			for _, k := range probeKeys {
				if rt.Covers(k) && !rt.Deletion.Supersedes(strongestDeletion(rangeDeletion(v, k), v.Deletion)) {
					t.Fatalf("diff sends %v over %q, where the version holds as strong", rt, k)
				}
			}
		}
		requireMinimalRow(t, &d.Static, &v.Static)
		for i := range d.Rows {
			requireMinimalRow(t, &d.Rows[i], rowOf(v, d.Rows[i].Clustering))
		}
	})
}

func requireMinimalRow(t *rapid.T, d, held *replica.Row) {
	if !d.Deletion.IsLive() && !d.Deletion.Supersedes(held.Deletion) {
		t.Fatalf("diff resends the deletion of row %q", d.Clustering)
	}
	if !d.Liveness.IsEmpty() && !d.Liveness.Supersedes(held.Liveness) {
		t.Fatalf("diff resends the liveness of row %q", d.Clustering)
	}
	for _, cd := range d.ComplexDeletions {
		if !cd.Deletion.Supersedes(complexDeletionOf(held, cd.Column)) {
			t.Fatalf("diff resends the deletion of %s in row %q", cd.Column, d.Clustering)
		}
	}
	for _, c := range d.Cells {
		if hc, ok := findCell(held, c.Column, c.Path); ok && repair.Reconcile(hc, c).Equal(hc) {
			t.Fatalf("diff sends %v where the version holds %v", c, hc)
		}
	}
}

func TestMergeAndDiffDoNotModifyInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		before := cloneAll(vs)
		m := merge(t, vs...)
		mBefore := m.Clone()
		for i := range vs {
			repair.Diff(m, vs[i])
			requireEqual(t, "version", before[i], vs[i])
		}
		requireEqual(t, "merged after Diff", mBefore, m)
	})
}
