package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A replica whose limited answer ended at the last row its query's slices
// can hold has nothing more to give: short-read protection does not ask
// it, forward or reversed. A holds 1 to 4; B and C deleted 1; the query
// reads [1, 2] (reversed: [0, 1]) with LIMIT 2. A's answer reaches the
// limit at the slice's end, the merge holds one live row, and a request
// for what follows would read an empty list of slices: a round trip for
// nothing, and over a transport that sends an empty list as nil (gob,
// protobuf), a read of every row, which the same replica answered again
// and again until the read timed out.
func TestShortReadStopsAtTheEndOfTheSlices(t *testing.T) {
	for _, c := range []struct {
		name    string
		q       replica.Query
		deleted string
		want    []string
	}{
		{"ascending", replica.Query{Limit: 2, Slices: []replica.Slice{{Start: replica.StartAt("1"), End: replica.EndAt("2")}}}, "1", []string{"2"}},
		{"descending", replica.Query{Limit: 2, Reversed: true, Slices: []replica.Slice{{Start: replica.StartAt("0"), End: replica.EndAt("1")}}}, "1", []string{"0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				all := []string{"0", "1", "2", "3", "4"}
				e := srpEnv(t, coordinator.TableOptions{},
					seeded(t, all), seeded(t, all, del(c.deleted, 20)), seeded(t, all, del(c.deleted, 20)))
				cks, extra := e.query(t, consistency.All, c.q)
				assert.Equal(t, c.want, cks)
				assert.Equal(t, int64(0), extra, "short-read requests")
			})
		})
	}
}
