package replica_test

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// The continuation of an IN list copies the values the list has left, not
// the whole list: After the 900th of 1,000 values holds 100 slices in room
// for 100, as does the reversed continuation before the 101st (both had
// room for all 1,000, 48 KB, each page), and shares no memory with q.
func TestAfterCopiesOnlyTheSlicesLeft(t *testing.T) {
	in := replica.Query{Slices: pointIN(1000), Limit: 100}
	next := in.After("c0899")
	assert.Equal(t, 100, len(next.Slices))
	assert.Equal(t, 100, cap(next.Slices), "room for the slices left only")
	assert.Equal(t, in.Slices[900:], next.Slices)

	in.Reversed = true
	next = in.After("c0100")
	assert.Equal(t, 100, len(next.Slices))
	assert.Equal(t, 100, cap(next.Slices), "room for the slices left only")
	assert.Equal(t, in.Slices[:100], next.Slices)

	next.Slices[0] = replica.AllRows()
	assert.Equal(t, replica.StartAt("c0000"), in.Slices[0].Start, "After's slices share no memory with q's")
}

// Resuming the last page of a paged IN of 1,000 values allocates that
// page's query, 100 slices of 48 bytes: at most 5 KB, in one object (it
// allocated 111 KB in 21 objects: the fingerprint's encoding, and room for
// all 1,000 slices).
func TestResumingAnINAllocatesTheSlicesLeft(t *testing.T) {
	in := replica.Query{Slices: pointIN(1000), Limit: 100}
	columns := []string{"w", "v"}
	s := replica.NewPagingState("t", "k", in, columns, "c0899")
	next, err := s.Resume("t", "k", in, columns)
	require.NoError(t, err)
	require.Len(t, next.Slices, 100)
	bound := uint64(100*unsafe.Sizeof(replica.Slice{})) + 320 // the allocator's size class: 4,864 bytes
	got := bytesPerCall(func() { _, _ = s.Resume("t", "k", in, columns) })
	assert.LessOrEqual(t, got, bound, "bytes allocated by Resume, bound: the 100 slices left")
	assert.Equal(t, 1.0, testing.AllocsPerRun(20, func() { _, _ = s.Resume("t", "k", in, columns) }))
}
