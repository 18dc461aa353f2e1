package replica_test

import (
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A nil pointer in a Replica is skipped as a nil Replica is, and counts
// as supporting digest.Latest: DigestVersionFor called MaxDigestVersion on
// a nil *replicatest.Replica and crashed (found by review).
func TestDigestVersionForSkipsANilPointer(t *testing.T) {
	var nilReplica *replicatest.Replica
	if v := replica.DigestVersionFor(nilReplica); v != digest.Latest {
		t.Errorf("DigestVersionFor(nil *Replica) = %d, want digest.Latest", v)
	}
	if v := replica.DigestVersionFor(nilReplica, versioned{max: digest.V1}, nil); v != digest.V1 {
		t.Errorf("DigestVersionFor(nil *Replica, V1, nil) = %d, want V1", v)
	}
}
