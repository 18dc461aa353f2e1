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
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A probe sent and then cancelled by its read's caller before the replica
// could answer tells nothing of it: the next read probes it again. It kept
// the claim, and the healed A, asked at ONE only when probed, waited a
// whole further ResetInterval (found by review).
func TestAProbeItsCallerCancelledIsReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnvOn(t, threeNodes(t), coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		e.behave(t, A, constant(ms(10)))
		_, _, err := e.read(consistency.All) // A scored at 10 ms, B and C at 1 ms
		require.NoError(t, err)
		e.behave(t, A, constant(ms(1))) // A heals
		time.Sleep(ms(501))             // and its score expires

		ctx, cancel := context.WithCancel(context.Background())
		var res coordinator.Result
		done := make(chan struct{})
		go func() {
			defer close(done)
			res, err = e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		}()
		synctest.Wait() // the probe is out
		cancel()
		<-done
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, A, firstContact(t, res), "the read probed A")
		settle()

		res, _, err = e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, A, firstContact(t, res), "the next read probes A")
	})
}

// A key's read whose probe a ReadMany page cancels, once the keys before
// it hold the page's rows, leaves the probe to the next read.
func TestAProbeAFilledPageCancelledIsReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const D = "dc1-r1-n4"
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 4}},
			Replication: consistency.Simple(3), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, A, B, C))
		require.NoError(t, cl.Pin(tbl, "k0", B, C, D))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		require.NoError(t, cl.Seed(tbl, row("k0", "v0", 10)))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		e.behave(t, A, constant(ms(10)))
		_, _, err = e.read(consistency.All) // A scored at 10 ms, B and C at 1 ms
		require.NoError(t, err)
		e.behave(t, A, constant(ms(5))) // A heals, slower than B and C
		time.Sleep(ms(501))             // and its score expires

		asked := e.stats(A).Reads
		rs, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl,
			Keys: []string{"k0", key}, Level: consistency.One, PageSize: 1})
		require.NoError(t, err)
		require.Len(t, rs, 1, "k0's row filled the page at 1 ms: k's read was cancelled")
		require.True(t, rs[0].Cut)
		settle()
		require.Equal(t, asked+1, e.stats(A).Reads, "the read of k probed A")

		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, A, firstContact(t, res), "the next read probes A")
	})
}

// A probe of a replica still sick tells so, and dates its score, however
// the probe ends: timed out, lost to a hedge, or cut by its caller's
// deadline. The next read does not probe it again.
func TestASickReplicasProbeIsNotRepeated(t *testing.T) {
	cases := []struct {
		name     string
		policy   string
		deadline time.Duration // the caller's, 0 for none
		// cancel cancels the caller's context once Read returned, as a
		// caller's deferred cancel does, before the losing probe's replica
		// returns from its cancelled request
		cancel bool
	}{
		{"timed out", "NEVER", 0, false},
		{"lost to a hedge", "3ms", 0, false},
		{"lost to a hedge, the caller's context cancelled after", "3ms", 0, true},
		{"cut by the caller's deadline", "NEVER", ms(5), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, tc.policy),
					ReadTimeout: ms(100), HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
					Snitch:  coordinator.SnitchConfig{ResetInterval: ms(500)},
					Locator: wrapID(cl, A, func(r replica.Replica) replica.Replica { return slowToStop{r, ms(1)} })})
				e.behave(t, A, constant(ms(10)))
				_, _, err := e.read(consistency.All) // A scored at 10 ms, B and C at 1 ms
				require.NoError(t, err)
				e.behave(t, A, constant(ms(1000))) // A worse
				time.Sleep(ms(501))                // and its score expires

				ctx := context.Background()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				ctx, cancel := context.WithCancel(ctx)
				res, _ := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				if tc.cancel {
					cancel()
				}
				require.Equal(t, A, firstContact(t, res), "the read probed A")
				time.Sleep(ms(2)) // the probe's replica returns
				settle()

				res, _, err = e.read(consistency.One)
				require.NoError(t, err)
				assert.NotEqual(t, A, firstContact(t, res), "A is not probed again\n%s", res.Trace)
				settle()
				cancel()
			})
		})
	}
}

// slowToStop is a replica that returns from a cancelled request a while
// after its context ended, as a request out on the network does.
type slowToStop struct {
	replica.Replica
	after time.Duration
}

func (r slowToStop) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if ctx.Err() != nil {
		time.Sleep(r.after)
	}
	return resp, err
}

// So is a remote datacenter's probe, claimed by the speculative request
// that goes to it (see TestASpeculativeRequestToTheRemoteGroupClaimsItsProbe).
func TestARemoteProbeItsCallerCancelledIsReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedRemoteReplica(t, coordinator.Config{DefaultTable: policy(t, "3ms"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		time.Sleep(ms(501))                    // d2n1's miss expires
		_, _, err := e.read(consistency.Three) // dc1 answers at 1 ms: dated anew, it claims no probe
		require.NoError(t, err)
		e.behave(t, d1n3, constant(ms(10))) // the read's hedge fires at 3 ms
		e.behave(t, d2n1, constant(ms(5)))

		ctx, cancel := context.WithCancel(context.Background())
		var res coordinator.Result
		done := make(chan struct{})
		go func() {
			defer close(done)
			res, err = e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Three})
		}()
		time.Sleep(ms(4)) // the hedge, d2n1's probe, is out
		cancel()
		<-done
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, d2n1, res.Trace.Hedge.To, "the read's hedge probed d2n1\n%s", res.Trace)
		settle()

		res, _, err = e.read(consistency.Three)
		require.NoError(t, err)
		assert.Equal(t, d2n1, res.Trace.Hedge.To, "the next read's hedge probes d2n1\n%s", res.Trace)
	})
}
