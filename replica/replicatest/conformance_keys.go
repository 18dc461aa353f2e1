package replicatest

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// binaryKeys are partition keys that differ only after a zero byte, or in
// bytes that are not UTF-8 (0xfe and 0xff, which a JSON encoder writing
// them as strings both replaces with U+FFFD): keys are bytes, not C or
// UTF-8 strings.
var binaryKeys = []string{"user\x00a", "user\x00b", "user", "\xff", "\xfe", "\xff\x00"}

// binaryColumns are column names and cell paths of the same bytes: a
// transport that carries names as protobuf or JSON strings loses them.
var binaryColumns = []string{"\xfe", "\xff", "c\x00", "c"}

// binaryRows returns a partition of key whose clustering keys are empty,
// hold zero bytes and 0xff, and whose values name the key, so that the
// partition of one key read as another's fails; its columns and cell paths
// are binaryColumns.
func binaryRows(key string) replica.Partition {
	var rows []replica.Row
	for _, ck := range []string{"", "\x00", "a", "a\x00", "a\x00b", "a\xff", "\xff"} {
		cells := []replica.Cell{replica.Live("v", key+"/"+ck, 10)}
		for _, c := range binaryColumns {
			cells = append(cells, replica.Live(c, ck, 10), replica.Live("set", "", 10).WithPath(c))
		}
		rows = append(rows, replica.NewRow(ck, cells...))
	}
	return replica.NewPartition(key, rows...)
}

// checkBinaryKeys writes partitions under binaryKeys and reads each, whole,
// by slices whose bounds hold zero bytes, by limits, and by columns of such
// bytes; and reads a key never written that shares their prefix up to the
// zero byte.
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
		for _, cols := range [][]string{{"\xfe", "c\x00"}, {"\xff", "set"}} {
			cmd := queryCommand(key, replica.Query{})
			cmd.Columns = cols
			expectAnswer(t, r, cmd, binaryRows(key))
		}
	}
	expectAnswer(t, r, queryCommand("user\x00c", replica.Query{}), replica.Partition{Key: "user\x00c"})
}
