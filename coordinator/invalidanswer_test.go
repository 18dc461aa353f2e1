package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// invalidData answers data reads with its partition's rows doubled, out
// of order: a partition that fails Validate.
type invalidData struct{ replica.Replica }

func (w invalidData) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := w.Replica.Read(ctx, cmd)
	p := &resp.Partition
	p.Rows = append(p.Rows[:len(p.Rows):len(p.Rows)], p.Rows...)
	return resp, err
}

// A replica answering an invalid partition is a failed replica, at ONE,
// where a data answer is only checked, and at QUORUM, where it is checked
// and digested in one walk: its data is never returned.
func TestReplicaAnsweringAnInvalidPartition(t *testing.T) {
	for _, level := range []consistency.Level{consistency.One, consistency.Quorum} {
		t.Run(level.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return invalidData{r} })
				c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "4ms")})
				require.NoError(t, err)
				defer c.Close()

				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
				require.NoError(t, err)
				assert.True(t, res.Partition.Equal(row(key, "v1", 10)), "%v", res.Partition)
				assert.ErrorIs(t, res.Trace.Requests[0].Err, replica.ErrInvalidPartition)
			})
		})
	}
}
