package replicatest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// The log of a run's commands reports a command whose Columns or Slices
// changed after it was sent, whenever it is verified, once each, saying
// what changed and when it was seen; a check outside a run logs nothing.
func TestSentLogReportsLaterChangesOnce(t *testing.T) {
	assert.Nil(t, sending(t, replica.Command{Key: "k"}), "outside a run of TestReplica")

	l := new(sentLog)
	watch(t, l)
	columns := make([]string, 2, 3)
	copy(columns, []string{"a", "b"})
	qs := []replica.Slice{{Start: replica.StartAt("a"), End: replica.EndAt("c")}}
	cmd := replica.Command{Table: conformanceTable, Key: "k", Columns: columns, Query: replica.Query{Slices: qs}}
	require.Same(t, l, sending(t, cmd))
	rec := &recorder{TB: t}
	l.verify(rec, "at once")
	assert.Empty(t, rec.errors)

	columns[:3][2] = "past its length" // within the capacity the replica was given
	l.verify(rec, "at the end of the run")
	require.Len(t, rec.errors, 1)
	assert.Contains(t, rec.errors[0], `data Read of "k" had its Columns changed from ["a" "b" ""] to ["a" "b" "past its length"], seen at the end of the run`)
	l.verify(rec, "again")
	assert.Len(t, rec.errors, 1, "reported once")

	cmd.DigestOnly = true
	sending(t, cmd)
	qs[0].End = replica.EndBefore("c")
	l.verify(rec, "after a later read")
	require.Len(t, rec.errors, 2, "the first command's change was reported; the second's columns hold what it was sent with")
	assert.True(t, strings.HasPrefix(rec.errors[1], `the command of a digest Read of "k" had its Slices changed from`), rec.errors[1])
	assert.Contains(t, rec.errors[1], "seen after a later read")
}
