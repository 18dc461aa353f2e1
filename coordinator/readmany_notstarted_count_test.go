package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A key ReadMany does not start because its caller's context ended counts
// as a Read whose context ended before it sent anything does: in Reads and
// ReadsByLevel, and in Cancelled. The caller held three cancelled keys and
// the metrics counted none.
func TestReadManyKeysNotStartedCountAsCancelledReads(t *testing.T) {
	e := newEnv(t, coordinator.Config{Tables: map[string]coordinator.TableOptions{tbl: policy(t, "NEVER")}})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum})
	require.NoError(t, err)
	require.Len(t, res, 3)
	for _, r := range res {
		require.ErrorIs(t, r.Err, context.Canceled)
	}
	m := e.c.Metrics()
	for _, tm := range []coordinator.TableMetrics{m.Total, m.Tables[0]} {
		assert.EqualValues(t, 3, tm.Reads)
		assert.EqualValues(t, 3, tm.ReadsByLevel[consistency.Quorum])
		assert.EqualValues(t, 3, tm.Cancelled)
	}

	// A Read of the same context counts so too.
	_, err = e.c.Read(ctx, coordinator.Request{Table: tbl, Key: "a", Level: consistency.Quorum})
	require.ErrorIs(t, err, context.Canceled)
	assert.EqualValues(t, 4, e.c.Metrics().Total.Cancelled)
}

// Keys a page did not start before its caller's deadline count as timed
// out reads, as the key whose read the deadline ended does: five keys one
// at a time, replicas answering in 10 ms, a 15 ms deadline; k1 is read,
// k2 times out, k3 to k5 are not started. The metrics counted two reads
// and one timeout.
func TestReadManyKeysNotStartedByADeadlineCountAsTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{Tables: map[string]coordinator.TableOptions{tbl: policy(t, "NEVER")}})
		keys := []string{"k1", "k2", "k3", "k4", "k5"}
		seedRows(t, e, 1, keys...)
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(10)))
		}
		ctx, cancel := context.WithTimeout(t.Context(), ms(15))
		defer cancel()
		res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, Concurrency: 1})
		require.NoError(t, err)
		require.Len(t, res, 5)
		require.NoError(t, res[0].Err)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, res[1].Err, &timeout)
		for _, r := range res[2:] {
			require.ErrorIs(t, r.Err, context.DeadlineExceeded)
		}
		m := e.c.Metrics().Tables[0]
		assert.EqualValues(t, 5, m.Reads)
		assert.EqualValues(t, 4, m.Timeouts)
		assert.Zero(t, m.Cancelled)
		settle()
	})
}

// A table with no state of its own (never placed, or dropped) keeps none
// for keys not started: they count in Total alone, as a read the Locator
// could not place does.
func TestReadManyKeysNotStartedOfAnUnknownTableCountInTotal(t *testing.T) {
	e := newEnv(t, coordinator.Config{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: "unknown", Keys: []string{"a", "b"}, Level: consistency.One})
	require.NoError(t, err)
	require.Len(t, res, 2)
	m := e.c.Metrics()
	assert.Empty(t, m.Tables)
	assert.EqualValues(t, 2, m.Total.Reads)
	assert.EqualValues(t, 2, m.Total.ReadsByLevel[consistency.One])
	assert.EqualValues(t, 2, m.Total.Cancelled)
}

// Keys not started count as a Read of the same ended context counts, for
// every way a context ends: a cancel whose cause wraps
// context.DeadlineExceeded (an errgroup's, when a sibling timed out) is a
// cancel, not a timeout, and counted as one.
func TestReadManyKeysNotStartedCountAsReadDoes(t *testing.T) {
	ends := map[string]func(context.Context) (context.Context, context.CancelFunc){
		"cancel": context.WithCancel,
		"cancel with a cause": func(p context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(p)
			return ctx, func() { cancel(fmt.Errorf("shutting down")) }
		},
		"cancel with a cause wrapping DeadlineExceeded": func(p context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(p)
			return ctx, func() { cancel(fmt.Errorf("sibling fetch: %w", context.DeadlineExceeded)) }
		},
		"cancel with a ReadTimeoutError cause": func(p context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(p)
			return ctx, func() { cancel(&consistency.ReadTimeoutError{}) }
		},
		"deadline": func(p context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(p, -1)
		},
		"deadline with a cause": func(p context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeoutCause(p, -1, fmt.Errorf("budget spent"))
		},
	}
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			count := func(many bool) [4]int64 {
				e := newEnv(t, coordinator.Config{Tables: map[string]coordinator.TableOptions{tbl: policy(t, "NEVER")}})
				ctx, cancel := end(t.Context())
				cancel()
				if many {
					res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: consistency.Quorum})
					require.NoError(t, err)
					require.ErrorContains(t, res[0].Err, "not started")
				} else {
					_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
					require.Error(t, err)
				}
				m := e.c.Metrics().Tables[0]
				return [4]int64{m.Reads, m.Cancelled, m.Timeouts, m.OtherErrors}
			}
			assert.Equal(t, count(false), count(true), "[reads cancelled timeouts other] of Read, of ReadMany's key")
		})
	}
}
