package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// Ports of cassandra-dtest ttl_test.py TestTTL over runCQL (RF 3, every
// level, writes skewed too) instead of its single node. ttl_table is
// (key int PRIMARY KEY, col1, col2, col3); default_time_to_live is applied
// by the writer (cqlDB.defaultTTL), as Cassandra's write path does; the
// dtest's sleeps are read times (db.now) after the writes.

const srcTTL = "ttl_test.py TestTTL."

func ttlTable() *cqlTable { return cqlSchema("key:int", nil, "col1", "col2", "col3") }

var skinny = coordinator.TableOptions{NoClusteringColumns: true}

func later(s int64) func(db *cqlDB) { return func(db *cqlDB) { db.now += s } }

func row4(k, a, b, c any) []any { return r(k, a, b, c) }

func TestDtestTTLDefaultAndInsert(t *testing.T) {
	t.Run("test_default_ttl", func(t *testing.T) {
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.defaultTTL = 1
			for k := 1; k <= 3; k++ {
				db.insert(map[string]any{"key": k, "col1": k})
			}
		}, []cqlVector{
			{src: srcTTL + "test_default_ttl", want: [][]any{row4(1, 1, nil, nil), row4(2, 2, nil, nil), row4(3, 3, nil, nil)}},
			{src: srcTTL + "test_default_ttl (+3 s)", before: later(3)},
		})
	})
	t.Run("test_insert_ttl_has_priority_on_defaut_ttl", func(t *testing.T) {
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.defaultTTL = 1
			db.insert(map[string]any{"key": 1, "col1": 1}, wopt{ttl: 5})
		}, []cqlVector{
			{src: srcTTL + "test_insert_ttl_has_priority_on_defaut_ttl (+2 s)", before: later(2), want: [][]any{row4(1, 1, nil, nil)}},
			{src: srcTTL + "test_insert_ttl_has_priority_on_defaut_ttl (+7 s)", before: later(5)},
		})
	})
	t.Run("test_insert_ttl_works_without_default_ttl", func(t *testing.T) {
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.insert(map[string]any{"key": 1, "col1": 1}, wopt{ttl: 1})
		}, []cqlVector{{src: srcTTL + "test_insert_ttl_works_without_default_ttl (+3 s)", before: later(3)}})
	})
	t.Run("test_removing_default_ttl_does_not_affect_existing_rows", func(t *testing.T) {
		src := srcTTL + "test_removing_default_ttl_does_not_affect_existing_rows"
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.defaultTTL = 10
			db.insert(map[string]any{"key": 1, "col1": 1})
			db.insert(map[string]any{"key": 2, "col1": 1}, wopt{ttl: 15})
			db.defaultTTL = 0
			db.insert(map[string]any{"key": 3, "col1": 1})
		}, []cqlVector{
			{src: src + " (+5 s)", before: later(5), want: [][]any{row4(1, 1, nil, nil), row4(2, 1, nil, nil), row4(3, 1, nil, nil)}},
			{src: src + " (+12 s)", before: later(7), want: [][]any{row4(2, 1, nil, nil), row4(3, 1, nil, nil)}},
			{src: src + " (+20 s)", before: later(8), want: [][]any{row4(3, 1, nil, nil)}},
		})
	})
}

func TestDtestTTLOfColumns(t *testing.T) {
	full := map[string]any{"key": 1, "col1": 1, "col2": 1, "col3": 1}
	t.Run("test_update_single_column_ttl", func(t *testing.T) {
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.insert(full)
			db.update(map[string]any{"key": 1, "col1": 42}, wopt{ttl: 3})
		}, []cqlVector{
			{src: srcTTL + "test_update_single_column_ttl", want: [][]any{row4(1, 42, 1, 1)}},
			{src: srcTTL + "test_update_single_column_ttl (+5 s)", before: later(5), want: [][]any{row4(1, nil, 1, 1)}},
		})
	})
	t.Run("test_update_multiple_columns_ttl", func(t *testing.T) {
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.insert(full)
			db.update(map[string]any{"key": 1, "col1": 42, "col2": 42, "col3": 42}, wopt{ttl: 2})
		}, []cqlVector{
			{src: srcTTL + "test_update_multiple_columns_ttl", want: [][]any{row4(1, 42, 42, 42)}},
			// The INSERT's liveness keeps the row once its every value expired.
			{src: srcTTL + "test_update_multiple_columns_ttl (+4 s)", before: later(4), want: [][]any{row4(1, nil, nil, nil)}},
		})
	})
	t.Run("test_update_column_ttl_with_default_ttl", func(t *testing.T) {
		src := srcTTL + "test_update_column_ttl_with_default_ttl"
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.defaultTTL = 8
			db.insert(full)
			db.update(map[string]any{"key": 1, "col1": 42}, wopt{ttl: 3})
		}, []cqlVector{
			{src: src, want: [][]any{row4(1, 42, 1, 1)}},
			{src: src + " (+5 s)", before: later(5), want: [][]any{row4(1, nil, 1, 1)}},
			{src: src + " (+10 s)", before: later(5)},
		})
	})
	t.Run("update_column_ttl_with_default_ttl_test2", func(t *testing.T) {
		// Not collected by pytest (its name does not start with test_).
		src := srcTTL + "update_column_ttl_with_default_ttl_test2"
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.defaultTTL = 2
			db.insert(full)
			db.update(map[string]any{"key": 1, "col1": 42}, wopt{ttl: 6})
		}, []cqlVector{
			// The row outlives its liveness by col1's longer TTL.
			{src: src + " (+4 s)", before: later(4), want: [][]any{row4(1, 42, nil, nil)}},
			{src: src + " (+8 s)", before: later(4)},
		})
	})
	t.Run("test_remove_column_ttl", func(t *testing.T) {
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.insert(full, wopt{ttl: 2})
			db.update(map[string]any{"key": 1, "col1": 42})
		}, []cqlVector{{src: srcTTL + "test_remove_column_ttl (+4 s)", before: later(4), want: [][]any{row4(1, 42, nil, nil)}}})
	})
	t.Run("test_set_ttl_to_zero_to_default_ttl", func(t *testing.T) {
		// CASSANDRA-11207: USING TTL 0 writes with no TTL, whatever the default.
		runCQL(t, ttlTable, skinny, func(db *cqlDB) {
			db.defaultTTL = 2
			db.insert(full)
			db.insert(map[string]any{"key": 2, "col1": 1, "col2": 1, "col3": 1})
			db.update(map[string]any{"key": 1, "col1": 42}, wopt{zeroTTL: true})
			db.update(map[string]any{"key": 2, "col1": 42}, wopt{ttl: 3})
		}, []cqlVector{{src: srcTTL + "test_set_ttl_to_zero_to_default_ttl (+5 s)", before: later(5), want: [][]any{row4(1, 42, nil, nil)}}})
	})
}

// test_delete_with_ttl_expired (CASSANDRA-6363): a row whose TTL'd column
// expired is still deleted by a DELETE (the dtest's IF usr = 'abc' is a
// lightweight transaction, outside a read path; the row matches it).
func TestDtestTTLDeleteAfterExpiry(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("id:text", nil, "usr:text", "valid") }
	src := srcTTL + "test_delete_with_ttl_expired"
	runCQL(t, tab, skinny, func(db *cqlDB) {
		db.insert(map[string]any{"id": "abc", "usr": "abc"})
		db.update(map[string]any{"id": "abc", "valid": 1}, wopt{ttl: 1})
	}, []cqlVector{
		{src: src + " (+2 s)", before: later(2), want: [][]any{r("abc", "abc", nil)}},
		{src: src + " (deleted)", before: func(db *cqlDB) { db.deleteRows("abc") }},
	})
}
