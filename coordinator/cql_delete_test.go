package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
)

const srcDelete = "DeleteTest."

func fill(db *cqlDB, pks, c1s, c2s int) {
	v := 0
	for pk := range pks {
		for a := range c1s {
			if c2s == 0 {
				db.insert(map[string]any{"pk": pk, "c1": a, "v": v})
				v++
				continue
			}
			for b := range c2s {
				db.insert(map[string]any{"pk": pk, "c1": a, "c2": b, "v": v})
				v++
			}
		}
	}
}

// DeleteTest.testDeleteWithRangeAndOneClusteringColumn: partition and range
// deletions, each followed by a SELECT of the partition.
func TestCQLDeleteWithRangeAndOneClusteringColumn(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("pk:int", []string{"c1:int"}, "v") }
	src := srcDelete + "testDeleteWithRangeAndOneClusteringColumn"
	del := func(pk int, rels ...cqlRel) func(db *cqlDB) {
		return func(db *cqlDB) { db.deleteRows(pk, rels...) }
	}
	pk := func(k int) cqlSelect { return cqlSelect{pks: []any{k}} }
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) { fill(db, 5, 5, 0) }, []cqlVector{
		{src, pk(1), nil, del(1)},
		{src, pk(0), [][]any{r(0, 0, 0), r(0, 1, 1), r(0, 2, 2), r(0, 3, 3)}, del(0, rel("c1", ">=", 4))},
		{src, pk(0), [][]any{r(0, 0, 0), r(0, 1, 1), r(0, 2, 2)}, del(0, rel("c1", ">", 2))},
		{src, pk(0), [][]any{r(0, 1, 1), r(0, 2, 2)}, del(0, rel("c1", "<=", 0))},
		{src, pk(0), [][]any{r(0, 2, 2)}, del(0, rel("c1", "<", 2))},
		{src, pk(2), [][]any{r(2, 3, 13), r(2, 4, 14)}, del(2, rel("c1", ">=", 0), rel("c1", "<", 3))},
		{src, pk(2), [][]any{r(2, 3, 13)}, del(2, rel("c1", ">", 3), rel("c1", "<=", 5))},
		{src, pk(2), [][]any{r(2, 3, 13)}, del(2, rel("c1", "<", 3), rel("c1", ">", 5))},
		{src, pk(3), [][]any{r(3, 0, 15), r(3, 1, 16), r(3, 2, 17)}, del(3, tup([]string{"c1"}, ">", 2))},
		{src, pk(3), [][]any{r(3, 1, 16), r(3, 2, 17)}, del(3, tup([]string{"c1"}, "<", 1))},
		{src, pk(3), [][]any{r(3, 2, 17)}, del(3, tup([]string{"c1"}, ">=", 0), tup([]string{"c1"}, "<=", 1))},
	})
}

// DeleteTest.testDeleteWithRangeAndTwoClusteringColumns.
func TestCQLDeleteWithRangeAndTwoClusteringColumns(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("pk:int", []string{"c1:int", "c2:int"}, "v") }
	src := srcDelete + "testDeleteWithRangeAndTwoClusteringColumns"
	del := func(pk int, rels ...cqlRel) func(db *cqlDB) {
		return func(db *cqlDB) { db.deleteRows(pk, rels...) }
	}
	sel := func(k int, rels ...cqlRel) cqlSelect { return cqlSelect{pks: []any{k}, where: rels} }
	c12 := []string{"c1", "c2"}
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) { fill(db, 5, 5, 5) }, []cqlVector{
		{src, sel(0, rel("c1", "<", 2)), [][]any{r(0, 0, 0, 0), r(0, 0, 1, 1), r(0, 0, 2, 2), r(0, 0, 3, 3), r(0, 0, 4, 4)}, del(0, rel("c1", "=", 1))},
		{src, sel(1), nil, del(1)},
		{src, sel(0, rel("c1", "<", 2)), [][]any{r(0, 0, 2, 2), r(0, 0, 3, 3), r(0, 0, 4, 4)}, del(0, rel("c1", "=", 0), rel("c2", "<", 2))},
		{src, sel(0, rel("c1", "<", 2)), [][]any{r(0, 0, 4, 4)}, del(0, rel("c1", "=", 0), rel("c2", "<=", 3))},
		{src, sel(0, rel("c1", "=", 2)), [][]any{r(0, 2, 0, 10), r(0, 2, 1, 11), r(0, 2, 2, 12)}, del(0, rel("c1", "=", 2), rel("c2", ">", 2))},
		{src, sel(0, rel("c1", "=", 2)), [][]any{r(0, 2, 0, 10)}, del(0, rel("c1", "=", 2), rel("c2", ">=", 1))},
		{src, sel(0, rel("c1", "=", 3)), [][]any{r(0, 3, 0, 15), r(0, 3, 1, 16), r(0, 3, 4, 19)}, del(0, rel("c1", "=", 3), rel("c2", ">", 1), rel("c2", "<", 4))},
		{src, sel(0, rel("c1", "=", 3)), [][]any{r(0, 3, 0, 15), r(0, 3, 1, 16), r(0, 3, 4, 19)}, del(0, rel("c1", "=", 3), rel("c2", ">", 4), rel("c2", "<", 1))},
		{src, sel(0, rel("c1", "=", 3)), [][]any{r(0, 3, 0, 15)}, del(0, rel("c1", "=", 3), rel("c2", ">=", 1), rel("c2", "<=", 4))},
		{src, sel(0), [][]any{r(0, 0, 4, 4), r(0, 2, 0, 10), r(0, 3, 0, 15)}, del(0, rel("c1", ">=", 4))},
		{src, sel(0), [][]any{r(0, 0, 4, 4), r(0, 2, 0, 10), r(0, 3, 0, 15)}, del(0, rel("c1", ">", 3))},
		{src, sel(0), [][]any{r(0, 3, 0, 15)}, del(0, rel("c1", "<", 3))},
		{src, sel(2), [][]any{
			r(2, 3, 0, 65), r(2, 3, 1, 66), r(2, 3, 2, 67), r(2, 3, 3, 68), r(2, 3, 4, 69),
			r(2, 4, 0, 70), r(2, 4, 1, 71), r(2, 4, 2, 72), r(2, 4, 3, 73), r(2, 4, 4, 74)}, del(2, rel("c1", ">=", 0), rel("c1", "<", 3))},
		{src, sel(2), [][]any{r(2, 3, 0, 65), r(2, 3, 1, 66), r(2, 3, 2, 67), r(2, 3, 3, 68), r(2, 3, 4, 69)}, del(2, rel("c1", ">", 3), rel("c1", "<=", 5))},
		{src, sel(2), [][]any{r(2, 3, 0, 65), r(2, 3, 1, 66), r(2, 3, 2, 67), r(2, 3, 3, 68), r(2, 3, 4, 69)}, del(2, rel("c1", "<", 3), rel("c1", ">", 5))},
		{src, sel(2), [][]any{r(2, 3, 0, 65), r(2, 3, 1, 66), r(2, 3, 2, 67), r(2, 3, 3, 68)}, del(2, tup(c12, ">", 3, 3))},
		{src, sel(2), [][]any{r(2, 3, 1, 66), r(2, 3, 2, 67), r(2, 3, 3, 68)}, del(2, tup(c12, "<", 3, 1))},
		{src, sel(2), [][]any{r(2, 3, 1, 66)}, del(2, tup(c12, ">=", 3, 2), tup([]string{"c1"}, "<=", 4))},
		{src, sel(3, rel("c1", "=", 0)), [][]any{r(3, 0, 3, 78), r(3, 0, 4, 79)}, del(3, rel("c1", "=", 0), tup([]string{"c2"}, "<", 3))},
		{src, sel(3, rel("c1", "IN", 0, 1)), [][]any{r(3, 1, 0, 80), r(3, 1, 1, 81), r(3, 1, 2, 82)}, del(3, rel("c1", "IN", 0, 1), tup([]string{"c2"}, ">=", 3))},
		{src, sel(3, rel("c1", "IN", 0, 1)), [][]any{r(3, 1, 1, 81), r(3, 1, 2, 82)}, del(3, tup([]string{"c1"}, "IN", 0, 1), rel("c2", "<", 1))},
		{src, sel(3, rel("c1", "IN", 0, 1)), [][]any{r(3, 1, 1, 81)}, del(3, tup([]string{"c1"}, "=", 1), rel("c2", ">=", 2))},
	})
}

// DeleteTest.testDeleteWithNonoverlappingRange and
// testDeleteWithIntermediateRangeAndOneClusteringColumn.
func TestCQLDeleteNonoverlappingAndIntermediateRange(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("pk:int", []string{"c1:int"}, "v:text") }
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		for i := range 10 {
			db.insert(map[string]any{"pk": 1, "c1": i, "v": "abc"})
		}
		db.deleteRows(1, rel("c1", "<=", 3))
		db.insert(map[string]any{"pk": 2, "c1": 1, "v": "1"})
		db.insert(map[string]any{"pk": 2, "c1": 3, "v": "3"})
		db.deleteRows(2, rel("c1", ">=", 2), rel("c1", "<=", 3))
		db.insert(map[string]any{"pk": 2, "c1": 2, "v": "2"})
		db.deleteRows(2, rel("c1", ">=", 2), rel("c1", "<=", 3))
	}, []cqlVector{
		{src: srcDelete + "testDeleteWithNonoverlappingRange", sel: cqlSelect{pks: []any{1}, where: []cqlRel{rel("c1", "<=", 2)}}},
		{src: srcDelete + "testDeleteWithIntermediateRangeAndOneClusteringColumn", sel: cqlSelect{pks: []any{2}},
			want: [][]any{r(2, 1, "1")}},
	})
}
