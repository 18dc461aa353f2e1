package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's LivenessInfoTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/LivenessInfoTest.java), at its
// nowInSeconds taken as 1,000,000: expiring(ts, ttl, now) expires at
// now + ttl. The vectors of EXPIRED_LIVENESS_TTL (a materialized view's
// expired liveness) have no counterpart.
func TestLivenessInfoSupersedes(t *testing.T) {
	const now = 1_000_000
	expiring := func(ts int64, ttl int32, at int64) replica.Liveness {
		return replica.InsertedWithTTL(ts, ttl, at+int64(ttl))
	}
	tests := []struct {
		name        string
		winner, not replica.Liveness
	}{
		{"timestamp supersedes for normal liveness info", replica.Inserted(101), replica.Inserted(100)},
		{"timestamp supersedes for ttl", replica.Inserted(100), expiring(99, 1, now)},
		{"timestamp ties, ttl supersedes non-ttl", expiring(100, 1, now), replica.Inserted(100)},
		{"timestamp ties, greater localDeletionTime supersedes", expiring(100, 2, now), expiring(100, 1, now)},
		{"greater expiry though the smaller ttl", expiring(100, 2, now), expiring(100, 5, now-4)},
	}
	for _, tt := range tests {
		assert.True(t, tt.winner.Supersedes(tt.not), tt.name)
		assert.False(t, tt.not.Supersedes(tt.winner), tt.name)
	}
}

func TestLivenessInfoIsLive(t *testing.T) {
	const now = 1_000_000
	for _, tt := range []struct {
		l    replica.Liveness
		at   int64
		want bool
	}{
		{replica.Inserted(100), now - 3, true},
		{replica.Inserted(100), now, true},
		{replica.Inserted(100), now + 3, true},
		{replica.InsertedWithTTL(100, 2, now+2), now - 3, true},
		{replica.InsertedWithTTL(100, 2, now+2), now, true},
		{replica.InsertedWithTTL(100, 2, now+2), now + 3, false},
	} {
		assert.Equal(t, tt.want, tt.l.IsLive(tt.at), "%v at %d", tt.l, tt.at)
	}
}
