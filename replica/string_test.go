package replica_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

func TestPartitionString(t *testing.T) {
	assert.Equal(t, `partition "user:42": deleted@1/100; static {plan="free"@3}; range ("b", max) deleted@7/300; `+
		`row "a" {inserted@9, tags[*] deleted@12/400, email="ada@example.com"@10, name="Ada"@11 ttl 60 until 1000, phone deleted@12/500, tags["red"]=""@13}; `+
		`row "b" {deleted@5/400, email="bob@example.com"@13}`, sample().String())
	assert.Equal(t, `partition "k": empty`, replica.Partition{Key: "k"}.String())
	// A static row holding only a clustering key is invalid (Validate rejects it); String, which
	// test failures print, shows it rather than calling the partition empty.
	assert.Equal(t, `partition "k": static {}`,
		replica.Partition{Key: "k", Static: replica.Row{Clustering: "x"}}.String())
	assert.Equal(t, `partition "k": row "r" {inserted@3 ttl 60 until 1700}`,
		replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(3, 60, 1700))).String())
	assert.Equal(t, sample().String(), fmt.Sprint(sample()), "fmt uses String")
}

func TestElementStrings(t *testing.T) {
	assert.Equal(t, "not deleted", replica.Deletion{}.String())
	assert.Equal(t, "deleted@-1/7", replica.DeletedAt(-1, 7).String())
	assert.Equal(t, "no liveness", replica.Liveness{}.String())
	assert.Equal(t, "inserted@5", replica.Inserted(5).String())
	assert.Equal(t, `m["k\x00"] deleted@2/3`, replica.Tombstone("m", 2, 3).WithPath("k\x00").String())
	assert.Equal(t, `c="\xff"@1`, replica.LiveBytes("c", []byte{0xff}, 1).String())
	assert.Equal(t, `row "r" {x="v"@1}`, replica.NewRow("r", replica.Live("x", "v", 1)).String())
	assert.Equal(t, `["a", "c"] deleted@1/2`, replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("c"), replica.DeletedAt(1, 2)).String())
	long := strings.Repeat("x", 100)
	assert.Equal(t, `c="`+long[:64]+`"...(100 bytes)@1`, replica.Live("c", long, 1).String())
	// Only a value longer than 64 bytes is cut (Partition.String's doc): one of 64 shows whole.
	assert.Equal(t, `c="`+long[:64]+`"@1`, replica.Live("c", long[:64], 1).String())
}

func TestViewString(t *testing.T) {
	p := replica.NewPartition("k", replica.NewRow("a", replica.Live("x", "v", 3)), replica.NewRow("b").WithLiveness(replica.Inserted(1))).
		WithStatic(replica.Live("s", "x", 1))
	assert.Equal(t, `view "k": static {s="x"@1}; row "a" {x="v"@3}; row "b" {}`, p.Visible(0).String())
	assert.Equal(t, `view "k": static {s="x"@1}; static row`, replica.NewPartition("k").WithStatic(replica.Live("s", "x", 1)).Visible(0).String())
	assert.Equal(t, `view "k": empty`, replica.Partition{Key: "k"}.Visible(0).String())
}

// A cell tombstone written at timestamp 0 and local deletion time 0 (valid:
// a tombstone may be made at the epoch; an expiring cell written at the
// epoch with timestamp 0 expires into one) is a tombstone, not the zero
// Deletion that DeletedAt(0, 0) stands for: String must not print it as
// "not deleted".
func TestTombstoneAtTheEpochStringsAsDeleted(t *testing.T) {
	c := replica.Tombstone("x", 0, 0)
	assert.NoError(t, replica.NewPartition("k", replica.NewRow("r", c)).Validate())
	assert.Equal(t, "x deleted@0/0", c.String())
	expired := replica.NewPartition("k", replica.NewRow("r", replica.Expiring("x", "v", 0, 10, 10))).Purge(10, 0)
	assert.Equal(t, `partition "k": row "r" {x deleted@0/0}`, expired.String())
}
