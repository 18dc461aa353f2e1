package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// TTLTest.testCapExpirationDateOverflowPolicy's verifyData (simple column,
// clustering) with a TTL of 100 s instead of the maximum: an INSERT's row
// lives by its liveness alone, an UPDATE's by its cell; ttl(b) is what is
// left; once the TTL passes, both rows are gone (what a TTL is).
func TestCQLTTLInsertAndUpdate(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"a:int"}, "b") }
	src := "TTLTest.testCapExpirationDateOverflowPolicy"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"k": 2, "a": 2}, wopt{ttl: 100})
		db.update(map[string]any{"k": 1, "a": 1, "b": 1}, wopt{ttl: 100})
	}, []cqlVector{
		{src: src, sel: cqlSelect{}, want: [][]any{r(1, 1, 1), r(2, 2, nil)}},
		{src: src, sel: cqlSelect{cols: []string{"ttl(b)"}, pks: []any{1}}, want: [][]any{r(60)},
			before: func(db *cqlDB) { db.now += 40 }},
		{src: src + " (expired)", sel: cqlSelect{}, before: func(db *cqlDB) { db.now += 60 }},
	})
}

// An INSERT with a TTL, then an UPDATE without one: the row outlives its
// liveness by the cell the UPDATE wrote (Cassandra's row liveness rules,
// as in TTLTest's INSERT/UPDATE pair above).
func TestCQLTTLRowOutlivesLivenessByCell(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"a:int"}, "b", "c") }
	src := "TTLTest.testCapExpirationDateOverflowPolicy (INSERT USING TTL, then UPDATE)"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.insert(map[string]any{"k": 0, "a": 0, "b": 1, "c": 1}, wopt{ttl: 10})
		db.insert(map[string]any{"k": 0, "a": 1, "b": 1, "c": 1}, wopt{ttl: 10})
		db.update(map[string]any{"k": 0, "a": 1, "c": 2})
		db.insert(map[string]any{"k": 0, "a": 2, "b": 3})
		db.now += 10
	}, []cqlVector{
		{src: src, sel: cqlSelect{pks: []any{0}}, want: [][]any{r(0, 1, nil, 2), r(0, 2, 3, nil)}},
	})
}
