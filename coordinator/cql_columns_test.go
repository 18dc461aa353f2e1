package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Rows written by UPDATE have no primary-key liveness: Cassandra reads
// every column to decide that such a row exists and shows it with nulls
// in the columns selected (its ColumnFilter fetches all, queries some).
// With Request.Columns, readpath shows only the rows live in the selected
// columns: the README's "a column selection decides which rows exist".
// A CQL layer gets Cassandra's rows by reading every column.
func TestCQLColumnSelectionDecidesRowExistence(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("k:int", []string{"c:int"}, "v1", "v2") }
	setup := func(db *cqlDB) {
		db.update(map[string]any{"k": 0, "c": 0, "v1": 1})
		db.update(map[string]any{"k": 0, "c": 1, "v2": 2})
		db.update(map[string]any{"k": 0, "c": 2, "v1": 3})
	}
	cassandra := [][]any{r(0, 1), r(1, nil), r(2, 3)}
	runCQL(t, tab, coordinator.TableOptions{}, setup, []cqlVector{
		{src: "README deviation, Cassandra's rows", sel: cqlSelect{cols: []string{"c", "v1"}, pks: []any{0}, fetchAll: true}, want: cassandra},
	})
	synctest.Test(t, func(t *testing.T) {
		db := newCQL(t, tab(), coordinator.TableOptions{})
		setup(db)
		got, err := db.run(cqlSelect{cols: []string{"c", "v1"}, pks: []any{0}, level: consistency.Quorum})
		require.NoError(t, err)
		assert.Equal(t, [][]any{r(0, 1), r(2, 3)}, got, "readpath's documented deviation")
		got, err = db.run(cqlSelect{cols: []string{"c", "v1"}, pks: []any{0}, limit: 2, level: consistency.Quorum})
		require.NoError(t, err)
		assert.Equal(t, [][]any{r(0, 1), r(2, 3)}, got, "LIMIT 2 counts only rows live in v1; Cassandra: (0,1), (1,null)")
	})
}
