package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func requireView(t *testing.T, want, got replica.View, what string) {
	t.Helper()
	if !want.Equal(got) {
		t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
	}
}

func vrow(clustering string, cells ...replica.Cell) replica.ViewRow {
	return replica.ViewRow{Clustering: clustering, Cells: cells}
}

func TestVisibleShowsLiveDataOnly(t *testing.T) {
	const now = 100
	live := replica.Live("a", "v", 10)
	p := replica.NewPartition("k",
		replica.NewRow("r",
			live,
			replica.Expiring("b", "soon", 10, 5, now+1), // still live
			replica.Expiring("c", "gone", 10, 5, now),   // expired at now
			replica.Tombstone("d", 10, 50),              // deleted
			replica.Live("e", "old", 5).WithPath("x"),   // under the complex deletion of e
			replica.Live("e", "new", 15).WithPath("y"),  // above it
			replica.Live("f", "shadowed", 7),            // under the row deletion
		).WithDeletion(replica.DeletedAt(7, 50)).WithComplexDeletion("e", replica.DeletedAt(9, 50)),
	)
	requireView(t, replica.View{Key: "k", Rows: []replica.ViewRow{vrow("r", live,
		replica.Expiring("b", "soon", 10, 5, now+1), replica.Live("e", "new", 15).WithPath("y"))}}, p.Visible(now), "view")
	requireView(t, replica.View{Key: "k", Rows: []replica.ViewRow{vrow("r", live,
		replica.Expiring("b", "soon", 10, 5, now+1), replica.Expiring("c", "gone", 10, 5, now),
		replica.Live("e", "new", 15).WithPath("y"))}}, p.Visible(0), "without a read time nothing has expired")
}

// A row exists while its liveness is live, with no live cell; it vanishes
// when its liveness expires or a deletion covers it, and a row without
// liveness vanishes with its last cell (Cassandra's Row.hasLiveData).
func TestVisibleRowLiveness(t *testing.T) {
	const now = 100
	deleted := replica.Tombstone("a", 20, 50)
	tests := []struct {
		name string
		p    replica.Partition
		show bool
	}{
		{"liveness and no cell", replica.NewPartition("k", replica.NewRow("r", deleted).WithLiveness(replica.Inserted(10))), true},
		{"no liveness and no live cell", replica.NewPartition("k", replica.NewRow("r", deleted)), false},
		{"expiring liveness, live", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(10, 5, now+1))), true},
		{"expired liveness", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(10, 5, now))), false},
		{"liveness under a row deletion", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(10)).WithDeletion(replica.DeletedAt(10, 50))), false},
		{"liveness above a row deletion", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(11)).WithDeletion(replica.DeletedAt(10, 50))), true},
		{"liveness under a range tombstone", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(10))).
			WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("q"), replica.EndAt("s"), replica.DeletedAt(10, 50))), false},
		{"liveness beside a range tombstone", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(10))).
			WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("r"), replica.Top(), replica.DeletedAt(10, 50))), true},
		{"liveness under the partition deletion", replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(10))).WithDeletion(replica.DeletedAt(10, 50)), false},
	}
	for _, tt := range tests {
		want := replica.View{Key: "k"}
		if tt.show {
			want.Rows = []replica.ViewRow{vrow("r")}
		}
		requireView(t, want, tt.p.Visible(now), tt.name)
	}
}

// Cases of Cassandra's StaticColumnsTest (apache/cassandra,
// test/unit/org/apache/cassandra/cql3/validation/entities/
// StaticColumnsTest.java) on a table (k, p, s static, v).
func TestVisibleStaticRow(t *testing.T) {
	s42 := replica.Live("s", "42", 1)
	// INSERT INTO t (k, s) VALUES (0, 42): SELECT * shows (0, null, 42, null).
	staticOnly := replica.NewPartition("k").WithStatic(s42)
	requireView(t, replica.View{Key: "k", Static: []replica.Cell{s42}, Rows: []replica.ViewRow{{Static: true}}},
		staticOnly.Visible(0), "testStaticColumns: static data only")
	// testStaticColumnsWithEmptyClustering: a row at the empty clustering is
	// a row, not the static row.
	withEmpty := staticOnly
	withEmpty.Rows = []replica.Row{replica.NewRow("", replica.Live("v", "value", 2))}
	requireView(t, replica.View{Key: "k", Static: []replica.Cell{s42}, Rows: []replica.ViewRow{vrow("", replica.Live("v", "value", 2))}},
		withEmpty.Visible(0), "testStaticColumnsWithEmptyClustering")
	// Deleting a row leaves the static data; deleting the partition does not.
	rowDeleted := replica.NewPartition("k", replica.NewRow("0").WithDeletion(replica.DeletedAt(3, 5)), replica.NewRow("1", replica.Live("v", "1", 2))).WithStatic(s42)
	requireView(t, replica.View{Key: "k", Static: []replica.Cell{s42}, Rows: []replica.ViewRow{vrow("1", replica.Live("v", "1", 2))}},
		rowDeleted.Visible(0), "a row deletion keeps the static row")
	requireView(t, replica.View{Key: "k"}, staticOnly.WithDeletion(replica.DeletedAt(1, 5)).Visible(0), "a partition deletion removes the static row too")
	// A range tombstone does not reach the static row.
	ranged := staticOnly.WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(9, 5)))
	requireView(t, replica.View{Key: "k", Static: []replica.Cell{s42}, Rows: []replica.ViewRow{{Static: true}}}, ranged.Visible(0), "range over everything")
	// An expired or deleted static cell shows nothing.
	expired := replica.NewPartition("k").WithStatic(replica.Expiring("s", "42", 1, 10, 50), replica.Tombstone("t", 1, 5))
	requireView(t, replica.View{Key: "k"}, expired.Visible(50), "expired static data")
}

func TestVisibleDoesNotModifyThePartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		before := p.Clone()
		v := p.Visible(rapid.Int64Range(0, 6).Draw(t, "now"))
		assert.True(t, p.Equal(before))
		for _, r := range v.Rows {
			if r.Static {
				assert.Empty(t, r.Clustering)
				assert.Empty(t, r.Cells)
			}
			for _, c := range r.Cells {
				assert.False(t, c.Tombstone)
			}
		}
	})
}

func TestViewEqual(t *testing.T) {
	a := replica.View{Key: "k", Static: []replica.Cell{replica.Live("s", "", 1)}, Rows: []replica.ViewRow{vrow("r", replica.Live("x", "v", 1))}}
	assert.True(t, a.Equal(a))
	for name, b := range map[string]replica.View{
		"key":        {Key: "j", Static: a.Static, Rows: a.Rows},
		"static":     {Key: "k", Rows: a.Rows},
		"rows":       {Key: "k", Static: a.Static},
		"clustering": {Key: "k", Static: a.Static, Rows: []replica.ViewRow{vrow("s", replica.Live("x", "v", 1))}},
		"cell":       {Key: "k", Static: a.Static, Rows: []replica.ViewRow{vrow("r", replica.Live("x", "w", 1))}},
		"static row": {Key: "k", Static: a.Static, Rows: []replica.ViewRow{{Static: true}}},
	} {
		assert.False(t, a.Equal(b), name)
	}
	// The static-only row is not a row of a table without clustering
	// columns, whose clustering is empty too.
	assert.False(t, replica.ViewRow{Static: true}.Equal(replica.ViewRow{}), "static flag")
	assert.True(t, replica.View{}.IsEmpty())
	assert.False(t, a.IsEmpty())
}
