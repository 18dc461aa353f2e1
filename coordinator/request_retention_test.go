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

// lateReader answers after release is closed, ignoring its context, and
// then sends what it was asked on seen: a replica that reads its command
// after the read gave up on it.
type lateReader struct {
	replica.Replica
	release chan struct{}
	seen    chan replica.Command
}

func (l lateReader) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	<-l.release
	l.seen <- replica.Command{Columns: append([]string(nil), cmd.Columns...),
		Query: replica.Query{Slices: append([]replica.Slice(nil), cmd.Query.Slices...)}}
	return l.Replica.Read(ctx, cmd)
}

// A request's column selection and slices are the caller's again once Read
// or ReadMany returns, as a Go caller expects: the coordinator reads its
// own copies, which a replica's late answer is checked against on a worker
// after the read returned. It read the caller's, and a caller reusing them
// changed what a late replica was asked and raced with the check.
func TestTheCallersColumnsAndSlicesAreNotKept(t *testing.T) {
	for _, many := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{})
			late := lateReader{release: make(chan struct{}), seen: make(chan replica.Command, 1)}
			c, err := coordinator.New(coordinator.Config{
				Locator: wrapID(e.cluster, A, func(r replica.Replica) replica.Replica {
					late.Replica = r
					return late
				}),
				Liveness: e.cluster, ReadTimeout: ms(10), DefaultTable: policy(t, "NEVER"),
				Snitch: coordinator.SnitchConfig{Disabled: true}, // A, first in the static order, is asked
			})
			require.NoError(t, err)
			defer c.Close()
			columns := []string{"v"}
			from := replica.Slice{Start: replica.StartAt("a"), End: replica.Top()}
			slices := []replica.Slice{from}
			q := replica.Query{Slices: slices}
			if many {
				res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key},
					Level: consistency.One, Columns: columns, Query: q})
				require.NoError(t, err)
				require.Error(t, res[0].Err)
			} else {
				_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One,
					Columns: columns, Query: q})
				require.Error(t, err)
			}
			columns[0], slices[0].Start = "w", replica.StartAt("z") // the caller reuses them
			close(late.release)
			got := <-late.seen
			assert.Equal(t, []string{"v"}, got.Columns)
			assert.Equal(t, []replica.Slice{from}, got.Query.Slices)
		})
	}
}
