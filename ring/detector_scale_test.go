package ring_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// failedNodes returns a detector that saw one connection failure of each
// of n nodes it never heard of (no conviction: it takes two), as when a
// coordinator without gossip loses its own network, and their IDs.
func failedNodes(t *testing.T, n int) (*ring.Detector, []string) {
	d, err := ring.NewDetector(ring.DetectorConfig{ConnectionFailures: 2})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("10.0.%d.%d:9042", i>>8, i&255)
	}
	return d, ids
}

func fail(d *ring.Detector, id string) {
	d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: id}, Err: replica.ErrConnectionFailed})
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// n nodes failing at once cost the same per node at any n. A node's first
// failure copied the whole map IsAlive reads: per node, 4,000 nodes
// allocated 7.8 times what 500 did (87.8 KB against 11.3 KB; now about
// 290 B at both), and the CPU time grew alike.
func TestFirstFailuresCostTheSameAtAnyClusterSize(t *testing.T) {
	perNode := func(n int) float64 {
		d, ids := failedNodes(t, n)
		defer d.Close()
		b := allocated(func() {
			for _, id := range ids {
				fail(d, id)
			}
		})
		if got := len(d.Nodes(time.Time{})); got != n {
			t.Fatalf("%d nodes tracked, want %d", got, n)
		}
		return float64(b) / float64(n)
	}
	small, large := perNode(500), perNode(4000)
	t.Logf("a node's first failure allocates %.0f B among 500, %.0f B among 4,000", small, large)
	if large > 2*small {
		t.Errorf("a first failure among 4,000 allocates %.0f B a node, among 500 %.0f B: want at most twice", large, small)
	}
}

// Forgetting a node costs nothing that grows with the nodes failed: it
// copied the whole map IsAlive reads: 100 nodes forgotten of 4,000
// allocated 21.8 MB (now nothing).
func TestForgetCostsTheSameAtAnyClusterSize(t *testing.T) {
	d, ids := failedNodes(t, 4000)
	defer d.Close()
	for _, id := range ids {
		fail(d, id)
	}
	b := allocated(func() {
		for _, id := range ids[:100] {
			d.Forget(id)
		}
	})
	t.Logf("forgetting 100 of 4,000 failed nodes allocates %d B", b)
	if b > 16<<10 {
		t.Errorf("forgetting 100 of 4,000 failed nodes allocates %d B, want at most 16 KB", b)
	}
	if d.IsAlive(replica.Endpoint{ID: ids[0]}) != true || len(d.Nodes(time.Time{})) != 3900 {
		t.Error("the forgotten nodes are still tracked")
	}
}
