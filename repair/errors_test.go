package repair_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

func TestMergeRejectsBadVersions(t *testing.T) {
	good := part("k", row("r", live("x", "v", 1)))
	unordered := replica.Partition{Key: "k", Rows: []replica.Row{row("b", live("x", "v", 1)), row("a", live("x", "v", 1))}}
	negativeTTL := part("k", row("r", replica.Expiring("x", "v", 1, -1, 0)))
	tests := []struct {
		name      string
		versions  []replica.Partition
		index     int
		message   string
		validates bool // the cause is a *replica.ValidationError
	}{
		{"no versions", nil, -1, `repair: invalid versions: no versions to merge`, false},
		{"different keys", []replica.Partition{good, good, part("j")}, 2,
			`repair: invalid versions: version 2: key "j" differs from version 0's key "k"`, false},
		{"rows out of order", []replica.Partition{good, unordered}, 1,
			`repair: invalid versions: version 1: fails validation: replica: invalid partition "k" row "a": rows out of order or duplicated`, true},
		{"negative TTL", []replica.Partition{negativeTTL}, 0,
			`repair: invalid versions: version 0: fails validation: replica: invalid partition "k" row "r" column "x": negative TTL -1`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := cloneAll(tt.versions)
			m, err := repair.Merge(tt.versions...)
			require.ErrorIs(t, err, repair.ErrInvalidVersions)
			assert.Equal(t, tt.message, err.Error())
			var ve *repair.VersionsError
			require.True(t, errors.As(err, &ve))
			assert.Equal(t, tt.index, ve.Index)
			assert.Equal(t, tt.validates, errors.Is(err, replica.ErrInvalidPartition))
			assert.True(t, m.IsEmpty() && m.Key == "", "no partition on error")
			for i := range before {
				requireSame(t, before[i], tt.versions[i], "version %d after a refused merge", i)
			}
		})
	}
}
