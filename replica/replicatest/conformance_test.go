package replicatest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
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

// A replica may fill Digest on a data answer too: replica.Response says
// the coordinator ignores it there, and so does the check.
func TestReplicaDigestingDataReadsConforms(t *testing.T) {
	replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return newBroken(t, "digests data reads too") })
}

// brokenReplica breaks one rule of the replica.Replica contract on top of
// a well-behaved in-memory replica.
type brokenReplica struct {
	*replicatest.Replica
	flaw    string
	release chan struct{} // closed at the end of the test: a hung call ends

	mu    sync.Mutex
	cache map[string]replica.Response    // "stale digest cache"
	kept  map[string]replica.Partition   // "merges into its kept input" (when read)
	held  map[string][]replica.Partition // "merges into its kept input when read": the writes since

	called    atomic.Bool  // "learns its digest version": a Read or Apply was made
	endpoints atomic.Int64 // "changes its endpoint": the calls of Endpoint
}

func newBroken(t *testing.T, flaw string) *brokenReplica {
	b := &brokenReplica{Replica: newReplica(t), flaw: flaw, release: make(chan struct{}),
		cache: map[string]replica.Response{}, kept: map[string]replica.Partition{},
		held: map[string][]replica.Partition{}}
	t.Cleanup(func() { close(b.release) })
	return b
}

var flaws = map[string]string{ // flaw -> the check that must catch it
	"ignores cancellation":      "cancelled_context",
	"ignores deadlines":         "passed_deadline",
	"errors when missing":       "missing_partition",
	"answers another key":       "response_key",
	"wrong digest":              "digest_matches_data",
	"overwrites":                "apply_merges",
	"ignores columns":           "columns",
	"loses an empty selection":  "columns",
	"loses empty slices":        "query_slices",
	"ignores the table":         "tables_are_separate",
	"empty endpoint":            "endpoint",
	"changes its endpoint":      "endpoint",
	"ignores read time":         "read_time",
	"one digest version":        "digest_versions",
	"ignores the slices":        "query_slices",
	"ignores the order":         "query_limits",
	"ignores the limit":         "query_limits",
	"ignores the threshold":     "tombstone_threshold",
	"hides the tombstone error": "tombstone_threshold",
	"counts no tombstones":      "tombstone_threshold",

	"stale digest cache":             "reads_after_a_write",
	"hangs ignoring its context":     "missing_partition",
	"hangs when cancelled in flight": "cancelled_in_flight",
	"modifies its input":             "apply_leaves_its_input",
	"merges into its kept input":     "apply_leaves_its_input",
	"cuts keys at a zero byte":       "binary_keys",
	"counts purged tombstones":       "read_time",
	"sends data with digests":        "query_slices",
	"breaks ties by arrival":         "apply_merges",
	"drops partition deletions":      "apply_merges",
	"makes keys valid UTF-8":         "binary_keys",
	"probe always fails":             "probe",

	// Caught only after a later Read, or only by a key never written.
	"merges into its kept input when read":   "apply_leaves_its_input",
	"reads a missing key cut at a zero byte": "binary_keys",

	"probe answers when cancelled":         "cancelled_context",
	"probe hangs when cancelled in flight": "cancelled_in_flight",
	"reports digest version 0":             "digest_versioner",
	"learns its digest version":            "digest_versioner",
}

// flawMessages are what the failure of some flaws must say.
var flawMessages = map[string]string{
	"wrong digest":                   "got digest",
	"hangs ignoring its context":     `digest Read of "missing" did not return`,
	"hangs when cancelled in flight": `Read of "k" did not return`,
	"sends data with digests":        "a digest answer carries data",
	// Changed by the second write, the first write's partition is named
	// for it, not only for the read after.
	"merges into its kept input": `after a later Apply, the partition given to Apply of "k" changed`,

	"probe answers when cancelled":         "Probe = <nil>, want an error wrapping context canceled",
	"probe hangs when cancelled in flight": "Probe did not return",
	"reports digest version 0":             "MaxDigestVersion() = 0",
	"learns its digest version":            "MaxDigestVersion() changed from 1 to 2",
}

func (b *brokenReplica) Endpoint() replica.Endpoint {
	if b.flaw == "empty endpoint" {
		return replica.Endpoint{}
	}
	if b.flaw == "changes its endpoint" { // names it by its connection, redialled for every call
		ep := b.Replica.Endpoint()
		ep.ID += "#" + strconv.FormatInt(b.endpoints.Add(1), 10)
		return ep
	}
	return b.Replica.Endpoint()
}

// Probe of a "probe always fails" replica fails as a probe of the wrong
// port would.
//
// A "probe answers when cancelled" replica pings its node without the
// caller's context, and a "probe hangs when cancelled in flight" one waits
// for a reply that never comes once its context has ended, as an adapter
// that dials with a timeout of its own does.
func (b *brokenReplica) Probe(ctx context.Context) error {
	switch {
	case b.flaw == "probe always fails":
		return errors.New("dial tcp 127.0.0.1:7001: connection refused")
	case b.flaw == "probe answers when cancelled":
		return b.Replica.Probe(context.Background())
	case b.flaw == "probe hangs when cancelled in flight" && ctx.Err() == nil:
		err := b.Replica.Probe(ctx)
		if ctx.Err() != nil {
			<-b.release
		}
		return err
	}
	return b.Replica.Probe(ctx)
}

// MaxDigestVersion of a "reports digest version 0" replica is 0, as an
// adapter that has not asked its node reports; a "learns its digest
// version" one's is digest.V1 until its first Read or Apply and
// digest.Latest after, as one that learns it from its first reply.
func (b *brokenReplica) MaxDigestVersion() byte {
	switch {
	case b.flaw == "reports digest version 0":
		return 0
	case b.flaw == "learns its digest version" && !b.called.Load():
		return digest.V1
	}
	return b.Replica.MaxDigestVersion()
}

func (b *brokenReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	b.called.Store(true)
	if b.flaw == "hangs ignoring its context" && cmd.DigestOnly && cmd.Key == "missing" {
		<-b.release // a lost reply, waited for without ctx.Done()
	}
	if b.flaw == "hangs when cancelled in flight" && ctx.Err() == nil {
		resp, err := b.Replica.Read(ctx, cmd)
		if ctx.Err() != nil {
			<-b.release // the cancelled request's reply never comes
		}
		return resp, err
	}
	if b.flaw == "merges into its kept input when read" {
		b.fold(cmd.Key)
	}
	if b.flaw == "reads a missing key cut at a zero byte" && cut(cmd.Key) != cmd.Key {
		// Keys written by an older version of the adapter, which cut
		// them, are looked up as it wrote them when missing.
		if _, held := b.Partition(cmd.Table, cmd.Key); !held {
			if stored, held := b.Partition(cmd.Table, cut(cmd.Key)); held {
				stored.Key = cmd.Key
				return cmd.Respond(stored)
			}
		}
	}
	if b.flaw == "makes keys valid UTF-8" && validUTF8(cmd.Key) != cmd.Key {
		stored, _ := b.Partition(cmd.Table, validUTF8(cmd.Key))
		stored.Key = cmd.Key // the key it was asked, as a careful adapter answers
		return cmd.Respond(stored)
	}
	if resp, hit := b.cached(cmd); hit {
		return resp, nil
	}
	asked := cmd
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
	case b.flaw == "counts purged tombstones" && cmd.GCBefore > 0:
		cmd.GCBefore, cmd.TombstoneFailureThreshold = 0, 0
		unpurged, _ := b.Replica.Read(ctx, cmd)
		resp.Tombstones = unpurged.Tombstones
	case b.flaw == "cuts keys at a zero byte" && !cmd.DigestOnly:
		resp.Partition.Key = asked.Key
	case b.flaw == "sends data with digests" && cmd.DigestOnly:
		data := cmd
		data.DigestOnly = false
		full, _ := b.Replica.Read(ctx, data)
		resp.Partition = full.Partition
	case b.flaw == "digests data reads too" && !cmd.DigestOnly:
		resp.Digest, _ = resp.Partition.DigestAt(cmd.DigestVersion)
	}
	if b.flaw == "stale digest cache" && cmd.DigestOnly && err == nil {
		b.mu.Lock()
		b.cache[fmt.Sprint(asked)] = resp
		b.mu.Unlock()
	}
	return resp, err
}

// cached returns the digest answer a "stale digest cache" replica gave
// to the same command before, whatever was written since.
func (b *brokenReplica) cached(cmd replica.Command) (replica.Response, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	resp, hit := b.cache[fmt.Sprint(cmd)]
	return resp, hit
}

func (b *brokenReplica) Apply(ctx context.Context, m replica.Mutation) error {
	b.called.Store(true)
	if b.flaw == "hangs when cancelled in flight" && ctx.Err() == nil {
		err := b.Replica.Apply(ctx, m)
		if ctx.Err() != nil {
			<-b.release
		}
		return err
	}
	ctx, _ = b.bend(ctx, replica.Command{})
	switch b.flaw {
	case "ignores the table":
		m.Table = ""
	case "overwrites":
		if err := ctx.Err(); err != nil {
			return err
		}
		return b.Seed(m.Table, m.Partition)
	case "cuts keys at a zero byte":
		m.Partition.Key = cut(m.Partition.Key)
	case "merges into its kept input":
		b.keep(m.Partition)
	case "merges into its kept input when read":
		b.hold(m.Partition)
	case "makes keys valid UTF-8":
		m.Partition.Key = validUTF8(m.Partition.Key)
	case "drops partition deletions": // a storage format without them
		m.Partition.Deletion = replica.Deletion{}
	case "breaks ties by arrival":
		if err := ctx.Err(); err != nil {
			return err
		}
		return b.lastArrivalWinsTies(m)
	}
	err := b.Replica.Apply(ctx, m)
	if b.flaw == "modifies its input" { // recycles the buffers it was given
		for i := range m.Partition.Rows {
			m.Partition.Rows[i].Cells = m.Partition.Rows[i].Cells[:0]
		}
	}
	return err
}

// keep stores the first write of a partition as it was given, and merges
// later writes into that one's rows in place.
func (b *brokenReplica) keep(p replica.Partition) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept, ok := b.kept[p.Key]
	if !ok {
		b.kept[p.Key] = p
		return
	}
	merged, _ := repair.Merge(kept, p)
	if len(merged.Rows) <= len(kept.Rows) {
		copy(kept.Rows, merged.Rows)
	}
}

// hold keeps the first write of a partition as it was given, and the
// later writes for the next read to merge into that one's rows in place
// (fold): a lazy merge.
func (b *brokenReplica) hold(p replica.Partition) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.kept[p.Key]; !ok {
		b.kept[p.Key] = p
		return
	}
	b.held[p.Key] = append(b.held[p.Key], p)
}

// fold merges the writes held for key into its kept first write, in place.
func (b *brokenReplica) fold(key string) {
	b.mu.Lock()
	held := b.held[key]
	delete(b.held, key)
	b.mu.Unlock()
	for _, p := range held {
		b.keep(p)
	}
}

// lastArrivalWinsTies merges m as Merge does, except that a cell of m
// whose timestamp equals the held cell's replaces it, as a store comparing
// timestamps with >= does.
func (b *brokenReplica) lastArrivalWinsTies(m replica.Mutation) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	held, ok := b.Partition(m.Table, m.Partition.Key)
	if !ok {
		held = replica.Partition{Key: m.Partition.Key}
	}
	merged, err := repair.Merge(held, m.Partition)
	if err != nil {
		return err
	}
	for _, row := range m.Partition.Rows {
		for _, c := range row.Cells {
			if old, found := cellOf(held, row.Clustering, c); found && old.Timestamp == c.Timestamp {
				setCell(&merged, row.Clustering, c)
			}
		}
	}
	return b.Seed(m.Table, merged)
}

func cellOf(p replica.Partition, clustering string, c replica.Cell) (replica.Cell, bool) {
	for _, r := range p.Rows {
		for _, o := range r.Cells {
			if r.Clustering == clustering && o.Column == c.Column && o.Path == c.Path {
				return o, true
			}
		}
	}
	return replica.Cell{}, false
}

func setCell(p *replica.Partition, clustering string, c replica.Cell) {
	for i, r := range p.Rows {
		for j, o := range r.Cells {
			if r.Clustering == clustering && o.Column == c.Column && o.Path == c.Path {
				p.Rows[i].Cells[j] = c
			}
		}
	}
}

// validUTF8 replaces the bytes of key that are not UTF-8, as a JSON
// encoder does, so that keys differing only in them collide.
func validUTF8(key string) string { return strings.ToValidUTF8(key, "\uFFFD") }

// cut ends a key at its first zero byte, as a C string does.
func cut(key string) string {
	if i := strings.IndexByte(key, 0); i >= 0 {
		return key[:i]
	}
	return key
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
	case "loses an empty selection": // as gob and protobuf send it
		if len(cmd.Columns) == 0 {
			cmd.Columns = nil
		}
	case "loses empty slices":
		if len(cmd.Query.Slices) == 0 {
			cmd.Query.Slices = nil
		}
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
	case "cuts keys at a zero byte":
		cmd.Key = cut(cmd.Key)
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
	replicatest.SetCallTimeouts(t, 500*time.Millisecond, 100*time.Millisecond) // some hang
	for flaw := range flaws {
		t.Run(flaw, func(t *testing.T) {
			replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return newBroken(t, flaw) })
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
	for flaw, msg := range flawMessages {
		if !strings.Contains(string(out), msg) {
			t.Errorf("flaw %q's failure does not say %q", flaw, msg)
		}
	}
	if t.Failed() {
		t.Logf("the child's output:\n%s", out)
	}
}
