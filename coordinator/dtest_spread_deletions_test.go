package coordinator_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// consistency_test.py test_short_read (CASSANDRA-9460), widened: there each
// node deleted one row of the first three, here each node deleted a whole
// page of what the others hold, by a different kind of deletion, so that
// at ALL every replica's first answer to LIMIT 3 is full of rows another
// deleted and the read must go round again, in either order: rows 1..9
// everywhere; node1 deleted 1..3 by a range, node2 4..6 by rows, node3 7
// and 8 by a range (6, 8]; then node1 wrote a, newer. Live: 9 and a.
func spreadDeletions() dtestScenario {
	var s dtestScenario
	for i := 1; i < 10; i++ {
		s = append(s, allNodes(p(insV(fmt.Sprint(i), 1))))
	}
	return append(s,
		toNode(1, p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("1"), replica.EndAt("3"),
			replica.DeletedAt(2, now-100)))),
		toNode(2, p(del("4", 2), del("5", 2), del("6", 2))),
		toNode(3, p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("6"), replica.EndAt("8"),
			replica.DeletedAt(2, now-100)))),
		toNode(1, p(insV("a", 3))))
}

func TestDtestShortReadSpreadDeletions(t *testing.T) {
	from2 := []replica.Slice{{Start: replica.StartAt("2"), End: replica.EndAt("9")}}
	for _, c := range []struct {
		name string
		q    replica.Query
		want []string
	}{
		{"LIMIT 1", replica.Query{Limit: 1}, []string{"9:90"}},
		{"LIMIT 3", replica.Query{Limit: 3}, []string{"9:90", "a:a0"}},
		{"DESC LIMIT 1", replica.Query{Limit: 1, Reversed: true}, []string{"a:a0"}},
		{"DESC LIMIT 3", replica.Query{Limit: 3, Reversed: true}, []string{"a:a0", "9:90"}},
		{"c >= 2 AND c <= 9 LIMIT 2", replica.Query{Slices: from2, Limit: 2}, []string{"9:90"}},
		{"c >= 2 AND c <= 9 DESC LIMIT 1", replica.Query{Slices: from2, Limit: 1, Reversed: true}, []string{"9:90"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runDtest(t, spreadDeletions(), coordinator.TableOptions{}, c.q, c.want...)
		})
	}
}

// consistency_test.py test_short_read_delete (CASSANDRA-4000) with a
// static column, widened: rows 1..6 and s everywhere; node1 deleted the
// partition; node2 then wrote rows 7 and 8 and s again, newer; node3 then
// deleted 7. Every row node1 missed the deletion of is dead, and what
// lives is s and row 8, however the read is limited, in either order.
func TestDtestShortReadPartitionDeletionThenNewerRows(t *testing.T) {
	var s dtestScenario
	for i := 1; i < 7; i++ {
		s = append(s, allNodes(p(insV(fmt.Sprint(i), 1)).WithStatic(replica.Live("s", "s1", 1))))
	}
	s = append(s,
		toNode(1, p().WithDeletion(replica.DeletedAt(5, now-100))),
		toNode(2, p(insV("7", 6), insV("8", 6)).WithStatic(replica.Live("s", "s6", 6))),
		toNode(3, p(del("7", 7))))
	for _, limit := range []int{1, 2, 3} {
		for _, reversed := range []bool{false, true} {
			t.Run(fmt.Sprintf("LIMIT %d reversed=%v", limit, reversed), func(t *testing.T) {
				runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: limit, Reversed: reversed}, "8:80")
			})
		}
	}
}

// paging_test.py TestPagingWithDeletions.test_multiple_row_deletions with
// the IN query's per-partition limit (test_per_partition_limit_paging,
// CASSANDRA-11535) and short reads in each partition: keys p0..p2 hold rows
// 0..5; in each, node1 deleted 0 and 1, node2 2 and 3, node3 4. PER
// PARTITION LIMIT 1 returns row 5 of each key, in either order; LIMIT 2
// stops after two keys.
func TestDtestShortReadSpreadDeletionsPerPartitionLimit(t *testing.T) {
	keys := []string{"p0", "p1", "p2"}
	var s dtestScenario
	for _, k := range keys {
		for i := range 6 {
			s = append(s, allNodes(pk(k, insV(fmt.Sprint(i), 1))))
		}
		s = append(s,
			toNode(1, pk(k, del("0", 2), del("1", 2))),
			toNode(2, pk(k, del("2", 2), del("3", 2))),
			toNode(3, pk(k, del("4", 2))))
	}
	for _, reversed := range []bool{false, true} {
		t.Run(fmt.Sprint("reversed=", reversed), func(t *testing.T) {
			q := replica.Query{Limit: 1, Reversed: reversed}
			runManyDtest(t, s, coordinator.TableOptions{}, keys, q, 0, "p0/5", "p1/5", "p2/5")
			runManyDtest(t, s, coordinator.TableOptions{}, keys, q, 2, "p0/5", "p1/5")
		})
	}
}

// consistency_test.py test_quorum_available_during_failure, with short
// reads: rows 1..4 everywhere; A and B deleted 1 and 2 (a quorum delete C
// missed); C alone deleted 3 and holds the only copy of 0 (writes at ONE
// the others missed). A read at QUORUM returns the merge of the pair it
// reads, whichever node is down, each replica's answer short of live rows
// in the other's eyes: A and B give 3, 4; a pair with C gives 0, 4, as ALL
// does.
func TestDtestShortReadQuorumWithTheOnlyLiveCopyOnOneNode(t *testing.T) {
	all := p(insV("1", 1), insV("2", 1), insV("3", 1), insV("4", 1))
	ab := merged(t, all, p(del("1", 2), del("2", 2)))
	c := merged(t, all, p(insV("0", 1), del("3", 3)))
	for _, v := range dtestVariants() {
		if v.level == consistency.Quorum && v.down == "" {
			continue // the pair is the coordinator's to choose
		}
		want := []string{"0:00", "4:40"}
		if v.down == C {
			want = []string{"3:30", "4:40"}
		}
		for _, reversed := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				o := policy(t, "NEVER")
				o.ReadRepair, o.Strategy = v.mode, v.strategy
				e := newEnv(t, coordinator.Config{DefaultTable: o})
				for id, p := range map[string]replica.Partition{A: ab, B: ab, C: c} {
					require.NoError(t, e.cluster.SeedOn(tbl, p, id))
				}
				if v.down != "" {
					require.NoError(t, e.cluster.SetAlive(v.down, false))
				}
				got := e.readLimited(t, v, key, replica.Query{Limit: 2, Reversed: reversed})
				if reversed {
					got = reverse(got)
				}
				assert.Equal(t, want, got, "%v reversed=%v", v, reversed)
			})
		}
	}
}
