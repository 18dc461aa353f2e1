package replicatest

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// binaryKeys are partition keys that differ only after a zero byte, or in
// bytes that are not UTF-8 (0xfe and 0xff, which a JSON encoder both
// replaces with U+FFFD): keys are bytes, not C or UTF-8 strings.
var binaryKeys = []string{"user\x00a", "user\x00b", "user", "\xff", "\xfe", "\xff\x00"}

// binaryRows returns a partition of key whose clustering keys are empty,
// hold zero bytes and 0xff, and whose values name the key, so that the
// partition of one key read as another's fails.
func binaryRows(key string) replica.Partition {
	var rows []replica.Row
	for _, ck := range []string{"", "\x00", "a", "a\x00", "a\x00b", "a\xff", "\xff"} {
		rows = append(rows, replica.NewRow(ck, replica.Live("v", key+"/"+ck, 10)))
	}
	return replica.NewPartition(key, rows...)
}

// checkBinaryKeys writes partitions under binaryKeys and reads each, whole,
// by slices whose bounds hold zero bytes, and by limits; and reads a key
// never written that shares their prefix up to the zero byte.
func checkBinaryKeys(t *testing.T, r replica.Replica) {
	for _, key := range binaryKeys {
		apply(t, r, binaryRows(key))
	}
	for _, key := range binaryKeys {
		for _, q := range []replica.Query{
			{},
			{Slices: []replica.Slice{sl(replica.StartAfter("a"), replica.EndBefore("a\xff"))}},
			{Slices: []replica.Slice{sl(replica.Bottom(), replica.EndAt("\x00")), sl(replica.StartAt("\xff"), replica.Top())}},
			{Limit: 2, Reversed: true},
		} {
			expectAnswer(t, r, queryCommand(key, q), binaryRows(key))
		}
	}
	expectAnswer(t, r, queryCommand("user\x00c", replica.Query{}), replica.Partition{Key: "user\x00c"})
}
