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
	assert.Equal(t, replica.Cell{Column: "c", Path: "p", Timestamp: 1, LocalDeletionTime: 7, Tombstone: true}, replica.Tombstone("c", 1, 7).WithPath("p"))
}

func TestCellBytesConstructorsShareTheValue(t *testing.T) {
	v := []byte{0, 0xff}
	c := replica.LiveBytes("c", v, 1)
	assert.Equal(t, replica.Cell{Column: "c", Value: v, Timestamp: 1}, c)
	e := replica.ExpiringBytes("c", v, 1, 60, 99)
	assert.Equal(t, replica.Cell{Column: "c", Value: v, Timestamp: 1, TTL: 60, LocalDeletionTime: 99}, e)
	v[0] = 7
	assert.Equal(t, byte(7), c.Value[0])
	assert.Equal(t, byte(7), e.Value[0])
	assert.True(t, replica.LiveBytes("c", []byte("v"), 1).Equal(replica.Live("c", "v", 1)))
}

func TestCellIsExpiring(t *testing.T) {
	assert.False(t, replica.Live("c", "v", 1).IsExpiring())
	assert.True(t, replica.Expiring("c", "v", 1, 60, 99).IsExpiring())
	assert.False(t, replica.Expiring("c", "v", 1, 0, 99).IsExpiring(), "a zero TTL does not expire")
	assert.False(t, replica.Tombstone("c", 1, 7).IsExpiring())
	assert.False(t, replica.Cell{Column: "c", Tombstone: true, TTL: 5}.IsExpiring(), "a tombstone is never expiring")
}

func TestCellIsLive(t *testing.T) {
	tests := []struct {
		c    replica.Cell
		now  int64
		want bool
	}{
		{replica.Live("c", "v", 1), 1 << 40, true},
		{replica.Tombstone("c", 1, 7), 0, false},
		{replica.Expiring("c", "v", 1, 60, 99), 98, true},
		{replica.Expiring("c", "v", 1, 60, 99), 99, false}, // AbstractCell.isLive: nowInSec < expiry
		{replica.Expiring("c", "v", 1, 60, 99), 0, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.c.IsLive(tt.now), "%v at %d", tt.c, tt.now)
	}
}

func TestCellEqual(t *testing.T) {
	base := replica.Expiring("c", "v", 1, 60, 99)
	assert.True(t, base.Equal(replica.Expiring("c", "v", 1, 60, 99)))
	assert.True(t, replica.Cell{Column: "c"}.Equal(replica.Cell{Column: "c", Value: []byte{}}))
	for name, other := range map[string]replica.Cell{
		"column":    replica.Expiring("d", "v", 1, 60, 99),
		"path":      replica.Expiring("c", "v", 1, 60, 99).WithPath("p"),
		"value":     replica.Expiring("c", "w", 1, 60, 99),
		"timestamp": replica.Expiring("c", "v", 2, 60, 99),
		"ttl":       replica.Expiring("c", "v", 1, 61, 99),
		"ldt":       replica.Expiring("c", "v", 1, 60, 98),
		"tombstone": {Column: "c", Value: []byte("v"), Timestamp: 1, TTL: 60, LocalDeletionTime: 99, Tombstone: true},
	} {
		assert.False(t, base.Equal(other), name)
	}
}
