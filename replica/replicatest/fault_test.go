package replicatest_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errBoom = errors.New("boom")

func TestFaultsEndRequestsAtExactTimes(t *testing.T) {
	cases := []struct {
		name     string
		fault    replicatest.Fault
		deadline time.Duration
		took     time.Duration
		want     error
		stats    replicatest.Stats
	}{
		{"down fails at once", replicatest.Down(), ms(50), 0, replicatest.ErrDown,
			replicatest.Stats{Reads: 1, DataReads: 1, Errors: 1}},
		{"unreachable waits for the deadline", replicatest.Unreachable(), ms(50), ms(50), context.DeadlineExceeded,
			replicatest.Stats{Reads: 1, DataReads: 1, Cancellations: 1}},
		{"error after its delay", replicatest.ErrorAfter(ms(7), errBoom), ms(50), ms(7), errBoom,
			replicatest.Stats{Reads: 1, DataReads: 1, Errors: 1}},
		{"error after, nil error", replicatest.ErrorAfter(ms(7), nil), ms(50), ms(7), replicatest.ErrInjected,
			replicatest.Stats{Reads: 1, DataReads: 1, Errors: 1}},
		{"error after a later deadline", replicatest.ErrorAfter(ms(70), errBoom), ms(50), ms(50), context.DeadlineExceeded,
			replicatest.Stats{Reads: 1, DataReads: 1, Cancellations: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// The fault decides before any pause window or latency.
				r := newReplica(t, with(replicatest.Behavior{
					Fault: c.fault, Latency: replicatest.Constant(ms(1)), Pauses: []replicatest.Window{{0, ms(30)}},
				}))
				ctx, cancel := context.WithTimeout(t.Context(), c.deadline)
				defer cancel()
				took, _, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
				assert.Equal(t, c.took, took)
				require.ErrorIs(t, err, c.want)
				assert.Equal(t, c.stats, r.Stats())
			})
		})
	}
}

func TestFaultsApplyToMutations(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Fault: replicatest.Down()}))
		err := r.Apply(t.Context(), replica.Mutation{Table: table, Partition: partition("k", "v", 1)})
		require.ErrorIs(t, err, replicatest.ErrDown)
		var re *replicatest.RequestError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, "apply", re.Op)
		_, held := r.Partition(table, "k")
		assert.False(t, held)
	})
}

func TestPanicsFaultPanicsInTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Fault: replicatest.Panics()}))
		recovered := func() (v any) {
			defer func() { v = recover() }()
			_, _ = r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
			return nil
		}()
		err, ok := recovered.(error)
		require.True(t, ok, "panic value %v is not an error", recovered)
		require.ErrorIs(t, err, replicatest.ErrInjectedPanic)
		assert.Contains(t, err.Error(), "n1")
		assert.Equal(t, replicatest.Stats{Reads: 1, DataReads: 1, Panics: 1}, r.Stats(), "in flight is back to 0")
	})
}

func TestHealingAFaultedReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Fault: replicatest.Down()}))
		_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
		require.ErrorIs(t, err, replicatest.ErrDown)
		require.NoError(t, r.SetFault(replicatest.Fault{}))
		_, err = r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
		require.NoError(t, err)
	})
}

func TestFaultStrings(t *testing.T) {
	for want, f := range map[string]replicatest.Fault{
		"none":                  {},
		"down":                  replicatest.Down(),
		"unreachable":           replicatest.Unreachable(),
		"ignores context":       replicatest.IgnoresContext(),
		"panics":                replicatest.Panics(),
		"error after 5ms: boom": replicatest.ErrorAfter(ms(5), errBoom),
	} {
		assert.Equal(t, want, f.String())
		assert.Equal(t, want == "none", f.IsZero())
	}
}
