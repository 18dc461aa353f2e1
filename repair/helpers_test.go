package repair_test

import (
	"fmt"
	"slices"
	"strings"
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
		t.Fatalf("%s:\n got  %s\n want %s", fmt.Sprintf(format, args...), show(got), show(want))
	}
}

// show renders a partition compactly for failure messages, e.g.
// k -{1/0} [r -{2/0} x="v"@3 y=tomb@4/9 z="w"@5ttl7/99].
func show(p replica.Partition) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q%s [", p.Key, showDeletion(p.Deletion))
	for i, r := range p.Rows {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "%q%s", r.Clustering, showDeletion(r.Deletion))
		for _, c := range r.Cells {
			fmt.Fprintf(&b, " %s", showCell(c))
		}
	}
	b.WriteString("]")
	return b.String()
}

func showDeletion(d replica.Deletion) string {
	if d.IsLive() {
		return ""
	}
	return fmt.Sprintf(" -{%d/%d}", d.MarkedForDeleteAt, d.LocalDeletionTime)
}

func showCell(c replica.Cell) string {
	if c.Tombstone {
		return fmt.Sprintf("%s=tomb@%d/%d", c.Column, c.Timestamp, c.LocalDeletionTime)
	}
	s := fmt.Sprintf("%s=%q@%d", c.Column, c.Value, c.Timestamp)
	if c.TTL != 0 || c.LocalDeletionTime != 0 {
		s += fmt.Sprintf("ttl%d/%d", c.TTL, c.LocalDeletionTime)
	}
	return s
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
