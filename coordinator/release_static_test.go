package coordinator_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// A partition deleted once and given a static row since (DELETE, then
// UPDATE of a static column) whose replicas disagree: its merge builds the
// static row's cells, and a read after a release builds them in the
// released result's memory.
func TestReleasedMemoryServesAStaticRowAfterAPartitionDeletion(t *testing.T) {
	c := staleCoordinator(t, func(i int) []replica.Partition {
		cells := make([]replica.Cell, 200)
		for c := range cells {
			ts := int64(10)
			if c%3 == i {
				ts++
			}
			cells[c] = replica.Live(fmt.Sprintf("s%03d", c), fmt.Sprint("v", ts), ts)
		}
		p := replica.NewPartition("s").WithStatic(cells...)
		if i == 0 {
			p = p.WithDeletion(replica.DeletedAt(5, time.Now().Unix()))
		}
		return []replica.Partition{p}
	})

	var last *replica.Cell
	reused := 0
	for range 20 {
		res := readKey(t, c, "s", consistency.All)
		require.Len(t, res.Partition.Static.Cells, 200)
		require.False(t, res.Partition.Deletion.IsLive())
		if &res.Partition.Static.Cells[0] == last {
			reused++
		}
		last = &res.Partition.Static.Cells[0]
		res.Release()
	}
	assert.Positive(t, reused, "no merge of the static row was built in a released result's memory")
}
