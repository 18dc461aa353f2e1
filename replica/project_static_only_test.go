package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A partition of static data only, read for none of its static columns,
// shows nothing: the column selection decides which rows exist (the
// README's deliberate difference), where Cassandra 5.0 fetches every
// column for such a partition and shows one row of nulls. Read for its
// static column, it shows the one row of no clustering.
func TestAStaticOnlyPartitionReadForOtherColumnsShowsNothing(t *testing.T) {
	p := replica.NewPartition("k").WithStatic(replica.Live("s", "x", 10))
	for _, c := range []struct {
		columns []string
		rows    int
	}{{[]string{"b"}, 0}, {[]string{"s"}, 1}, {[]string{"b", "s"}, 1}, {nil, 1}} {
		cmd := replica.Command{Table: "t", Key: "k", Columns: c.columns, NowInSec: 100}
		resp, err := cmd.Respond(p)
		require.NoError(t, err)
		assert.Len(t, resp.Partition.Visible(100).Rows, c.rows, "columns %q", c.columns)
	}
}
