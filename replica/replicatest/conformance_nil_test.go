package replicatest_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// TestNilPointerReplicaHelper runs the conformance check over a nil
// *mapReplica when TestConformanceFailsANilPointerReplica starts this test
// binary again; run directly, it does nothing.
func TestNilPointerReplicaHelper(t *testing.T) {
	if os.Getenv("REPLICATEST_NIL") != "1" {
		t.Skip("run by TestConformanceFailsANilPointerReplica")
	}
	replicatest.SetCallTimeouts(t, 500*time.Millisecond, 100*time.Millisecond)
	replicatest.TestReplica(t, func(t *testing.T) replica.Replica {
		var r *mapReplica // a constructor that failed: its error reported with t.Error, its nil returned
		return r
	})
}

// TestReplica's doc: newReplica "may fail t", and a nil replica fails the
// check. A nil pointer returned as a replica.Replica is not a nil
// interface, but its every call crashes: the check must fail it as nil,
// not run it and panic, which kills the whole test binary.
func TestConformanceFailsANilPointerReplica(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestNilPointerReplicaHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "REPLICATEST_NIL=1")
	out, _ := cmd.CombinedOutput()
	require.NotContains(t, string(out), "panic:", "the check crashed:\n%s", out)
	require.Contains(t, string(out), "newReplica returned a nil *replicatest_test.mapReplica", "the child's output:\n%s", out)
}
