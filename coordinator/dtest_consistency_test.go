package coordinator_test

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// consistency_test.py test_13911 (CASSANDRA-13911): row 0 written while
// node2 was down, rows 1 and 2 deleted while node1 was down (RF 2; here
// node3 holds neither, and is down for the QUORUM read). SELECT DISTINCT
// pk, a per-partition limit of 1, at ALL (and QUORUM without node3)
// returns the partition, unpaged and in pages of 1.
func TestDtestDistinctOverDeletedRows(t *testing.T) {
	s := dtestScenario{toNode(1, pk("p0", insPK("0", 1))), toNode(2, pk("p0", del("1", 2), del("2", 2)))}
	for _, level := range []consistency.Level{consistency.All, consistency.Quorum} {
		for _, size := range []int{0, 1} {
			synctest.Test(t, func(t *testing.T) {
				v := dtestVariant{level: consistency.All}
				e := dtestEnv(t, s, v, coordinator.TableOptions{})
				if level == consistency.Quorum {
					require.NoError(t, e.cluster.SetAlive(C, false))
				}
				v.level = level
				assert.Equal(t, []string{"p0/0"}, e.pagedMany(t, v, []string{"p0"}, replica.Query{Limit: 1}, size), "%v, pages of %d", level, size)
			})
		}
	}
}

// consistency_test.py test_14513_transient (CASSANDRA-14513), scaled down
// as TestDtestReversedRangeDeletionsRepair: rows for every day of 2011..2017
// (3 months of 3 days), then range deletions of every day of 2018-01, on
// every node. year < 2018 ORDER BY year DESC at ONE returns every row,
// unpaged and in pages of 7.
func TestDtestReversedReadPastRangeDeletions(t *testing.T) {
	var rows []replica.Row
	var all []string
	for y := 2011; y <= 2017; y++ {
		for m := 1; m <= 3; m++ {
			for d := 1; d <= 3; d++ {
				ck := fmt.Sprintf("%d-%02d-%02d-title", y, m, d)
				rows = append(rows, insV(ck, 1))
				all = append(all, ck+":"+ck+"0")
			}
		}
	}
	var days []replica.RangeTombstone
	for d := 1; d <= 30; d++ {
		day := fmt.Sprintf("2018-01-%02d-", d)
		days = append(days, replica.NewRangeTombstone(replica.StartAt(day), replica.EndBefore(day+"\xff"), replica.DeletedAt(2, now-100)))
	}
	s := dtestScenario{allNodes(p(rows...)), allNodes(p().WithRangeTombstones(days...))}
	slices.Reverse(all)
	q := replica.Query{Slices: []replica.Slice{{Start: replica.Bottom(), End: replica.EndBefore("2018")}}, Reversed: true}
	for _, size := range []int{0, 7} {
		synctest.Test(t, func(t *testing.T) {
			v := dtestVariant{level: consistency.One, pageSize: size}
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			assert.Equal(t, all, e.readLimited(t, v, key, q), "pages of %d", size)
		})
	}
}
