package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
)

const srcStatic = "StaticColumnsTest."

// StaticColumnsTest.testStaticColumns, up to its ALTER TABLE.
func TestCQLStaticColumns(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"p:int"}, "s:static", "v") }
	src := srcStatic + "testStaticColumns"
	k0 := []any{0}
	p := func(op string, vals ...any) []cqlRel { return []cqlRel{rel("p", op, vals...)} }
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"k": 0, "s": 42})
	}, []cqlVector{
		{src: src, sel: cqlSelect{}, want: [][]any{r(0, nil, 42, nil)}},
		{src: src, sel: cqlSelect{cols: []string{"s", "writetime(s)"}, pks: k0}, want: [][]any{r(42, int64(now*1_000_000))}},
		{src: src, sel: cqlSelect{}, want: [][]any{r(0, 0, 24, 0), r(0, 1, 24, 1)}, before: func(db *cqlDB) {
			db.insert(map[string]any{"k": 0, "p": 0, "s": 12, "v": 0})
			db.insert(map[string]any{"k": 0, "p": 1, "s": 24, "v": 1})
		}},
		{src: src, sel: cqlSelect{pks: k0, where: p("=", 0)}, want: [][]any{r(0, 0, 24, 0)}},
		{src: src, sel: cqlSelect{pks: k0, where: p("=", 1)}, want: [][]any{r(0, 1, 24, 1)}},
		{src: src, sel: cqlSelect{pks: k0, where: p("IN", 0, 1)}, want: [][]any{r(0, 0, 24, 0), r(0, 1, 24, 1)}},
		{src: src, sel: cqlSelect{cols: []string{"p", "v"}, pks: k0, where: p("=", 1)}, want: [][]any{r(1, 1)}},
		{src: src, sel: cqlSelect{cols: []string{"s"}, pks: k0, distinct: true}, want: [][]any{r(24)}},
		{src: src, sel: cqlSelect{cols: []string{"s"}, pks: k0}, want: [][]any{r(24), r(24)}},
		{src: src, sel: cqlSelect{cols: []string{"s", "v"}, pks: k0}, want: [][]any{r(24, 0), r(24, 1)}},
		{src: src, sel: cqlSelect{cols: []string{"s", "v"}, pks: k0, where: p("=", 1)}, want: [][]any{r(24, 1)}},
		{src: src, sel: cqlSelect{cols: []string{"p", "s"}, pks: k0, where: p("=", 1)}, want: [][]any{r(1, 24)}},
		{src: src, sel: cqlSelect{cols: []string{"k", "p", "s"}, pks: k0, where: p("=", 1)}, want: [][]any{r(0, 1, 24)}},
		{src: src, sel: cqlSelect{}, want: [][]any{r(0, 1, 24, 1)}, before: func(db *cqlDB) {
			db.deleteRows(0, rel("p", "=", 0))
		}},
		{src: src, sel: cqlSelect{}, want: [][]any{r(0, 1, nil, 1)}, before: func(db *cqlDB) {
			db.deleteCols([]string{"s"}, 0)
		}},
	})
}

// StaticColumnsTest.testStaticColumnsWithDistinct, its first part.
func TestCQLStaticColumnsWithDistinct(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"p:int"}, "s:static") }
	src := srcStatic + "testStaticColumnsWithDistinct"
	ks := []string{"k", "s"}
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"k": 1, "p": 1})
		db.insert(map[string]any{"k": 1, "p": 2})
	}, []cqlVector{
		{src: src, sel: cqlSelect{cols: ks}, want: [][]any{r(1, nil), r(1, nil)}},
		{src: src, sel: cqlSelect{cols: ks, distinct: true}, want: [][]any{r(1, nil)}},
		{src: src, sel: cqlSelect{cols: []string{"s"}, pks: []any{1}, distinct: true}, want: [][]any{r(nil)}},
		{src: src, sel: cqlSelect{cols: []string{"s"}, pks: []any{2}, distinct: true}},
		{src: src, sel: cqlSelect{cols: ks}, want: [][]any{r(1, nil), r(1, nil), r(2, 3), r(2, 3)}, before: func(db *cqlDB) {
			db.insert(map[string]any{"k": 2, "p": 1, "s": 3})
			db.insert(map[string]any{"k": 2, "p": 2})
		}},
		{src: src, sel: cqlSelect{cols: ks, distinct: true}, want: [][]any{r(1, nil), r(2, 3)}},
		{src: src, sel: cqlSelect{cols: []string{"s"}, pks: []any{1}, distinct: true}, want: [][]any{r(nil)}},
		{src: src, sel: cqlSelect{cols: []string{"s"}, pks: []any{2}, distinct: true}, want: [][]any{r(3)}},
		{src: src, sel: cqlSelect{cols: ks, distinct: true, pageSize: 1}, want: [][]any{r(1, nil), r(2, 3)}},
	})
}

// StaticColumnsTest.testStaticColumnsWithLimit (#6956).
func TestCQLStaticColumnsWithLimit(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"v:int"}, "s:static") }
	src := srcStatic + "testStaticColumnsWithLimit"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"k": 0, "s": 42})
		for i := range 4 {
			db.insert(map[string]any{"k": 0, "v": i})
		}
	}, []cqlVector{
		{src: src, sel: cqlSelect{pks: []any{0}, limit: 1}, want: [][]any{r(0, 0, 42)}},
		{src: src, sel: cqlSelect{pks: []any{0}, limit: 2}, want: [][]any{r(0, 0, 42), r(0, 1, 42)}},
		{src: src, sel: cqlSelect{pks: []any{0}, limit: 3}, want: [][]any{r(0, 0, 42), r(0, 1, 42), r(0, 2, 42)}},
	})
}

// StaticColumnsTest.testStaticColumnsWithEmptyClustering (#7455): an
// empty text clustering value beside static data.
func TestCQLStaticColumnsWithEmptyClustering(t *testing.T) {
	tab := func() *cqlTable {
		return cqlSchema("pkey:text", []string{"ckey:text"}, "value:text", "static_value:static text")
	}
	src := srcStatic + "testStaticColumnsWithEmptyClustering"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"pkey": "partition1", "static_value": "static value"})
		db.insert(map[string]any{"pkey": "partition1", "ckey": "", "value": "value"})
	}, []cqlVector{
		{src: src, sel: cqlSelect{pks: []any{"partition1"}}, want: [][]any{r("partition1", "", "static value", "value")}},
	})
}
