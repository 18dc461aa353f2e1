package readpath_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

var sinkPartition replica.Partition

// divergentVersions returns three versions of a partition of n rows of ten
// cells, as replicas hold it after missed writes: replica 1 lacks every 7th
// row and holds an older value for column 4 of every 3rd row; replica 2 lacks
// every 11th row, deleted column 2 of every 13th row later, and deleted
// every 17th row (before its cells were last written). As in a decoded
// response, column names come from the schema and values slice one buffer.
func divergentVersions(n int) []replica.Partition {
	vs := make([]replica.Partition, 3)
	for v := range vs {
		vs[v].Key = "partition"
		var buf []byte
		for i := range n {
			if (v == 1 && i%7 == 0) || (v == 2 && i%11 == 0) {
				continue
			}
			var r replica.Row
			r, buf = benchRow(v, i, buf)
			vs[v].Rows = append(vs[v].Rows, r)
		}
	}
	return vs
}

var benchColumns = [10]string{"col00", "col01", "col02", "col03", "col04", "col05", "col06", "col07", "col08", "col09"}

// benchRow returns row i of version v, its values appended to buf.
func benchRow(v, i int, buf []byte) (replica.Row, []byte) {
	cells := make([]replica.Cell, len(benchColumns))
	for c, column := range benchColumns {
		ts := int64(1000 + i)
		if v == 1 && i%3 == 0 && c == 4 {
			ts-- // an older write
		}
		if v == 2 && i%13 == 0 && c == 2 {
			cells[c] = replica.Tombstone(column, ts+1, 1700000000)
			continue
		}
		start := len(buf)
		buf = fmt.Appendf(buf, "value-%06d-%02d", ts, c)
		cells[c] = replica.Cell{Column: column, Value: buf[start:len(buf):len(buf)], Timestamp: ts}
	}
	r := replica.Row{Clustering: fmt.Sprintf("row%06d", i), Cells: cells}
	if v == 2 && i%17 == 0 {
		r.Deletion = replica.DeletedAt(999, 1700000000)
	}
	return r, buf
}

// benchMerge merges three versions of rows rows. Both sizes run against the
// same live heap, the 1000-row versions: otherwise the small run would
// collect garbage a tenth as often, in a heap a tenth the size, and the ratio
// would measure the garbage collector's 4 MiB floor, not the merge.
func benchMerge(b *testing.B, rows int) {
	heap := divergentVersions(1000)
	vs := heap
	if rows != 1000 {
		vs = divergentVersions(rows)
	}
	b.ReportAllocs()
	for b.Loop() {
		m, err := repair.Merge(vs...)
		if err != nil {
			b.Fatal(err)
		}
		sinkPartition = m
	}
	runtime.KeepAlive(heap)
}

// BenchmarkMerge3x100 and BenchmarkMerge3x1000 show that Merge is linear:
// ten times the rows must take at most 12 times as long.
func BenchmarkMerge3x100(b *testing.B)  { benchMerge(b, 100) }
func BenchmarkMerge3x1000(b *testing.B) { benchMerge(b, 1000) }

// BenchmarkCloneReference3x1000 deep-copies the three versions of
// BenchmarkMerge3x1000: the floor for a merge whose result shares no memory
// with its inputs.
func BenchmarkCloneReference3x1000(b *testing.B) {
	vs := divergentVersions(1000)
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range vs {
			sinkPartition = v.Clone()
		}
	}
}

// BenchmarkDiff3x100 computes the repair of each of three versions.
func BenchmarkDiff3x100(b *testing.B) {
	vs := divergentVersions(100)
	merged, err := repair.Merge(vs...)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range vs {
			sinkPartition, _ = repair.Diff(merged, v)
		}
	}
}
