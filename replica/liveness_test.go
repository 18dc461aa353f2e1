package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func TestLivenessConstructors(t *testing.T) {
	assert.Equal(t, replica.Liveness{Timestamp: 5}, replica.Inserted(5))
	assert.Equal(t, replica.Liveness{Timestamp: 5, TTL: 60, ExpiresAt: 100}, replica.InsertedWithTTL(5, 60, 100))
	assert.True(t, replica.Liveness{}.IsEmpty())
	assert.True(t, replica.Inserted(0).IsEmpty(), "an INSERT at timestamp 0 is no liveness")
	assert.False(t, replica.Inserted(1).IsEmpty())
	assert.False(t, replica.Inserted(1).IsExpiring())
	assert.True(t, replica.InsertedWithTTL(1, 60, 100).IsExpiring())
}

func TestLivenessIsLive(t *testing.T) {
	tests := []struct {
		l    replica.Liveness
		now  int64
		want bool
	}{
		{replica.Liveness{}, 0, false},
		{replica.Inserted(1), 0, true},
		{replica.Inserted(1), 1 << 40, true},
		{replica.InsertedWithTTL(1, 10, 100), 99, true},
		{replica.InsertedWithTTL(1, 10, 100), 100, false}, // expired at its expiry (LivenessInfo.isLive)
		{replica.InsertedWithTTL(1, 10, 100), 0, true},    // no read time: nothing has expired
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.l.IsLive(tt.now), "%v at %d", tt.l, tt.now)
	}
}

// The rules of Cassandra's LivenessInfo.supersedes (5.0); the cases of
// RowsTest.merge and RowsTest.diff (apache/cassandra,
// test/unit/org/apache/cassandra/db/rows/RowsTest.java) where a newer
// INSERT's liveness wins are the first one.
func TestLivenessSupersedes(t *testing.T) {
	tests := []struct {
		name string
		l, o replica.Liveness
		want bool
	}{
		{"newer timestamp", replica.Inserted(2), replica.Inserted(1), true},
		{"older timestamp", replica.Inserted(1), replica.Inserted(2), false},
		{"newer without TTL over older with", replica.Inserted(2), replica.InsertedWithTTL(1, 10, 100), true},
		{"tie: expiring over not", replica.InsertedWithTTL(1, 10, 100), replica.Inserted(1), true},
		{"tie: not under expiring", replica.Inserted(1), replica.InsertedWithTTL(1, 10, 100), false},
		{"tie: later expiry", replica.InsertedWithTTL(1, 10, 101), replica.InsertedWithTTL(1, 20, 100), true},
		{"tie: earlier expiry", replica.InsertedWithTTL(1, 20, 100), replica.InsertedWithTTL(1, 10, 101), false},
		{"tie on expiry: larger TTL (ours)", replica.InsertedWithTTL(1, 20, 100), replica.InsertedWithTTL(1, 10, 100), true},
		{"equal", replica.Inserted(1), replica.Inserted(1), false},
		{"any over none", replica.InsertedWithTTL(-5, 1, 1), replica.Liveness{}, true},
		{"none under any", replica.Liveness{}, replica.Inserted(1), false},
		{"none and none", replica.Liveness{}, replica.Liveness{}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.l.Supersedes(tt.o), tt.name)
	}
}

// Supersedes is a strict total order, so reconciling many versions of a
// row's liveness has one answer whatever their order.
func TestLivenessSupersedesIsAStrictTotalOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := livenessGen().Draw(t, "a"), livenessGen().Draw(t, "b"), livenessGen().Draw(t, "c")
		assert.False(t, a.Supersedes(a))
		if a != b {
			assert.NotEqual(t, a.Supersedes(b), b.Supersedes(a), "%v and %v", a, b)
		}
		if a.Supersedes(b) && b.Supersedes(c) {
			assert.True(t, a.Supersedes(c))
		}
	})
}
