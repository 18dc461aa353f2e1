package replica_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A Query written as JSON (a log of what a read asked) names its bounds'
// kinds and reads back; an undefined kind does not marshal, and an
// unknown name leaves the kind unchanged.
func TestBoundKindJSONIsItsName(t *testing.T) {
	q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAfter("a"), End: replica.Top()}}, Limit: 3}
	b, err := json.Marshal(q)
	require.NoError(t, err)
	assert.Contains(t, string(b), `{"Start":{"Clustering":"a","Kind":"exclusive start"},"End":{"Clustering":"","Kind":"top"}}`)
	var back replica.Query
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, q, back)

	_, err = json.Marshal(replica.Bound{Kind: 6})
	assert.ErrorIs(t, err, replica.ErrUnknownBoundKind)
	k := replica.BoundTop
	assert.ErrorIs(t, json.Unmarshal([]byte(`"start"`), &k), replica.ErrUnknownBoundKind)
	assert.Equal(t, replica.BoundTop, k)
}
