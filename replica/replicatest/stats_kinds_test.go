package replicatest_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Stats tells a call that ended with its context's error (Cancellations)
// from one that failed otherwise (Errors), and a queue's refusal
// (Overloaded) from an injected error, by what ended the call, not by what
// its error wraps: an injected error wrapping context.Canceled while the
// caller's context is live (a torn-down stream), an injected
// DeadlineExceeded, and an injected ErrOverloaded with no queue at all were
// counted as a cancellation, a cancellation and a full queue.
func TestStatsCountWhatEndedACall(t *testing.T) {
	for name, tc := range map[string]struct {
		err  error
		read bool
		want replicatest.Stats
	}{
		"a read's error wrapping Canceled": {fmt.Errorf("stream reset by peer: %w", context.Canceled), true,
			replicatest.Stats{Reads: 1, DataReads: 1, Errors: 1}},
		"a write's DeadlineExceeded": {context.DeadlineExceeded, false, replicatest.Stats{Mutations: 1, Errors: 1}},
		"a read's ErrOverloaded, unqueued": {replicatest.ErrOverloaded, true,
			replicatest.Stats{Reads: 1, DataReads: 1, Errors: 1}},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newReplica(t, with(replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(1), tc.err)}))
				var err error
				if tc.read {
					_, err = r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
				} else {
					err = r.Apply(t.Context(), replica.Mutation{Table: table, Partition: partition("k", "v", 1)})
				}
				require.ErrorIs(t, err, tc.err)
				assert.Equal(t, tc.want, r.Stats())
			})
		})
	}
}

// WithBehavior copies its Behavior when it is called: an option is
// immutable and may be shared, and the caller editing its Behavior
// afterwards (to build another replica, say) changed the option, and the
// replicas a cluster built with it.
func TestWithBehaviorCopiesItsBehavior(t *testing.T) {
	b := replicatest.Behavior{Pauses: []replicatest.Window{{Start: 0, End: ms(10)}}}
	opt := replicatest.WithBehavior(b)
	b.Pauses[0].End = ms(500)
	r := newReplica(t, opt)
	assert.Equal(t, []replicatest.Window{{Start: 0, End: ms(10)}}, r.Behavior().Pauses)
}

// LateAnswers counts only the calls that went on past their context's end
// (Stats' doc): a replica with the IgnoresContext fault whose callers'
// contexts are live when it answers answers on time, and counts none.
func TestIgnoringTheContextCountsNoLateAnswerWhileTheContextLives(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Latency: replicatest.Constant(ms(10)), Fault: replicatest.IgnoresContext()}))
		_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
		require.NoError(t, err)
		require.NoError(t, r.Apply(t.Context(), replica.Mutation{Table: table, Partition: partition("k", "v", 1)}))
		assert.Equal(t, replicatest.Stats{Reads: 1, DataReads: 1, Mutations: 1}, r.Stats())
	})
}
