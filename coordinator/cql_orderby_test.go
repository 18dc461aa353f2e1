package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
)

const srcOrder = "SelectOrderByTest."

// SelectOrderByTest.testNormalSelectionOrderSingleClustering.
func TestCQLOrderBySingleClustering(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("a:int", []string{"b:int"}, "c") }
	src := srcOrder + "testNormalSelectionOrderSingleClustering"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		for i := range 3 {
			db.insert(map[string]any{"a": 0, "b": i, "c": i})
		}
	}, []cqlVector{
		{src: src, sel: cqlSelect{pks: []any{0}}, want: [][]any{r(0, 0, 0), r(0, 1, 1), r(0, 2, 2)}},
		{src: src, sel: cqlSelect{pks: []any{0}, reversed: true}, want: [][]any{r(0, 2, 2), r(0, 1, 1), r(0, 0, 0)}},
		{src: src, sel: cqlSelect{cols: []string{"b"}, pks: []any{0}}, want: [][]any{r(0), r(1), r(2)}},
		{src: src, sel: cqlSelect{cols: []string{"b"}, pks: []any{0}, reversed: true}, want: [][]any{r(2), r(1), r(0)}},
		{src: src, sel: cqlSelect{cols: []string{"c"}, pks: []any{0}}, want: [][]any{r(0), r(1), r(2)}},
		{src: src, sel: cqlSelect{cols: []string{"c"}, pks: []any{0}, reversed: true}, want: [][]any{r(2), r(1), r(0)}},
	})
}

// SelectOrderByTest.testNormalSelectionOrderMultipleClustering.
func TestCQLOrderByMultipleClustering(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("a:int", []string{"b:int", "c:int"}, "d") }
	src := srcOrder + "testNormalSelectionOrderMultipleClustering"
	all := [][]any{r(0, 0, 0, 0), r(0, 0, 1, 1), r(0, 0, 2, 2), r(0, 1, 0, 3), r(0, 1, 1, 4), r(0, 1, 2, 5)}
	rev := [][]any{all[5], all[4], all[3], all[2], all[1], all[0]}
	col := func(name string, reversed bool) cqlSelect {
		return cqlSelect{cols: []string{name}, pks: []any{0}, reversed: reversed}
	}
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		d := 0
		for b := range 2 {
			for c := range 3 {
				db.insert(map[string]any{"a": 0, "b": b, "c": c, "d": d})
				d++
			}
		}
	}, []cqlVector{
		{src: src, sel: cqlSelect{pks: []any{0}}, want: all},
		{src: src, sel: cqlSelect{pks: []any{0}, reversed: true}, want: rev},
		{src: src, sel: col("b", false), want: [][]any{r(0), r(0), r(0), r(1), r(1), r(1)}},
		{src: src, sel: col("b", true), want: [][]any{r(1), r(1), r(1), r(0), r(0), r(0)}},
		{src: src, sel: col("c", false), want: [][]any{r(0), r(1), r(2), r(0), r(1), r(2)}},
		{src: src, sel: col("c", true), want: [][]any{r(2), r(1), r(0), r(2), r(1), r(0)}},
		{src: src, sel: col("d", false), want: [][]any{r(0), r(1), r(2), r(3), r(4), r(5)}},
		{src: src, sel: col("d", true), want: [][]any{r(5), r(4), r(3), r(2), r(1), r(0)}},
	})
}

// SelectOrderByTest.testOrderByForInClause, its first table: ORDER BY
// over an IN on the partition key sorts the partitions' rows together.
func TestCQLOrderByForInClause(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("my_id:text", []string{"col1:int"}, "value:text") }
	src := srcOrder + "testOrderByForInClause"
	in := []any{"key1", "key2", "key3"}
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"my_id": "key1", "col1": 1, "value": "a"})
		db.insert(map[string]any{"my_id": "key2", "col1": 3, "value": "c"})
		db.insert(map[string]any{"my_id": "key3", "col1": 2, "value": "b"})
		db.insert(map[string]any{"my_id": "key4", "col1": 4, "value": "d"})
	}, []cqlVector{
		{src: src, sel: cqlSelect{cols: []string{"col1"}, pks: in, ordered: true}, want: [][]any{r(1), r(2), r(3)}},
		{src: src, sel: cqlSelect{cols: []string{"col1"}, pks: in, ordered: true, limit: 2}, want: [][]any{r(1), r(2)}},
		{src: src, sel: cqlSelect{cols: []string{"col1"}, pks: in, ordered: true, limit: 10}, want: [][]any{r(1), r(2), r(3)}},
		{src: src, sel: cqlSelect{cols: []string{"col1", "my_id"}, pks: in, ordered: true},
			want: [][]any{r(1, "key1"), r(2, "key3"), r(3, "key2")}},
		{src: src, sel: cqlSelect{cols: []string{"my_id", "col1"}, pks: in, ordered: true},
			want: [][]any{r("key1", 1), r("key3", 2), r("key2", 3)}},
	})
}
