package replicatest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/require"
)

func TestInMemoryReplicaConforms(t *testing.T) {
	for name, opts := range map[string][]replicatest.Option{
		"zero behavior": nil,
		"slow, queued":  {latency(replicatest.Uniform(0, ms(0.2))), replicatest.WithWorkers(2, 0)},
		// A node of an older build (replica.DigestVersioner): the
		// coordinator never asks it for a digest version above its
		// MaxDigestVersion, and neither may the check.
		"older build": {replicatest.WithMaxDigestVersion(digest.V1)},
	} {
		t.Run(name, func(t *testing.T) {
			replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return newReplica(t, opts...) })
		})
	}
}

// brokenReplica breaks one rule of the replica.Replica contract on top of
// a well-behaved in-memory replica.
type brokenReplica struct {
	*replicatest.Replica
	flaw string
}

var flaws = map[string]string{ // flaw -> the check that must catch it
	"ignores cancellation":      "cancelled_context",
	"ignores deadlines":         "passed_deadline",
	"errors when missing":       "missing_partition",
	"answers another key":       "response_key",
	"wrong digest":              "digest_matches_data",
	"overwrites":                "apply_merges",
	"ignores columns":           "columns",
	"ignores the table":         "tables_are_separate",
	"empty endpoint":            "endpoint",
	"ignores read time":         "read_time",
	"one digest version":        "digest_versions",
	"ignores the slices":        "query_slices",
	"ignores the order":         "query_limits",
	"ignores the limit":         "query_limits",
	"ignores the threshold":     "tombstone_threshold",
	"hides the tombstone error": "tombstone_threshold",
	"counts no tombstones":      "tombstone_threshold",
}

func (b *brokenReplica) Endpoint() replica.Endpoint {
	if b.flaw == "empty endpoint" {
		return replica.Endpoint{}
	}
	return b.Replica.Endpoint()
}

func (b *brokenReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	ctx, cmd = b.bend(ctx, cmd)
	resp, err := b.Replica.Read(ctx, cmd)
	switch _, held := b.Partition(cmd.Table, cmd.Key); {
	case b.flaw == "errors when missing" && !held:
		return resp, errors.New("not found")
	case b.flaw == "answers another key" && !cmd.DigestOnly:
		resp.Partition.Key += "?"
	case b.flaw == "wrong digest" && cmd.DigestOnly:
		resp.Digest = digest.Digest{1}
	case b.flaw == "hides the tombstone error" && errors.Is(err, replica.ErrTombstoneOverwhelming):
		err = errors.New(err.Error())
	case b.flaw == "counts no tombstones":
		resp.Tombstones = 0
	}
	return resp, err
}

func (b *brokenReplica) Apply(ctx context.Context, m replica.Mutation) error {
	ctx, _ = b.bend(ctx, replica.Command{})
	if b.flaw == "ignores the table" {
		m.Table = ""
	}
	if b.flaw == "overwrites" {
		if err := ctx.Err(); err != nil {
			return err
		}
		return b.Seed(m.Table, m.Partition)
	}
	return b.Replica.Apply(ctx, m)
}

// bend applies the flaws that change what the inner replica is asked.
func (b *brokenReplica) bend(ctx context.Context, cmd replica.Command) (context.Context, replica.Command) {
	switch b.flaw {
	case "ignores cancellation":
		if errors.Is(ctx.Err(), context.Canceled) {
			ctx = context.Background()
		}
	case "ignores deadlines":
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			ctx = context.Background()
		}
	case "ignores columns":
		cmd.Columns = nil
	case "ignores the table":
		cmd.Table = ""
	case "ignores read time":
		cmd.NowInSec, cmd.GCBefore = 0, 0
	case "one digest version":
		cmd.DigestVersion = 0
	case "ignores the slices":
		cmd.Query.Slices = nil
	case "ignores the order":
		cmd.Query.Reversed = false
	case "ignores the limit":
		cmd.Query.Limit = 0
	case "ignores the threshold":
		cmd.TombstoneFailureThreshold = 0
	}
	return ctx, cmd
}

// TestBrokenReplicaHelper runs the conformance check over every broken
// replica when TestConformanceCatchesBrokenReplicas starts this test binary
// again; run directly, it does nothing.
func TestBrokenReplicaHelper(t *testing.T) {
	if os.Getenv("REPLICATEST_BROKEN") != "1" {
		t.Skip("run by TestConformanceCatchesBrokenReplicas")
	}
	for flaw := range flaws {
		t.Run(flaw, func(t *testing.T) {
			replicatest.TestReplica(t, func(t *testing.T) replica.Replica {
				return &brokenReplica{Replica: newReplica(t), flaw: flaw}
			})
		})
	}
}

// The conformance check can fail: each broken replica fails the check
// aimed at its flaw. The failures happen in a child process, so that they
// do not fail this test.
func TestConformanceCatchesBrokenReplicas(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenReplicaHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "REPLICATEST_BROKEN=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the broken replicas passed:\n%s", out)
	for flaw, check := range flaws {
		line := "--- FAIL: TestBrokenReplicaHelper/" + strings.ReplaceAll(flaw, " ", "_") + "/" + check + " "
		if !strings.Contains(string(out), line) {
			t.Errorf("flaw %q was not caught: no %q in the output", flaw, line)
		}
	}
	if t.Failed() {
		t.Logf("the child's output:\n%s", out)
	}
}
