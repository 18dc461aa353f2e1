package repair_test

import (
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Resolve's doc says that once it returns the Resolver holds no reference
// to the versions or to its results: a Resolver kept in a pool must not
// keep a read's partitions alive until its next read.
func TestResolverKeepsNoReferenceAfterResolve(t *testing.T) {
	var r repair.Resolver
	refs := resolveAndForget(t, &r)
	runtime.GC()
	runtime.GC()
	for what, p := range refs {
		require.Nil(t, p.Value(), "%s still reachable from the Resolver", what)
	}
	runtime.KeepAlive(&r)
}

// resolveAndForget resolves two versions with r and returns weak pointers
// to the memory of the versions and of the results, which it drops.
func resolveAndForget(t *testing.T, r *repair.Resolver) map[string]weak.Pointer[replica.Row] {
	value := strings.Repeat("v", 64) // past the tiny allocator, which batches small objects
	a := replica.NewPartition("k", replica.NewRow("r", replica.Live("x", value, 2)), replica.NewRow("s", replica.Live("y", value, 1)))
	b := replica.NewPartition("k", replica.NewRow("r", replica.Live("x", value, 1)))
	merged, diffs, err := r.Resolve(a, b)
	require.NoError(t, err)
	require.False(t, diffs[1].IsEmpty())
	return map[string]weak.Pointer[replica.Row]{
		"version a's rows": weak.Make(&a.Rows[0]),
		"version b's rows": weak.Make(&b.Rows[0]),
		"merged rows":      weak.Make(&merged.Rows[0]),
		"diff of b's rows": weak.Make(&diffs[1].Rows[0]),
	}
}
