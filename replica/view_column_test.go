package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A client looks a row's columns up by name: a simple column gives its
// one live cell, a complex column its live elements in path order, and a
// column with no live cell (never written, deleted or expired) none.
func TestViewColumnLookup(t *testing.T) {
	const ts, now = 1_700_000_000_000_000, 1_700_000_100
	p := replica.NewPartition("k",
		replica.NewRow("r1",
			replica.Live("a", "1", ts),
			replica.Live("tags", "", ts).WithPath("x"),
			replica.Live("tags", "", ts).WithPath("y"),
			replica.Live("tags", "", ts).WithPath("z"),
			replica.Expiring("token", "t", ts, 10, now-5), // expired at the read's time
			replica.Live("z", "26", ts),
		),
	).WithStatic(replica.Live("plan", "free", ts), replica.Live("quota", "5", ts))
	require.NoError(t, p.Validate())
	v := p.Visible(now)
	require.Len(t, v.Rows, 1)
	row := v.Rows[0]

	a := row.Column("a")
	require.Len(t, a, 1)
	assert.Equal(t, "1", string(a[0].Value))
	tags := row.Column("tags")
	require.Len(t, tags, 3)
	assert.Equal(t, []string{"x", "y", "z"}, []string{tags[0].Path, tags[1].Path, tags[2].Path})
	assert.Empty(t, row.Column("token"), "expired")
	assert.Empty(t, row.Column("b"), "never written")
	assert.Empty(t, row.Column(""), "before every column")
	assert.Empty(t, row.Column("zz"), "after every column")
	assert.Equal(t, "26", string(row.Column("z")[0].Value))

	quota := v.StaticColumn("quota")
	require.Len(t, quota, 1)
	assert.Equal(t, "5", string(quota[0].Value))
	assert.Empty(t, v.StaticColumn("a"), "a regular column is not static")

	// Appending to what Column returns leaves the row as it was.
	_ = append(tags, replica.Live("w", "0", ts))
	assert.Equal(t, "z", row.Cells[4].Column)
}
