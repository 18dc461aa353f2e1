package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A ReadMany whose per-partition limit (Query.Limit) is negative is refused
// as Read refuses that query: an invalid query, a *replica.QueryError
// naming the limit, not a page size the request did not set.
func TestReadManyRefusesANegativePerPartitionLimitAsAnInvalidQuery(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	q := replica.Query{Limit: -1}
	_, readErr := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "a", Level: consistency.One, Query: q})
	assert.ErrorIs(t, readErr, replica.ErrInvalidQuery, "Read")
	for _, req := range []coordinator.ManyRequest{
		{Table: "t", Keys: []string{"a", "b"}, Level: consistency.One, Query: q},
		{Table: "t", Keys: []string{"a", "b"}, Level: consistency.One, Query: q, PageSize: 10},
		{Table: "t", Keys: []string{"a", "b"}, Level: consistency.One, Query: q, Limit: 10},
	} {
		_, err := c.ReadMany(context.Background(), req)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, "PageSize %d, Limit %d", req.PageSize, req.Limit)
		assert.ErrorIs(t, err, replica.ErrInvalidQuery, "PageSize %d, Limit %d", req.PageSize, req.Limit)
		assert.NotContains(t, err.Error(), "page size", "PageSize %d, Limit %d", req.PageSize, req.Limit)
	}
}
