package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

func TestCellConstructors(t *testing.T) {
	assert.Equal(t, replica.Cell{Column: "c", Value: []byte("v"), Timestamp: 1}, replica.Live("c", "v", 1))
	assert.Equal(t, replica.Cell{Column: "c", Value: []byte("v"), Timestamp: 1, TTL: 60, LocalDeletionTime: 99},
		replica.Expiring("c", "v", 1, 60, 99))
	assert.Equal(t, replica.Cell{Column: "c", Timestamp: 1, LocalDeletionTime: 7, Tombstone: true}, replica.Tombstone("c", 1, 7))
}

func TestCellIsExpiring(t *testing.T) {
	assert.False(t, replica.Live("c", "v", 1).IsExpiring())
	assert.True(t, replica.Expiring("c", "v", 1, 60, 99).IsExpiring())
	assert.False(t, replica.Expiring("c", "v", 1, 0, 99).IsExpiring(), "a zero TTL does not expire")
	assert.False(t, replica.Tombstone("c", 1, 7).IsExpiring())
	assert.False(t, replica.Cell{Column: "c", Tombstone: true, TTL: 5}.IsExpiring(), "a tombstone is never expiring")
}

func TestCellEqual(t *testing.T) {
	base := replica.Expiring("c", "v", 1, 60, 99)
	assert.True(t, base.Equal(replica.Expiring("c", "v", 1, 60, 99)))
	assert.True(t, replica.Cell{Column: "c"}.Equal(replica.Cell{Column: "c", Value: []byte{}}))
	for name, other := range map[string]replica.Cell{
		"column":    replica.Expiring("d", "v", 1, 60, 99),
		"value":     replica.Expiring("c", "w", 1, 60, 99),
		"timestamp": replica.Expiring("c", "v", 2, 60, 99),
		"ttl":       replica.Expiring("c", "v", 1, 61, 99),
		"ldt":       replica.Expiring("c", "v", 1, 60, 98),
		"tombstone": {Column: "c", Value: []byte("v"), Timestamp: 1, TTL: 60, LocalDeletionTime: 99, Tombstone: true},
	} {
		assert.False(t, base.Equal(other), name)
	}
}
