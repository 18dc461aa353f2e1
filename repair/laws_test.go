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
		t.Fatalf("%s:\n got  %s\n want %s", what, show(got), show(want))
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

// Every version converges to the merge by applying its diff, digests
// included, and then has nothing left to receive.
func TestDiffConverges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		m := merge(t, vs...)
		for _, v := range vs {
			d, stale := repair.Diff(m, v)
			if err := d.Validate(); err != nil {
				t.Fatalf("diff %s is invalid: %v", show(d), err)
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
				t.Fatalf("a repaired version still lacks %s", show(again))
			}
		}
	})
}

// A diff holds only what the version lacks: no cell, row deletion or
// partition deletion that the version already holds.
func TestDiffIsMinimal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		m := merge(t, vs...)
		v := vs[0]
		d, _ := repair.Diff(m, v)
		if !d.Deletion.IsLive() && d.Deletion == v.Deletion {
			t.Fatalf("diff resends the partition deletion %+v", v.Deletion)
		}
		for _, r := range d.Rows {
			held := findRow(v, r.Clustering)
			if !r.Deletion.IsLive() && r.Deletion == held.Deletion {
				t.Fatalf("diff resends the deletion of row %q", r.Clustering)
			}
			for _, c := range r.Cells {
				if hc, ok := findCell(held, c.Column); ok && repair.Reconcile(hc, c).Equal(hc) {
					t.Fatalf("diff sends %s where the version holds %s", showCell(c), showCell(hc))
				}
			}
		}
	})
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

func findRow(p replica.Partition, clustering string) replica.Row {
	for _, r := range p.Rows {
		if r.Clustering == clustering {
			return r
		}
	}
	return replica.Row{}
}

func findCell(r replica.Row, column string) (replica.Cell, bool) {
	for _, c := range r.Cells {
		if c.Column == column {
			return c, true
		}
	}
	return replica.Cell{}, false
}
