package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// history is a Jepsen-style model of one run: the test is the write
// coordinator, applying each mutation to the replicas of its key itself,
// and reads go through the coordinator under test. It remembers what was
// acknowledged, what was ever written and what quorum reads returned, and
// checks every read against them.
type history struct {
	t     *rapid.T
	cl    *replicatest.Cluster
	c     *coordinator.Coordinator
	keys  []string
	ids   []string // the replicas of every key, in the locator's order
	local int      // the first local replicas of ids count towards W
	w     int      // acknowledgements a write needs
	level consistency.Level
	grace int64 // the table's gc_grace_seconds
	// monotonic: reads at level overlap one another (and repair blocks),
	// so each must show what the ones before returned.
	monotonic bool
	ts        int64 // the last write timestamp, microseconds
	now       int64 // the model's clock, seconds

	acked   map[string]replica.Partition // merge of the acknowledged writes
	seen    map[string]replica.Partition // merge of what monotonic reads returned
	written map[string]bool              // every live cell ever sent, by liveID
	// deletes are the deletions and expiring cells ever sent, acknowledged
	// or not, with the time from which a read purges them.
	deletes map[string][]purgeable
	log     []string // the operations, for the failure message
}

func liveID(c replica.Cell) string {
	return fmt.Sprintf("%s[%s]=%q@%d", c.Column, c.Path, c.Value, c.Timestamp)
}

func (h *history) logf(format string, args ...any) {
	h.log = append(h.log, fmt.Sprintf("%3d t=%d: ", len(h.log), h.now)+fmt.Sprintf(format, args...))
}

func (h *history) fatalf(format string, args ...any) {
	h.t.Fatalf("%s\nhistory:\n%s", fmt.Sprintf(format, args...), joinLines(h.log))
}

func joinLines(lines []string) string {
	s := ""
	for _, l := range lines {
		s += l + "\n"
	}
	return s
}

var historyClusterings = []string{"a", "b", "c", "d", "e", "f"}

// mutation draws one write of key at the next timestamp: cells (live,
// expiring, tombstones), row liveness, a row, range or partition deletion.
func (h *history) mutation(k string) replica.Partition {
	h.ts++
	ts, val := h.ts, fmt.Sprint("v", h.ts)
	ck := rapid.SampledFrom(historyClusterings).Draw(h.t, "clustering")
	col := rapid.SampledFrom([]string{"x", "y"}).Draw(h.t, "column")
	switch rapid.IntRange(0, 9).Draw(h.t, "write kind") {
	case 0, 1, 2:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)))
	case 3:
		ttl := rapid.IntRange(1, 5).Draw(h.t, "ttl")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Expiring(col, val, ts, int32(ttl), h.now+int64(ttl))))
	case 4:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Tombstone(col, ts, h.now)))
	case 5:
		return replica.NewPartition(k, replica.NewRow(ck).WithLiveness(replica.Inserted(ts)))
	case 6:
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, h.now)))
	case 7, 8:
		end := rapid.SampledFrom(historyClusterings).Draw(h.t, "range end")
		start, stop := replica.StartAt(min(ck, end)), replica.EndAt(max(ck, end))
		if rapid.Bool().Draw(h.t, "exclusive start") {
			start = replica.StartAfter(min(ck, end))
		}
		if start.Compare(stop) >= 0 {
			start = replica.StartAt(min(ck, end))
		}
		return replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(start, stop, replica.DeletedAt(ts, h.now)))
	default:
		return replica.NewPartition(k).WithDeletion(replica.DeletedAt(ts, h.now))
	}
}

// write sends a mutation to every replica of its key but those it drops
// (a lost hint), and counts it acknowledged if W of the local ones applied it.
func (h *history) write() {
	k := rapid.SampledFrom(h.keys).Draw(h.t, "write key")
	p := h.mutation(k)
	for _, r := range p.Rows {
		for _, c := range r.Cells {
			if !c.Tombstone {
				h.written[liveID(c)] = true
			}
		}
	}
	applied, acks := []string{}, 0
	for i, id := range h.ids {
		if rapid.IntRange(0, 3).Draw(h.t, "drop") == 0 {
			continue
		}
		if h.apply(id, p) {
			applied = append(applied, id)
			if i < h.local {
				acks++
			}
		}
	}
	if d, ok := purgeTime(p); ok {
		h.deletes[k] = append(h.deletes[k], d)
	}
	ok := acks >= h.w
	if ok {
		m, err := repair.Merge(h.acked[k], p)
		if err != nil {
			h.fatalf("merge: %v", err)
		}
		h.acked[k] = m
	}
	h.logf("write %s %v on %v acked=%v", k, p, applied, ok)
}

// apply is one replica's write: false if it failed, panicked or timed out.
func (h *history) apply(id string, p replica.Partition) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	return h.cl.Replica(id).Apply(ctx, replica.Mutation{Table: tbl, Partition: p}) == nil
}

// behaviours covers every fault of replicatest, pauses and slowness.
var behaviours = []replicatest.Behavior{
	{Latency: replicatest.Constant(ms(1))},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5), PauseChance: 0.3, PauseLength: replicatest.Uniform(ms(5), ms(60))},
	{Latency: replicatest.Uniform(ms(1), ms(10)), Slowdown: 4},
	{Fault: replicatest.Down()},
	{Fault: replicatest.Unreachable()},
	{Fault: replicatest.Panics()},
	{Fault: replicatest.ErrorAfter(ms(3), nil)},
	{Latency: replicatest.Constant(ms(70)), Fault: replicatest.IgnoresContext()},
}

// fault changes one replica's behaviour or liveness.
func (h *history) fault() {
	id := rapid.SampledFrom(h.ids).Draw(h.t, "faulty replica")
	if rapid.IntRange(0, 3).Draw(h.t, "liveness") == 0 {
		alive := rapid.Bool().Draw(h.t, "alive")
		must(h, h.cl.SetAlive(id, alive))
		h.logf("%s alive=%v", id, alive)
		return
	}
	b := behaviours[rapid.IntRange(0, len(behaviours)-1).Draw(h.t, "behaviour")]
	must(h, h.cl.Replica(id).SetBehavior(b))
	h.logf("%s behaves %v", id, b)
}

func must(h *history, err error) {
	if err != nil {
		h.fatalf("%v", err)
	}
}

// typed reports whether err is one a read may fail with: the level could
// not be met. Anything else, a panic's or a context's, is a bug.
func typed(err error) bool {
	var (
		u  *consistency.UnavailableError
		rt *consistency.ReadTimeoutError
		rf *consistency.ReadFailureError
	)
	return errors.As(err, &u) || errors.As(err, &rt) || errors.As(err, &rf)
}

// check holds a successful read of k, returning p at now, to the model:
// it shows only written live cells, every acknowledged write (or newer),
// and, if monotonic, everything an earlier monotonic read returned.
func (h *history) check(what, k string, p replica.Partition, now int64, monotonic bool) {
	v := p.Visible(now)
	for _, r := range v.Rows {
		for _, c := range r.Cells {
			if !h.written[liveID(c)] {
				h.fatalf("%s of %s returned %s, never written:\n%v", what, k, liveID(c), p)
			}
		}
	}
	for _, c := range v.Static {
		if !h.written[liveID(c)] {
			h.fatalf("%s of %s returned static %s, never written", what, k, liveID(c))
		}
	}
	h.covers(what+" (acknowledged writes)", k, p, h.acked[k], now)
	if monotonic {
		h.covers(what+" (monotonic reads)", k, p, h.seen[k], now)
		m, err := repair.Merge(h.seen[k], p)
		must(h, err)
		h.seen[k] = m
	}
}

type purgeable struct {
	p replica.Partition
	// gcBefore is the least gcBefore that purges all of p, once a read's
	// time is at least expired.
	gcBefore, expired int64
}

// purgeTime returns when a deletion, or an expiring cell, is purged: a
// tombstone once it is older than gcBefore; an expiring cell once it has
// expired and the tombstone it becomes, of its write time, is.
func purgeTime(p replica.Partition) (purgeable, bool) {
	switch {
	case !p.Deletion.IsLive():
		return purgeable{p, p.Deletion.LocalDeletionTime + 1, 0}, true
	case len(p.RangeTombstones) > 0:
		return purgeable{p, p.RangeTombstones[0].Deletion.LocalDeletionTime + 1, 0}, true
	case !p.Rows[0].Deletion.IsLive():
		return purgeable{p, p.Rows[0].Deletion.LocalDeletionTime + 1, 0}, true
	case len(p.Rows[0].Cells) == 0:
		return purgeable{}, false
	}
	c := p.Rows[0].Cells[0]
	switch {
	case c.Tombstone:
		return purgeable{p, c.LocalDeletionTime + 1, 0}, true
	case c.IsExpiring():
		return purgeable{p, c.LocalDeletionTime - int64(c.TTL) + 1, c.LocalDeletionTime}, true
	}
	return purgeable{}, false
}

// purgedDeletes merges the deletions of k that a read at now purges: each
// takes with it what it deleted, on the replicas that had it, even if no
// write of it was acknowledged.
func (h *history) purgedDeletes(k string, now int64) replica.Partition {
	ps := []replica.Partition{replica.NewPartition(k)}
	for _, d := range h.deletes[k] {
		if d.gcBefore <= now-h.grace && d.expired <= now {
			ps = append(ps, d.p)
		}
	}
	m, err := repair.Merge(ps...)
	must(h, err)
	return m
}

// covers fails unless p already shows everything want adds at now: merging
// want into p changes nothing a client sees. Tombstones past gc_grace are
// purged from want first, and with them what they deleted: a replica that
// missed such a deletion may show the data again, as Cassandra documents.
func (h *history) covers(what, k string, p, want replica.Partition, now int64) {
	want, err := repair.Merge(want, h.purgedDeletes(k, now))
	must(h, err)
	m, err := repair.Merge(p, want.Purge(now, now-h.grace))
	must(h, err)
	if got, should := p.Visible(now), m.Visible(now); !got.Equal(should) {
		h.fatalf("%s: read of %s at now=%d returned\n  %v\nbut must show\n  %v\nreturned partition %v\nmodel %v",
			what, k, now, got, should, p, want)
	}
}
