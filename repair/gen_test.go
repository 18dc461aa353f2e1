package repair_test

import (
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// The generators draw valid partitions from small alphabets so that versions
// collide often: same rows, same columns, tied timestamps and deletion times.
var (
	genClustering = rapid.SampledFrom([]string{"", "a", "b", "c", "d"})
	genColumn     = rapid.SampledFrom([]string{"x", "y", "z"})
	genValue      = rapid.SampledFrom([]string{"", "a", "b", "ab", "\x7f", "\x80"})
	genTimestamp  = rapid.Int64Range(-1, 3)
	genLocalTime  = rapid.Int64Range(1, 3)
)

// genCell draws a live, expiring or tombstone cell.
func genCell(t *rapid.T, column string) replica.Cell {
	ts, ldt := genTimestamp.Draw(t, "ts"), genLocalTime.Draw(t, "ldt")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return replica.Tombstone(column, ts, ldt)
	case 1:
		ttl := rapid.Int32Range(1, 2).Draw(t, "ttl")
		return replica.Expiring(column, genValue.Draw(t, "value"), ts, ttl, ldt)
	}
	return replica.Live(column, genValue.Draw(t, "value"), ts)
}

// genDeletion draws no deletion half of the time.
func genDeletion(t *rapid.T) replica.Deletion {
	if rapid.Bool().Draw(t, "deleted") {
		return replica.Deletion{}
	}
	return replica.DeletedAt(genTimestamp.Draw(t, "dts"), genLocalTime.Draw(t, "dldt"))
}

// genRow draws a row with cells, a deletion or both: never an empty one,
// which Validate rejects.
func genRow(t *rapid.T, clustering string) replica.Row {
	deletion := genDeletion(t)
	least := 0
	if deletion.IsLive() {
		least = 1
	}
	columns := rapid.SliceOfNDistinct(genColumn, least, -1, rapid.ID[string]).Draw(t, "columns")
	cells := make([]replica.Cell, len(columns))
	for i, col := range columns {
		cells[i] = genCell(t, col)
	}
	return replica.NewRow(clustering, cells...).WithDeletion(deletion)
}

// genVersion draws a valid version of partition "k".
func genVersion(t *rapid.T, label string) replica.Partition {
	keys := rapid.SliceOfDistinct(genClustering, rapid.ID[string]).Draw(t, label+" rows")
	rows := make([]replica.Row, len(keys))
	for i, key := range keys {
		rows[i] = genRow(t, key)
	}
	return replica.NewPartition("k", rows...).WithDeletion(genDeletion(t))
}

// genVersions draws one to four versions.
func genVersions(t *rapid.T) []replica.Partition {
	n := rapid.IntRange(1, 4).Draw(t, "versions")
	vs := make([]replica.Partition, n)
	for i := range vs {
		vs[i] = genVersion(t, "v")
	}
	return vs
}
