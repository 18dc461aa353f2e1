package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// readsOver reads n times at QUORUM, spread evenly over d, and returns the
// last read's trace.
func readsOver(t *testing.T, c *coordinator.Coordinator, n int, d time.Duration) coordinator.Trace {
	t.Helper()
	var tr coordinator.Trace
	for range n {
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		tr = res.Trace
		time.Sleep(d / time.Duration(n))
	}
	return tr
}

// within says whether got is want to a latency tracker's precision.
func within(want, got time.Duration) bool {
	return got >= want-want/32 && got <= want+want/32
}

// After a table has been idle for longer than its latency window, its
// threshold keeps the last value until reads come again, then follows
// their latency, under the policy in force: one set while it was idle
// included.
func TestThresholdAfterIdleFollowsNewLatencyAndPolicy(t *testing.T) {
	for _, c := range []struct {
		policy, after string
		before, want  time.Duration
	}{
		{"99p", "", ms(10), ms(1)},
		{"99p", "50p", ms(10), ms(1)},
		{"10ms", "99p", ms(10), ms(1)},
		{"ALWAYS", "MAX(99p,3ms)", 0, ms(3)},
		{"99p", "MIN(90p,5ms)", ms(10), ms(1)},
	} {
		t.Run(c.policy+"→"+c.after, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, c.policy)})
				for _, id := range []string{A, B, C} {
					e.behave(t, id, constant(ms(10)))
				}
				tr := readsOver(t, e.c, 1000, 20*time.Second)
				assert.True(t, within(c.before, tr.Threshold), "before: %v", tr.Threshold)

				time.Sleep(10 * time.Minute)
				if c.after != "" {
					require.NoError(t, e.c.SetTableOptions(tbl, policy(t, c.after)))
				}
				for _, id := range []string{A, B, C} {
					e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(ms(1))})
				}
				tr = readsOver(t, e.c, 1000, 20*time.Second)
				assert.True(t, within(c.want, tr.Threshold), "after: %v", tr.Threshold)
				m := tableMetrics(t, e.c, tbl)
				assert.True(t, within(c.want, m.Threshold), "metrics: %v", m.Threshold)
			})
		})
	}
}
