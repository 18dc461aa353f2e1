package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// The read's time, and timestamps around it.
const (
	now = 1_700_000_000 // s
	us  = 1_000_000     // µs in a second
)

func at(s int64) int64 { return (now + s) * us } // a timestamp s seconds from now

// full is the partition as the cluster wrote it, held whole by A:
//   - static plan, changed from "free" to "pro";
//   - row a, INSERTed, with a cell and a token whose 60 s TTL ran out 10 s ago;
//   - row b, a map overwritten (its complex deletion) with two elements;
//   - rows c and d, then DELETE … WHERE ck >= 'c' AND ck <= 'e';
//   - row f.
func full() replica.Partition {
	return replica.NewPartition(key,
		replica.NewRow("a", replica.Live("v", "1", at(-500)),
			replica.Expiring("tok", "x", at(-70), 60, now-10)).WithLiveness(replica.Inserted(at(-500))),
		replica.NewRow("b", replica.Live("m", "v1", at(-300)).WithPath("k1"),
			replica.Live("m", "v2", at(-300)).WithPath("k2")).WithComplexDeletion("m", replica.DeletedAt(at(-301), now-301)),
		replica.NewRow("f", replica.Live("v", "6", at(-500))),
	).WithStatic(replica.Live("plan", "pro", at(-100))).
		WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("e"), replica.DeletedAt(at(-200), now-200)))
}

// behind is B's version: the old plan, row a written by an UPDATE (no
// liveness) before the INSERT, none of b, and row d, which the range
// deletion it missed removed everywhere else.
func behind() replica.Partition {
	return replica.NewPartition(key,
		replica.NewRow("a", replica.Live("v", "1", at(-500))),
		replica.NewRow("d", replica.Live("v", "4", at(-600))),
		replica.NewRow("f", replica.Live("v", "6", at(-500))),
	).WithStatic(replica.Live("plan", "free", at(-1000)))
}

// A QUORUM read at ALL over replicas holding expired cells, a range
// deletion, a collection and a static row returns what Cassandra's would —
// checked on the view a client sees — and repairs each stale replica with
// exactly what it lacks: afterwards every replica digests as the result.
func TestReadTimeEndToEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.cluster.SeedOn(tbl, full(), A))
		require.NoError(t, e.cluster.SeedOn(tbl, behind(), B))
		lacksK2 := full()
		lacksK2.Rows[1].Cells = lacksK2.Rows[1].Cells[:1]
		require.NoError(t, e.cluster.SeedOn(tbl, lacksK2, C))
		var repairs []coordinator.RepairEvent
		require.NoError(t, e.c.Close())
		c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
			Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) { repairs = append(repairs, ev) }}})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, NowInSec: now})
		require.NoError(t, err)
		assert.Equal(t, int64(now), res.NowInSec)
		want := replica.View{Key: key, Static: []replica.Cell{replica.Live("plan", "pro", at(-100))}, Rows: []replica.ViewRow{
			{Clustering: "a", Cells: []replica.Cell{replica.Live("v", "1", at(-500))}},
			{Clustering: "b", Cells: []replica.Cell{replica.Live("m", "v1", at(-300)).WithPath("k1"), replica.Live("m", "v2", at(-300)).WithPath("k2")}},
			{Clustering: "f", Cells: []replica.Cell{replica.Live("v", "6", at(-500))}},
		}}
		assert.True(t, want.Equal(res.Visible()), "got %v", res.Visible())

		byReplica := map[string]replica.Partition{}
		for _, ev := range repairs {
			require.NoError(t, ev.Err)
			byReplica[ev.To.ID] = ev.Mutation
		}
		require.Len(t, byReplica, 2, "B and C repaired, A up to date")
		onlyK2 := replica.Partition{Key: key, Rows: []replica.Row{{Clustering: "b",
			Cells: []replica.Cell{replica.Live("m", "v2", at(-300)).WithPath("k2")}}}}
		assert.True(t, onlyK2.Equal(byReplica[C]), "C lacked one map element, no more: %v", byReplica[C])
		toB := byReplica[B]
		assert.Len(t, toB.RangeTombstones, 1, "B gets the range deletion that removes its row d: %v", toB)
		assert.Equal(t, "pro", string(toB.Static.Cells[0].Value))

		cmd := replica.Command{Table: tbl, Key: key, DigestOnly: true, NowInSec: now, GCBefore: now - 864000}
		wantDigest, err := res.Partition.DigestAt(digest.Latest)
		require.NoError(t, err)
		for _, id := range []string{A, B, C} {
			stored, _ := e.replica(id).Partition(tbl, key)
			resp, err := cmd.Respond(stored)
			require.NoError(t, err)
			assert.Equal(t, wantDigest, resp.Digest, "%s after the repair", id)
		}
	})
}

// A replica whose node still runs an older build answers digests of
// version 1; the coordinator asks every replica of the read for version 1
// then, so that equal data still matches and no repair is needed.
func TestMixedDigestVersionsAgree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, A, B, C))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		old := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			reps, repl, err := cl.Locate(table, k)
			out := []replica.Replica{reps[0], v1Only{reps[1]}, reps[2]}
			return out, repl, err
		})
		c, err := coordinator.New(coordinator.Config{Locator: old, Liveness: cl})
		require.NoError(t, err)
		defer c.Close()
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err, "the old node was asked for a version it does not know")
		assert.False(t, res.Trace.DigestMismatch)
	})
}

// v1Only is a replica whose node supports digest version 1 only.
type v1Only struct{ replica.Replica }

func (v1Only) MaxDigestVersion() byte { return digest.V1 }

func (v v1Only) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if cmd.DigestVersion != digest.V1 {
		return replica.Response{}, errNotV1
	}
	return v.Replica.Read(ctx, cmd)
}

var errNotV1 = errors.New("asked for a digest version an old node does not know")

// A table's gc_grace_seconds decides which tombstones a read may purge: a
// tombstone older than the grace is purged by every replica, so a replica
// that never saw it agrees; a younger one is read and repaired.
func TestGCGraceDecidesWhichTombstonesAReadPurges(t *testing.T) {
	for _, c := range []struct {
		grace    int64
		mismatch bool
	}{{50, false}, {0, true}} { // 0: the default, ten days
		synctest.Test(t, func(t *testing.T) {
			o := policy(t, "NEVER")
			o.GCGraceSeconds = c.grace
			e := newEnv(t, coordinator.Config{DefaultTable: o})
			deleted := row(key, "v1", 10)
			deleted.Rows[0].Cells = append(deleted.Rows[0].Cells, replica.Tombstone("w", at(-100), now-100))
			require.NoError(t, e.cluster.SeedOn(tbl, deleted, A))

			res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum, NowInSec: now})
			require.NoError(t, err)
			assert.Equal(t, c.mismatch, res.Trace.DigestMismatch, "grace %d", c.grace)
		})
	}
}

// Without NowInSec a read takes the coordinator's clock, once.
func TestAReadTakesItsTimeOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, time.Now().Unix(), res.NowInSec)
		_, err = e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One, NowInSec: -1})
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
	})
}
