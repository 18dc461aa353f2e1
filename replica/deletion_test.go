package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func TestDeletionIsLive(t *testing.T) {
	assert.True(t, replica.Deletion{}.IsLive())
	assert.False(t, replica.DeletedAt(1, 0).IsLive())
	assert.False(t, replica.DeletedAt(0, 1).IsLive())
	assert.False(t, replica.DeletedAt(-5, 0).IsLive())
	assert.Equal(t, replica.Deletion{MarkedForDeleteAt: 3, LocalDeletionTime: 4}, replica.DeletedAt(3, 4))
}

func TestDeletionDeletes(t *testing.T) {
	tests := []struct {
		d    replica.Deletion
		ts   int64
		want bool
	}{
		{replica.Deletion{}, 0, false},
		{replica.Deletion{}, -1, false},
		{replica.DeletedAt(10, 1), 9, true},
		{replica.DeletedAt(10, 1), 10, true},
		{replica.DeletedAt(10, 1), 11, false},
		{replica.DeletedAt(0, 1), 0, true},
		{replica.DeletedAt(-5, 1), -6, true},
		{replica.DeletedAt(-5, 1), 0, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.d.Deletes(tt.ts), "%+v deletes %d", tt.d, tt.ts)
	}
}

func TestDeletionSupersedes(t *testing.T) {
	tests := []struct {
		d, o replica.Deletion
		want bool
	}{
		{replica.DeletedAt(1, 1), replica.Deletion{}, true},
		{replica.Deletion{}, replica.DeletedAt(1, 1), false},
		{replica.Deletion{}, replica.Deletion{}, false},
		{replica.DeletedAt(-5, 0), replica.Deletion{}, true},
		{replica.DeletedAt(2, 1), replica.DeletedAt(1, 9), true},
		{replica.DeletedAt(1, 9), replica.DeletedAt(2, 1), false},
		{replica.DeletedAt(2, 5), replica.DeletedAt(2, 4), true},
		{replica.DeletedAt(2, 4), replica.DeletedAt(2, 5), false},
		{replica.DeletedAt(2, 4), replica.DeletedAt(2, 4), false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.d.Supersedes(tt.o), "%+v supersedes %+v", tt.d, tt.o)
	}
}

// Supersedes is a strict total order: of two different deletions exactly one
// wins, and it is transitive, so reconciling many deletions has one answer.
func TestDeletionSupersedesIsAStrictTotalOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := deletionGen().Draw(t, "a"), deletionGen().Draw(t, "b"), deletionGen().Draw(t, "c")
		assert.False(t, a.Supersedes(a))
		if a != b {
			assert.NotEqual(t, a.Supersedes(b), b.Supersedes(a))
		}
		if a.Supersedes(b) && b.Supersedes(c) {
			assert.True(t, a.Supersedes(c))
		}
	})
}
