package replica_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Query's String tells nil Slices (every row) from an empty list (no row),
// which fmt's %v printed alike, as Slices:[] (a user's drill).
func TestQueryStringTellsAllRowsFromNone(t *testing.T) {
	for _, c := range []struct {
		q    replica.Query
		want string
	}{
		{replica.Query{}, "all rows"},
		{replica.Query{Slices: []replica.Slice{}}, "no rows"},
		{replica.Query{Reversed: true, Limit: 10}, "all rows reversed limit 10"},
		{replica.Query{Slices: []replica.Slice{
			{Start: replica.StartAt("a"), End: replica.EndAt("c")},
			{Start: replica.StartAfter("d"), End: replica.Top()},
		}, Limit: 2}, `["a", "c"] ("d", max) limit 2`},
	} {
		assert.Equal(t, c.want, c.q.String())
		assert.Equal(t, c.want, fmt.Sprint(c.q))
	}
}
