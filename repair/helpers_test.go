package repair_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// requireSame fails unless got holds the same data as want (Partition.Equal:
// nil and empty slices alike).
func requireSame(t *testing.T, want, got replica.Partition, format string, args ...any) {
	t.Helper()
	if !want.Equal(got) {
		t.Fatalf("%s:\n got  %s\n want %s", fmt.Sprintf(format, args...), got, want)
	}
}

func mustMerge(t *testing.T, versions ...replica.Partition) replica.Partition {
	t.Helper()
	m, err := repair.Merge(versions...)
	require.NoError(t, err)
	return m
}

// requireDiff checks Diff(merged, version) against want and the flag against
// whether want is empty.
func requireDiff(t *testing.T, want, merged, version replica.Partition) {
	t.Helper()
	got, stale := repair.Diff(merged, version)
	requireSame(t, want, got, "diff")
	require.Equal(t, !want.IsEmpty(), stale, "stale")
}

func cloneAll(vs []replica.Partition) []replica.Partition {
	out := slices.Clone(vs)
	for i := range out {
		out[i] = out[i].Clone()
	}
	return out
}

// repairDiff is repair.Diff, for tests that need the diff only.
func repairDiff(merged, version replica.Partition) (replica.Partition, bool) {
	return repair.Diff(merged, version)
}
