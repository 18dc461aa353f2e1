package coordinator_test

import (
	"fmt"
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// SelectLimitTest.testPerPartitionLimitWithStaticDataAndPaging: a int,
// b int, s int static, c int, PRIMARY KEY (a, b); five partitions holding
// only s, then rows in all but partition 1; page sizes 1 to 7.
func TestCQLSelectPerPartitionLimitWithStaticDataAndPaging(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("a:int", []string{"b:int"}, "s:static", "c") }
	src := srcLimit + "testPerPartitionLimitWithStaticDataAndPaging"
	staticOnly := func(db *cqlDB) {
		for i := range 5 {
			db.insert(map[string]any{"a": i, "s": i})
		}
	}
	n := func(i int) []any { return r(i, nil, i, nil) }
	for ps := 1; ps < 8; ps++ {
		t.Run(fmt.Sprintf("static only/page=%d", ps), func(t *testing.T) {
			runCQL(t, tab, coordinator.TableOptions{}, staticOnly, []cqlVector{
				{src: src, sel: cqlSelect{ppl: 2, pageSize: ps}, want: [][]any{n(0), n(1), n(2), n(3), n(4)}},
				{src: src, sel: cqlSelect{ppl: 2, limit: 4, pageSize: ps}, want: [][]any{n(0), n(1), n(2), n(3)}},
				{src: src, sel: cqlSelect{ppl: 2, limit: 3, pageSize: ps}, want: [][]any{n(0), n(1), n(2)}},
				{src: src, sel: cqlSelect{pks: []any{1, 3, 4}, ppl: 2, pageSize: ps}, want: [][]any{n(1), n(3), n(4)}},
				{src: src, sel: cqlSelect{pks: []any{1, 3, 4}, ppl: 2, limit: 2, pageSize: ps}, want: [][]any{n(1), n(3)}},
				{src: src, sel: cqlSelect{pks: []any{2}, ppl: 3, pageSize: ps}, want: [][]any{n(2)}},
				{src: src, sel: cqlSelect{pks: []any{2}, reversed: true, ppl: 3, pageSize: ps}, want: [][]any{n(2)}},
			})
		})
	}
	withRows := func(db *cqlDB) {
		staticOnly(db)
		for i := range 5 {
			if i != 1 {
				for j := range 5 {
					db.insert(map[string]any{"a": i, "b": j, "s": i, "c": j})
				}
			}
		}
	}
	w := func(i, j int) []any { return r(i, j, i, j) }
	for ps := 1; ps < 8; ps++ {
		t.Run(fmt.Sprintf("rows/page=%d", ps), func(t *testing.T) {
			runCQL(t, tab, coordinator.TableOptions{}, withRows, []cqlVector{
				{src: src, sel: cqlSelect{ppl: 2, pageSize: ps}, want: [][]any{w(0, 0), w(0, 1), n(1), w(2, 0), w(2, 1), w(3, 0), w(3, 1), w(4, 0), w(4, 1)}},
				{src: src, sel: cqlSelect{ppl: 2, limit: 4, pageSize: ps}, want: [][]any{w(0, 0), w(0, 1), n(1), w(2, 0)}},
				{src: src, sel: cqlSelect{ppl: 2, limit: 5, pageSize: ps}, want: [][]any{w(0, 0), w(0, 1), n(1), w(2, 0), w(2, 1)}},
				{src: src, sel: cqlSelect{pks: []any{2, 3}, ppl: 2, pageSize: ps}, want: [][]any{w(2, 0), w(2, 1), w(3, 0), w(3, 1)}},
				{src: src, sel: cqlSelect{pks: []any{2, 3}, ppl: 2, limit: 3, pageSize: ps}, want: [][]any{w(2, 0), w(2, 1), w(3, 0)}},
				{src: src, sel: cqlSelect{pks: []any{1, 2, 3}, ppl: 2, limit: 3, pageSize: ps}, want: [][]any{n(1), w(2, 0), w(2, 1)}},
				{src: src, sel: cqlSelect{pks: []any{2}, ppl: 3, pageSize: ps}, want: [][]any{w(2, 0), w(2, 1), w(2, 2)}},
				{src: src, sel: cqlSelect{pks: []any{2}, reversed: true, ppl: 3, pageSize: ps}, want: [][]any{w(2, 4), w(2, 3), w(2, 2)}},
				{src: src, sel: cqlSelect{pks: []any{2}, where: []cqlRel{rel("b", ">", 0)}, ppl: 2, pageSize: ps}, want: [][]any{w(2, 1), w(2, 2)}},
				{src: src, sel: cqlSelect{pks: []any{2}, where: []cqlRel{rel("b", ">", 2)}, reversed: true, ppl: 2, pageSize: ps}, want: [][]any{w(2, 4), w(2, 3)}},
			})
		})
	}
}

// SelectLimitTest.testLimitWithDeletedRowsAndStaticColumns: pk int, c int,
// v int, s int static; a deleted partition is not counted by LIMIT.
func TestCQLSelectLimitWithDeletedRowsAndStaticColumns(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("pk:int", []string{"c:int"}, "s:static", "v") }
	src := srcLimit + "testLimitWithDeletedRowsAndStaticColumns"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		for i := 1; i <= 5; i++ {
			db.insert(map[string]any{"pk": i, "c": -1, "v": 1, "s": 1})
		}
		db.deleteRows(2)
	}, []cqlVector{
		{src: src, sel: cqlSelect{}, want: [][]any{r(1, -1, 1, 1), r(3, -1, 1, 1), r(4, -1, 1, 1), r(5, -1, 1, 1)}},
		{src: src, sel: cqlSelect{limit: 2}, want: [][]any{r(1, -1, 1, 1), r(3, -1, 1, 1)}},
		{src: src, sel: cqlSelect{limit: 2, pageSize: 1}, want: [][]any{r(1, -1, 1, 1), r(3, -1, 1, 1)}},
	})
}

// SelectLimitTest.testFilteringOnClusteringColumnsWithLimitAndStaticColumns,
// the IN forms (b = 1 is a clustering slice there, no filtering): the
// static row of a partition without b = 1 must not count toward LIMIT.
func TestCQLSelectLimitStaticColumnsWithClusteringSlice(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("a:int", []string{"b:int"}, "s:static", "c") }
	src := srcLimit + "testFilteringOnClusteringColumnsWithLimitAndStaticColumns"
	in := []any{0, 1, 2, 3}
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		for i := range 4 {
			db.insert(map[string]any{"a": i, "s": i})
			for j := range 3 {
				if !((i == 0 || i == 3) && j == 1) {
					db.insert(map[string]any{"a": i, "b": j, "c": i + j})
				}
			}
		}
	}, []cqlVector{
		{src: src, sel: cqlSelect{}, want: [][]any{r(0, 0, 0, 0), r(0, 2, 0, 2), r(1, 0, 1, 1), r(1, 1, 1, 2), r(1, 2, 1, 3),
			r(2, 0, 2, 2), r(2, 1, 2, 3), r(2, 2, 2, 4), r(3, 0, 3, 3), r(3, 2, 3, 5)}},
		{src: src, sel: cqlSelect{pks: in, where: []cqlRel{rel("b", "=", 1)}, limit: 2}, want: [][]any{r(1, 1, 1, 2), r(2, 1, 2, 3)}},
		{src: src, sel: cqlSelect{pks: in, where: []cqlRel{rel("b", ">=", 1), rel("b", "<=", 1)}, limit: 2}, want: [][]any{r(1, 1, 1, 2), r(2, 1, 2, 3)}},
		{src: src, sel: cqlSelect{pks: in, where: []cqlRel{rel("b", "=", 1)}, limit: 2, pageSize: 1}, want: [][]any{r(1, 1, 1, 2), r(2, 1, 2, 3)}},
		{src: src, sel: cqlSelect{pks: in, where: []cqlRel{rel("b", "=", 1)}, reversed: true, limit: 2}, want: [][]any{r(1, 1, 1, 2), r(2, 1, 2, 3)}},
	})
}
