package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
)

const srcLimit = "SelectLimitTest."

// SelectLimitTest.testLimitInCompactTable, without COMPACT STORAGE (the
// rows are the same): k int, v int, PRIMARY KEY (k, v), 4x4 rows.
func TestCQLSelectLimitInCompactTable(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"v:int"}) }
	setup := func(db *cqlDB) {
		for i := range 4 {
			for j := range 4 {
				db.insert(map[string]any{"k": i, "v": j})
			}
		}
	}
	src := srcLimit + "testLimitInCompactTable"
	runCQL(t, tab, coordinator.TableOptions{}, setup, []cqlVector{
		{src: src, sel: cqlSelect{cols: []string{"v"}, pks: []any{0}, where: []cqlRel{rel("v", ">", 0), rel("v", "<=", 4)}, limit: 2}, want: [][]any{r(1), r(2)}},
		{src: src, sel: cqlSelect{cols: []string{"v"}, pks: []any{0}, where: []cqlRel{rel("v", ">", -1), rel("v", "<=", 4)}, limit: 2}, want: [][]any{r(0), r(1)}},
		{src: src, sel: cqlSelect{pks: []any{0, 1, 2}, where: []cqlRel{rel("v", ">", 0), rel("v", "<=", 4)}, limit: 2}, want: [][]any{r(0, 1), r(0, 2)}},
		{src: src, sel: cqlSelect{pks: []any{0, 1, 2}, where: []cqlRel{rel("v", ">", -1), rel("v", "<=", 4)}, limit: 2}, want: [][]any{r(0, 0), r(0, 1)}},
		{src: src, sel: cqlSelect{pks: []any{0, 1, 2}, where: []cqlRel{rel("v", ">", 0), rel("v", "<=", 4)}, limit: 6}, want: [][]any{r(0, 1), r(0, 2), r(0, 3), r(1, 1), r(1, 2), r(1, 3)}},
	})
}

// SelectLimitTest.testPerPartitionLimit: a int, b int, c int, PRIMARY
// KEY (a, b), 5x5 rows with c = b. The partition-range SELECTs read every
// partition in key order (the test's ByteOrderedPartitioner's order).
func TestCQLSelectPerPartitionLimit(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("a:int", []string{"b:int"}, "c") }
	setup := func(db *cqlDB) {
		for i := range 5 {
			for j := range 5 {
				db.insert(map[string]any{"a": i, "b": j, "c": j})
			}
		}
	}
	src := srcLimit + "testPerPartitionLimit"
	var all2 [][]any
	for i := range 5 {
		all2 = append(all2, r(i, 0, 0), r(i, 1, 1))
	}
	runCQL(t, tab, coordinator.TableOptions{}, setup, []cqlVector{
		{src: src, sel: cqlSelect{ppl: 2}, want: all2},
		{src: src, sel: cqlSelect{ppl: 2, limit: 6}, want: all2[:6]},
		{src: src, sel: cqlSelect{ppl: 2, limit: 5}, want: all2[:5]},
		{src: src, sel: cqlSelect{pks: []any{2, 3}, ppl: 2}, want: [][]any{r(2, 0, 0), r(2, 1, 1), r(3, 0, 0), r(3, 1, 1)}},
		{src: src, sel: cqlSelect{pks: []any{2, 3}, ppl: 2, limit: 3}, want: [][]any{r(2, 0, 0), r(2, 1, 1), r(3, 0, 0)}},
		{src: src, sel: cqlSelect{pks: []any{1, 2, 3}, ppl: 2, limit: 3}, want: [][]any{r(1, 0, 0), r(1, 1, 1), r(2, 0, 0)}},
		{src: src, sel: cqlSelect{pks: []any{2}, ppl: 3}, want: [][]any{r(2, 0, 0), r(2, 1, 1), r(2, 2, 2)}},
		{src: src, sel: cqlSelect{pks: []any{3, 2}, reversed: true, ordered: true, ppl: 2}, want: [][]any{r(2, 4, 4), r(3, 4, 4), r(2, 3, 3), r(3, 3, 3)}},
		{src: src, sel: cqlSelect{pks: []any{3, 2}, reversed: true, ordered: true, ppl: 3, limit: 4}, want: [][]any{r(2, 4, 4), r(3, 4, 4), r(2, 3, 3), r(3, 3, 3)}},
		{src: src, sel: cqlSelect{pks: []any{2}, reversed: true, ppl: 3}, want: [][]any{r(2, 4, 4), r(2, 3, 3), r(2, 2, 2)}},
		{src: src, sel: cqlSelect{pks: []any{2}, where: []cqlRel{rel("b", ">", 0)}, ppl: 2}, want: [][]any{r(2, 1, 1), r(2, 2, 2)}},
		{src: src, sel: cqlSelect{pks: []any{2}, where: []cqlRel{rel("b", ">", 2)}, reversed: true, ppl: 2}, want: [][]any{r(2, 4, 4), r(2, 3, 3)}},
	})
}
