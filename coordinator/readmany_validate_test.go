package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A bad request's error is the one the first key's read would give, or the
// first empty key's: ReadMany checks the query once, not once a key, and
// says what it said before.
func TestReadManyErrorsNameTheFirstProblem(t *testing.T) {
	cl := instantCluster(t)
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1"})
	badQuery := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("b"), End: replica.EndBefore("a")}}}
	for _, tt := range []struct {
		req  coordinator.ManyRequest
		want string
	}{
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", ""}, Level: consistency.One}, "coordinator: invalid request: key may not be empty"},
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"", "b"}, Level: consistency.One}, "coordinator: invalid request: key may not be empty"},
		{coordinator.ManyRequest{Keys: []string{"a", ""}, Level: consistency.One}, "coordinator: invalid request: empty table name"},
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"a", ""}}, "coordinator: invalid request: consistency: unsupported consistency level ANY: it is for writes only, and the zero Level: was Request.Level left unset?"},
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"a", ""}, Level: consistency.One, Query: badQuery}, "coordinator: invalid request: replica: invalid query: slice 0: [\"b\", \"a\") selects no clustering key"},
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.One, Query: badQuery}, "coordinator: invalid request: replica: invalid query: slice 0: [\"b\", \"a\") selects no clustering key"},
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Serial}, "coordinator: invalid request: consistency: unsupported consistency level SERIAL: a serial read needs a Paxos round, which readpath does not run; read at QUORUM or LOCAL_QUORUM, or through your engine's Paxos"},
		{coordinator.ManyRequest{Table: tbl, Keys: []string{"a", ""}, Level: consistency.One, NowInSec: -1}, "coordinator: invalid request: negative read time -1"},
		// A negative Limit is named as such, not as the negative page size
		// each key's read would derive from it.
		{coordinator.ManyRequest{
			Table: tbl, Keys: []string{"a", "b"}, Level: consistency.One, Limit: -1,
		}, "coordinator: invalid request: negative limit -1"},
	} {
		_, err := e.c.ReadMany(context.Background(), tt.req)
		require.ErrorIs(t, err, coordinator.ErrInvalidRequest)
		assert.Equal(t, tt.want, err.Error())
	}
}
