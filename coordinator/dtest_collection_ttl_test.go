package coordinator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Ports of cassandra-dtest ttl_test.py TestTTL test_collection_list_ttl,
// _set_ttl and _map_ttl: a TTL holds per element. The INSERT (with the
// table's default TTL) is on every replica; the UPDATE USING TTL that
// follows misses C, so that QUORUM and ALL reads must merge it in.

// collectionInsert is INSERT INTO ttl_table (key, col1, coll) VALUES (1,
// 1, elems) at ts with a TTL: the collection's earlier cells deleted,
// every element expiring. elems are path=value pairs.
func collectionInsert(coll string, ttl int32, elems ...string) replica.Partition {
	ts, exp := at(0), now+int64(ttl)
	cells := []replica.Cell{replica.Expiring("col1", "1", ts, ttl, exp)}
	for _, e := range elems {
		path, v, _ := strings.Cut(e, "=")
		cells = append(cells, replica.Expiring(coll, v, ts, ttl, exp).WithPath(path))
	}
	return replica.NewPartition(key, replica.NewRow("", cells...).
		WithLiveness(replica.InsertedWithTTL(ts, ttl, exp)).
		WithComplexDeletion(coll, replica.DeletedAt(ts-1, now)))
}

// collectionUpdate is UPDATE ttl_table USING TTL ttl SET elements, a
// second after the INSERT.
func collectionUpdate(coll string, ttl int32, elems ...string) replica.Partition {
	ts, exp := at(0)+1, now+int64(ttl)
	var cells []replica.Cell
	for _, e := range elems {
		path, v, _ := strings.Cut(e, "=")
		cells = append(cells, replica.Expiring(coll, v, ts, ttl, exp).WithPath(path))
	}
	return replica.NewPartition(key, replica.NewRow("", cells...))
}

// elements reads key at level at now+s and returns coll's elements as
// values in path order (a set's elements are its paths), or nil when the
// row is gone.
func (e *env) elements(t *testing.T, level consistency.Level, coll string, s int64) []string {
	t.Helper()
	res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, NowInSec: now + s})
	require.NoError(t, err)
	rows := res.Visible().Rows
	if len(rows) == 0 {
		return nil
	}
	out := []string{}
	for _, c := range rows[0].Cells {
		switch {
		case c.Column == coll && len(c.Value) == 0:
			out = append(out, c.Path)
		case c.Column == coll:
			out = append(out, string(c.Value))
		}
	}
	return out
}

func TestDtestCollectionTTL(t *testing.T) {
	type read struct {
		after int64
		want  []string
	}
	for _, tc := range []struct {
		name           string
		insert, update replica.Partition
		reads          []read
	}{
		{ // list paths are time-UUIDs in order; mylist[0] and [4] overwrite the cells of the first and last
			"test_collection_list_ttl",
			collectionInsert("mylist", 10, "t1=1", "t2=2", "t3=3", "t4=4", "t5=5"),
			collectionUpdate("mylist", 5, "t1=42", "t5=42"),
			[]read{{0, []string{"42", "2", "3", "4", "42"}}, {7, []string{"2", "3", "4"}}, {12, nil}},
		},
		{
			"test_collection_set_ttl",
			collectionInsert("myset", 10, "01=", "02=", "03=", "04=", "05="),
			collectionUpdate("myset", 3, "42="),
			[]read{{0, []string{"01", "02", "03", "04", "05", "42"}}, {5, []string{"01", "02", "03", "04", "05"}}, {12, nil}},
		},
		{
			"test_collection_map_ttl",
			collectionInsert("mymap", 6, "1=1", "2=2", "3=3", "4=4", "5=5"),
			collectionUpdate("mymap", 2, "1=42", "5=42"),
			[]read{{0, []string{"42", "2", "3", "4", "42"}}, {4, []string{"2", "3", "4"}}, {8, nil}},
		},
	} {
		for _, level := range []consistency.Level{consistency.Quorum, consistency.All} {
			t.Run(fmt.Sprintf("%s/%v", tc.name, level), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					withUpdate := merged(t, tc.insert, tc.update)
					e := srpEnv(t, coordinator.TableOptions{NoClusteringColumns: true}, withUpdate, withUpdate, tc.insert)
					coll := tc.insert.Rows[0].ComplexDeletions[0].Column
					for _, r := range tc.reads {
						assert.Equal(t, r.want, e.elements(t, level, coll, r.after), "+%d s", r.after)
					}
				})
			})
		}
	}
}
