package replicatest_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spread draws a latency for every request: no two are likely equal.
var spread = replicatest.Behavior{Latency: replicatest.Uniform(ms(1), ms(100))}

// took sends each request in turn to a fresh replica with the Behavior b,
// in a bubble of its own, and returns how long each took.
func took(t *testing.T, b replicatest.Behavior, reqs ...func(context.Context, *replicatest.Replica) error) []time.Duration {
	var out []time.Duration
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, replicatest.WithSeed(3), with(b))
		for _, req := range reqs {
			start := time.Now()
			_ = req(t.Context(), r)
			out = append(out, time.Since(start))
		}
	})
	return out
}

func readOf(key string, digest bool) func(context.Context, *replicatest.Replica) error {
	return func(ctx context.Context, r *replicatest.Replica) error {
		_, err := r.Read(ctx, replica.Command{Table: table, Key: key, DigestOnly: digest})
		return err
	}
}

func applyOf(key string) func(context.Context, *replicatest.Replica) error {
	return func(ctx context.Context, r *replicatest.Replica) error {
		return r.Apply(ctx, replica.Mutation{Table: table, Partition: partition(key, "v", 1)})
	}
}

// cancelled sends req with a context that ends before it arrives (after 0)
// or after it arrived.
func cancelled(req func(context.Context, *replicatest.Replica) error, after time.Duration) func(context.Context, *replicatest.Replica) error {
	return func(ctx context.Context, r *replicatest.Replica) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if after == 0 {
			cancel()
		} else {
			time.AfterFunc(after, cancel)
		}
		return req(ctx, r)
	}
}

// A coordinator cancels its losers, and whether a loser's context ended
// before it arrived is a matter of scheduling: it must not change the
// draws of the requests after it.
func TestCancellingARequestShiftsNoLaterDraws(t *testing.T) {
	k := readOf("k", false)
	want := took(t, spread, k, k, k, k)
	for name, after := range map[string]time.Duration{"before it arrives": 0, "in service": ms(0.5)} {
		t.Run(name, func(t *testing.T) {
			got := took(t, spread, k, cancelled(k, after), k, k)
			assert.Equal(t, want[2:], got[2:])
		})
	}
}

// A request's draws depend on its key and kind and on how many such
// requests came before it, not on requests for other keys or of other
// kinds in between.
func TestDrawsFollowEachKeyAndKindNotTheInterleaving(t *testing.T) {
	a, aDigest, b, bApply := readOf("a", false), readOf("a", true), readOf("b", false), applyOf("b")
	grouped := took(t, spread, a, a, aDigest, aDigest, b, b, bApply, bApply)
	mixed := took(t, spread, bApply, a, b, aDigest, bApply, a, aDigest, b)
	assert.Equal(t, grouped, []time.Duration{mixed[1], mixed[5], mixed[3], mixed[6], mixed[2], mixed[7], mixed[0], mixed[4]})
	assert.NotEqual(t, grouped[0], grouped[2], "a digest read draws apart from a data read of its key")
	assert.NotEqual(t, grouped[0], grouped[1], "the second read of a key draws anew")
}

// Requests for different keys arriving at the same virtual instant each get
// the latency they would have alone, whichever reaches the replica first.
func TestConcurrentRequestsDrawAsIfAlone(t *testing.T) {
	keys := []string{"k0", "k1", "k2", "k3", "k4", "k5"}
	var alone []time.Duration
	for _, k := range keys {
		alone = append(alone, took(t, spread, readOf(k, false))[0])
	}
	for range 20 {
		synctest.Test(t, func(t *testing.T) {
			r := newReplica(t, replicatest.WithSeed(3), with(spread))
			got := make([]time.Duration, len(keys))
			done := make(chan struct{})
			for i, k := range keys {
				go func() {
					got[i], _, _ = timedRead(t.Context(), r, replica.Command{Table: table, Key: k})
					done <- struct{}{}
				}()
			}
			for range keys {
				<-done
			}
			require.Equal(t, alone, got)
		})
	}
}

// Per-request sources keep the models' distributions, over one key read
// many times and over many keys read once.
func TestPerRequestDrawsKeepTheModel(t *testing.T) {
	b := replicatest.Behavior{Latency: replicatest.LogNormal(ms(2), 1)}
	reads := make([]func(context.Context, *replicatest.Replica) error, 20001)
	for name, key := range map[string]func(i int) string{
		"one key":   func(int) string { return "k" },
		"many keys": func(i int) string { return fmt.Sprint("k", i) },
	} {
		t.Run(name, func(t *testing.T) {
			for i := range reads {
				reads[i] = readOf(key(i), false)
			}
			s := took(t, b, reads...)
			slices.Sort(s)
			assert.InEpsilon(t, float64(ms(2)), float64(s[len(s)/2]), 0.03)
			assert.InEpsilon(t, float64(ms(2))*math.Exp(2.326), float64(s[len(s)*99/100]), 0.1)
		})
	}
}

// A request's draws are seeded from its kind, table and key (the package
// doc): two replicas of one seed draw apart for a data and a digest read of
// a key, and for the table "ab" and key "c" and the table "a" and key "bc",
// each their first request, so that no two requests of a test share their
// latencies by accident of their names.
func TestFirstRequestsOfOtherKindsOrTablesDrawApart(t *testing.T) {
	readIn := func(table, key string) func(context.Context, *replicatest.Replica) error {
		return func(ctx context.Context, r *replicatest.Replica) error {
			_, err := r.Read(ctx, replica.Command{Table: table, Key: key})
			return err
		}
	}
	assert.NotEqual(t, took(t, spread, readOf("a", false)), took(t, spread, readOf("a", true)), "a data and a digest read")
	assert.NotEqual(t, took(t, spread, applyOf("a")), took(t, spread, readOf("a", false)), "a write and a data read")
	assert.NotEqual(t, took(t, spread, readIn("ab", "c")), took(t, spread, readIn("a", "bc")), `table "ab", key "c" and table "a", key "bc"`)
}
