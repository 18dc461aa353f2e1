package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// Partitions that differ only in a cell's negative local deletion time
// encode differently at version 2: AppendCanonical's doc ("encode to the
// same bytes exactly when they are Equal") holds for every partition, not
// only a valid one, and DESIGN.md 2.6 asks that unequal content encode
// differently. Version 2 writes a cell's local deletion time whenever it is
// not 0, negative ones included; one that wrote it only when positive set
// its flag yet dropped the value, so -1 and -2 digested alike.
func TestACellsNegativeLocalDeletionTimeIsEncoded(t *testing.T) {
	at := func(ldt int64) replica.Partition {
		return replica.NewPartition("k", replica.NewRow("r", replica.Tombstone("c", 1, ldt), replica.Live("d", "v", 1)))
	}
	a, b := at(-1), at(-2)
	assert.False(t, a.Equal(b))
	assert.NotEqual(t, a.AppendCanonical(nil), b.AppendCanonical(nil))
	assert.NotEqual(t, a.Digest(), b.Digest())
	da, err := a.DigestAt(digest.V2)
	assert.NoError(t, err)
	db, err := b.DigestAt(digest.V2)
	assert.NoError(t, err)
	assert.NotEqual(t, da, db)
}

// Likewise a cell's negative TTL: version 2 writes the TTL whenever it is
// not 0, so partitions that differ only in a negative TTL, which Validate
// refuses but Equal tells apart, encode differently (AppendCanonical's doc,
// DESIGN.md 2.6).
func TestACellsNegativeTTLIsEncoded(t *testing.T) {
	at := func(ttl int32) replica.Partition {
		return replica.NewPartition("k", replica.NewRow("r", replica.Cell{Column: "c", Value: []byte("v"), Timestamp: 1, TTL: ttl, LocalDeletionTime: 10}))
	}
	a, b := at(-1), at(-2)
	assert.False(t, a.Equal(b))
	assert.NotEqual(t, a.AppendCanonical(nil), b.AppendCanonical(nil))
	assert.NotEqual(t, a.Digest(), b.Digest())
}
