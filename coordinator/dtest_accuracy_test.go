package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Port of cassandra-dtest consistency_test.py TestAccuracy
// test_simple_strategy_users (and _each_quorum_users, CASSANDRA-10584),
// RF 3: its combinations where R + W > N, in which every read must return
// the latest write. Each write reaches exactly W replicas, a different set
// each time (the dtest's writes may reach more), and a read at R follows
// each insert, update and the final delete, under BLOCKING and NONE repair.
// Its weak combinations (R + W <= N) assert only how many of five
// sessions read the value, which a single coordinator has no counterpart of.

// writeSets are the sets of w replicas of key, in turn.
func writeSets(w int) [][]string {
	var out [][]string
	for mask := 1; mask < 8; mask++ {
		var ids []string
		for i, id := range dtestNodes {
			if mask&(1<<i) != 0 {
				ids = append(ids, id)
			}
		}
		if len(ids) == w {
			out = append(out, ids)
		}
	}
	return out
}

func TestDtestAccuracyUsers(t *testing.T) {
	l := consistency.Simple(3)
	combos := [][2]consistency.Level{
		{consistency.All, consistency.All}, {consistency.Quorum, consistency.Quorum},
		{consistency.All, consistency.One}, {consistency.One, consistency.All},
		{consistency.Two, consistency.Two}, {consistency.One, consistency.Three},
		{consistency.Three, consistency.One}, {consistency.EachQuorum, consistency.LocalQuorum},
		{consistency.LocalQuorum, consistency.LocalQuorum}, {consistency.LocalQuorum, consistency.EachQuorum},
		{consistency.EachQuorum, consistency.EachQuorum},
	}
	for _, c := range combos {
		w, level := c[0].BlockFor(l, "dc1"), c[1]
		for _, mode := range []repair.Mode{repair.Blocking, repair.None} {
			t.Run(fmt.Sprintf("%v/%v/%v", c[0], level, mode), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					e := newEnv(t, coordinator.Config{LocalDatacenter: "dc1",
						DefaultTable: coordinator.TableOptions{ReadRepair: mode, NoClusteringColumns: true}})
					sets := writeSets(w)
					var ts int64 = 100
					require.NoError(t, e.cluster.Seed(tbl, p())) // no newEnv row
					write := func(p replica.Partition) {
						ts++
						for _, id := range sets[ts%int64(len(sets))] {
							require.NoError(t, e.cluster.SeedOn(tbl, merged(t, e.stored(t, id, key), p), id))
						}
					}
					check := func(want string) {
						t.Helper()
						res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, NowInSec: now})
						require.NoError(t, err)
						got := "none"
						if rows := res.Visible().Rows; len(rows) > 0 {
							got = string(rows[0].Cells[0].Value)
						}
						require.Equal(t, want, got, "written to %v", sets[ts%int64(len(sets))])
					}
					age := 30
					for range 3 { // INSERT INTO users (...) VALUES (n, age)
						write(p(replica.NewRow("", replica.Live("age", fmt.Sprint(age), ts+1)).WithLiveness(replica.Inserted(ts + 1))))
						check(fmt.Sprint(age))
						age++
					}
					for range 3 { // UPDATE users SET age = ? WHERE userid = n
						write(p(replica.NewRow("", replica.Live("age", fmt.Sprint(age), ts+1))))
						check(fmt.Sprint(age))
						age++
					}
					write(p().WithDeletion(replica.DeletedAt(ts+1, now-1))) // DELETE FROM users WHERE userid = n
					check("none")
				})
			})
		}
	}
}
