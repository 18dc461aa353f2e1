package coordinator_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// fiveInstant is an instant cluster of five nodes, RF 5, and a
// coordinator over it.
func fiveInstant(t *testing.T, opts coordinator.TableOptions) (*replicatest.Cluster, *coordinator.Coordinator) {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
		Replication: consistency.Simple(5),
	})
	require.NoError(t, err)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, DefaultTable: opts})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return cl, c
}

// fiveReplicaKeys are sixteen clustering keys, the empty one first.
func fiveReplicaKeys() []string {
	keys := []string{""}
	for i := range 15 {
		keys = append(keys, fmt.Sprintf("%02d", i))
	}
	return keys
}

// TestPagingOverFiveReplicasReturnsTheMergedView is
// TestPagingReturnsTheMergedView over five replicas and sixteen clustering
// keys, under BLOCKING and NONE: short-read protection then
// merges up to five versions a round, and paging at limits of 1 to 4
// returns exactly the whole read's rows. (From a review of the queries
// against Cassandra's; it found no bug here.)
func TestPagingOverFiveReplicasReturnsTheMergedView(t *testing.T) {
	for _, mode := range []repair.Mode{repair.Blocking, repair.None} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			opts := policy(t, "NEVER")
			opts.ReadRepair = mode
			cl, c := fiveInstant(t, opts)
			g := pageGen{keys: fiveReplicaKeys(), purgeable: true}
			n := 0
			rapid.Check(t, func(t *rapid.T) {
				n++
				q := g.query(t)
				q.Limit = rapid.IntRange(1, 4).Draw(t, "limit")
				req := coordinator.Request{Table: tbl, Key: fmt.Sprint("five", n), Level: consistency.All,
					Query: q, NowInSec: now}
				vs := g.versions(t, req.Key, 5)
				for i, r := range cl.Replicas() {
					require.NoError(t, r.Seed(tbl, vs[i]))
				}
				want, static := wholeRead(t, vs, req)
				got := pageThrough(t, c, req, static)
				require.True(t, slices.EqualFunc(got, want, replica.ViewRow.Equal), "replicas %v\nquery %+v\ngot  %v\nwant %v",
					vs, req.Query, replica.View{Rows: got}, replica.View{Rows: want})
			})
		})
	}
}

// ReadMany over five disagreeing replicas at ALL, sixteen clustering keys:
// the pages followed with Next return each key's rows as reading it alone
// under its per-partition limit does, up to the limit.
func TestReadManyPagingOverFiveReplicas(t *testing.T) {
	opts := policy(t, "NEVER")
	cl, c := fiveInstant(t, opts)
	g := pageGen{keys: fiveReplicaKeys(), purgeable: true}
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		req := coordinator.ManyRequest{Table: tbl, Level: consistency.All, Query: g.query(t), Columns: g.columns(t),
			Limit: rapid.IntRange(0, 6).Draw(t, "limit"), NowInSec: now}
		pageManyAgainstWhole(t, c, cl, req, fmt.Sprint("fivemany", n), 4, func(k string) []replica.Partition {
			return g.versions(t, k, 5)
		})
	})
}
