package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Ports of CellTest.testValidate and testValidateNonFrozenUDT's checks on
// a cell's liveness fields (apache/cassandra, test/unit/org/apache/
// cassandra/db/CellTest.java), and of DeletionTimeTest.
// resetWithRealAndInvalidValues (db/DeletionTimeTest.java): value types
// are the schema's business and out of scope; TTLs and deletion times are
// checked by Partition.Validate. Cassandra's upper limits on deletion
// times (2038/2106) do not apply: times are 64-bit here.
func TestCellTestValidate(t *testing.T) {
	valid := map[string]replica.Cell{
		"live, empty value":                   replica.Live("c", "", 0),
		"live, 4 bytes":                       replica.Live("c", "\x00\x00\x00\x04", 0),
		"expiring ttl 4 until 4, empty value": replica.Expiring("c", "", 0, 4, 4),
		"expiring ttl 4 until 4":              replica.Expiring("c", "\x00\x00\x00\x04", 0, 4, 4),
		"tombstone at 0 made at 4":            replica.Tombstone("c", 0, 4),
		"map cell":                            replica.Live("c", "\x00\x00\x00\x04", 0).WithPath("\x00\x00\x00\x04"),
		"udt field, expiring":                 replica.Expiring("c", "\x00\x00\x00\x01", 0, 4, 4).WithPath("\x00\x00"),
		"udt field, tombstone":                replica.Tombstone("c", 0, 4).WithPath("\x00\x00"),
	}
	for name, c := range valid {
		assert.NoError(t, replica.NewPartition("k", replica.NewRow("r", c)).Validate(), name)
	}
	invalid := map[string]replica.Cell{
		// "Invalid ttl": BufferCell.expiring(c, 0, -4, 4, ...)
		"negative ttl": {Column: "c", Value: []byte{0, 4}, TTL: -4, LocalDeletionTime: 4},
		// assertThrowsOnInvalidDeletionTime: BufferCell.expiring(c, 0, 4, -5, ...)
		"negative expiry":            {Column: "c", Value: []byte{0, 4}, TTL: 4, LocalDeletionTime: -5},
		"udt field, negative ttl":    {Column: "c", Path: "\x00\x00", Value: []byte{0, 0, 0, 1}, TTL: -4, LocalDeletionTime: 4},
		"udt field, negative expiry": {Column: "c", Path: "\x00\x00", Value: []byte{0, 0, 0, 1}, TTL: 4, LocalDeletionTime: -5},
	}
	for name, c := range invalid {
		assert.ErrorIs(t, replica.NewPartition("k", replica.NewRow("r", c)).Validate(), replica.ErrInvalidPartition, name)
	}

	// DeletionTimeTest.resetWithRealAndInvalidValues: (123456789,
	// 1700000000) is a real deletion; a negative local deletion time is
	// invalid, at every level.
	real := replica.DeletedAt(123456789, 1_700_000_000)
	assert.False(t, real.IsLive())
	assert.NoError(t, replica.NewPartition("k").WithDeletion(real).Validate())
	bad := replica.DeletedAt(1, -5)
	assert.False(t, bad.IsLive())
	for name, p := range map[string]replica.Partition{
		"partition": replica.NewPartition("k").WithDeletion(bad),
		"row":       replica.NewPartition("k", replica.NewRow("r").WithDeletion(bad)),
		"complex":   replica.NewPartition("k", replica.NewRow("r").WithComplexDeletion("m", bad)),
		"range":     replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("b"), bad)),
	} {
		assert.ErrorIs(t, p.Validate(), replica.ErrInvalidPartition, name)
	}
}
