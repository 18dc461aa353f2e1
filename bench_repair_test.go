package readpath_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- coordinator: a read whose replicas disagree, repaired ----

// staleApply is a replica that acknowledges repairs at once without applying
// them, so that it stays stale and every read of a benchmark mismatches.
type staleApply struct{ replica.Replica }

func (s staleApply) Apply(ctx context.Context, _ replica.Mutation) error { return ctx.Err() }

// mismatchRows is how many rows the replicas of the mismatch benchmarks
// disagree on: every row of their partition.
const mismatchRows = 100

// replicaVersion returns replica i's version of a partition of n rows of
// ten cells: in every row, column i was written once more, later, on
// replica i alone (i < 0: on every replica). So any two replicas disagree
// on every row, and each lacks one cell per row of the other's.
func replicaVersion(i, n int) replica.Partition {
	rows := make([]replica.Row, n)
	var buf []byte
	for r := range rows {
		cells := make([]replica.Cell, len(benchColumns))
		for c, column := range benchColumns {
			ts := int64(1000)
			if c == i || (i < 0 && c < 3) {
				ts++
			}
			start := len(buf)
			buf = fmt.Appendf(buf, "value-%06d-%02d", ts, c)
			cells[c] = replica.Cell{Column: column, Value: buf[start:len(buf):len(buf)], Timestamp: ts}
		}
		rows[r] = replica.Row{Clustering: fmt.Sprintf("row%06d", r), Cells: cells}
	}
	return replica.Partition{Key: "k", Rows: rows}
}

// staleCoordinator reads three instant replicas that acknowledge repairs
// without applying them. Replica i holds replicaVersion(i) if disagree, else
// every one holds the merge of those, replicaVersion(-1): the same data.
func staleCoordinator(b testing.TB, disagree bool) *coordinator.Coordinator {
	return staleCoordinatorOf(b, disagree, map[string]int{"k": mismatchRows})
}

// reusingCoordinator is staleCoordinator's, disagreeing, with
// Config.ReuseRepairWrites: its replicas keep nothing of their writes.
func reusingCoordinator(b testing.TB) *coordinator.Coordinator {
	return seededCoordinatorWith(b, map[string]int{"k": mismatchRows}, replicaVersion, coordinator.Config{ReuseRepairWrites: true})
}

// staleCoordinatorOf is staleCoordinator with a partition of rows[k] rows
// for each key k.
func staleCoordinatorOf(b testing.TB, disagree bool, rows map[string]int) *coordinator.Coordinator {
	return seededCoordinator(b, rows, func(i, n int) replica.Partition {
		if disagree {
			return replicaVersion(i, n)
		}
		return replicaVersion(-1, n)
	})
}

// byTurnsVersion is the merge replicaVersion(-1, n) holds, but only every
// third row of it, from the i-th on: replica i's version of a partition
// whose writes each reached one replica.
func byTurnsVersion(i, n int) replica.Partition {
	v := replicaVersion(-1, n)
	rows := v.Rows[:0]
	for j := i; j < n; j += 3 {
		rows = append(rows, v.Rows[j])
	}
	v.Rows = rows
	return v
}

// seededCoordinator reads three instant replicas that acknowledge repairs
// without applying them, replica i holding version(i, rows[k]) of each
// partition k.
func seededCoordinator(b testing.TB, rows map[string]int, version func(i, n int) replica.Partition) *coordinator.Coordinator {
	return seededCoordinatorWith(b, rows, version, coordinator.Config{})
}

// seededCoordinatorWith is seededCoordinator configured by cfg, but for
// its locator, liveness and datacenter.
func seededCoordinatorWith(b testing.TB, rows map[string]int, version func(i, n int) replica.Partition, cfg coordinator.Config) *coordinator.Coordinator {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		b.Fatal(err)
	}
	reps := make([]replica.Replica, 0, 3)
	for i, r := range cl.Replicas() {
		for k, n := range rows {
			v := version(i, n)
			v.Key = k
			if err := r.Seed("t", v); err != nil {
				b.Fatal(err)
			}
		}
		reps = append(reps, staleApply{r})
	}
	locate := func(string, string) ([]replica.Replica, consistency.Replication, error) {
		return reps, consistency.Simple(3), nil
	}
	cfg.Locator, cfg.Liveness, cfg.LocalDatacenter = coordinator.LocatorFunc(locate), cl, "dc1"
	c, err := coordinator.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// benchStaleRead reads the partition of a staleCoordinator again and
// again, releasing each result (Result.Release) unless kept: a mismatch
// then builds its merge in the memory of the last one.
func benchStaleRead(b *testing.B, disagree, kept bool) {
	benchPartitionRead(b, staleCoordinator(b, disagree), disagree, kept)
}

// benchPartitionRead reads the partition k of c, of mismatchRows rows, again and
// again, as benchStaleRead does.
func benchPartitionRead(b *testing.B, c *coordinator.Coordinator, disagree, kept bool) {
	req := coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum}
	ctx := context.Background()
	res, err := c.Read(ctx, req)
	if err != nil || len(res.Partition.Rows) != mismatchRows || res.Trace.DigestMismatch != disagree {
		b.Fatalf("%d rows, mismatch %v, %v; want %d rows, mismatch %v",
			len(res.Partition.Rows), res.Trace.DigestMismatch, err, mismatchRows, disagree)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.Read(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if !kept {
			res.Release()
		}
	}
}

// BenchmarkReadMismatch100 is a QUORUM read whose two contacts disagree on
// every one of 100 rows: a second round of data reads, the merge, and a
// BLOCKING repair of both, which they acknowledge at once (and stay stale).
// Its caller releases each result. Target: at most 4x BenchmarkReadMatch100,
// its reference.
func BenchmarkReadMismatch100(b *testing.B) { benchStaleRead(b, true, false) }

// BenchmarkReadMismatch100Kept is BenchmarkReadMismatch100 for a caller
// that keeps its results (does not Release them): every merge builds in
// new memory, as all did before Release.
func BenchmarkReadMismatch100Kept(b *testing.B) { benchStaleRead(b, true, true) }

// BenchmarkReadMismatch100Reused is BenchmarkReadMismatch100 with
// Config.ReuseRepairWrites, for replicas that keep nothing of the writes
// they are given (a transport that serializes them): the repair writes are
// built in memory that the next read's reuse. Target: at most 4x
// BenchmarkReadMatch100, its reference.
func BenchmarkReadMismatch100Reused(b *testing.B) {
	benchPartitionRead(b, reusingCoordinator(b), true, false)
}

// BenchmarkReadMismatchByTurnsKept is a QUORUM read of a partition of 150
// rows whose every write reached one replica (byTurnsVersion): each
// contact holds a third of it, and their merge 100 rows, each of which one
// of them lacks; BLOCKING repair, results kept. Its merge is sized for the
// union of the two, as BenchmarkReadMismatch100Kept's is for the same rows.
func BenchmarkReadMismatchByTurnsKept(b *testing.B) {
	c := seededCoordinator(b, map[string]int{"k": 3 * mismatchRows / 2}, byTurnsVersion)
	req := coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.Read(ctx, req)
		if err != nil || len(res.Partition.Rows) != mismatchRows || !res.Trace.DigestMismatch {
			b.Fatalf("%d rows, mismatch %v, %v", len(res.Partition.Rows), res.Trace.DigestMismatch, err)
		}
	}
}

// mixedRows are the partitions BenchmarkReadMismatchMixed reads by turns.
var mixedRows = map[string]int{"s": 10, "m": 100, "l": 1000}

// BenchmarkReadMismatchMixed reads, by turns, partitions of 10, 100 and
// 1,000 rows whose replicas disagree on every row, as
// BenchmarkReadMismatch100 reads one, releasing each result: each merge
// builds in the memory of an earlier one of its size. Its reference is
// BenchmarkReadMismatchMixedKept.
func BenchmarkReadMismatchMixed(b *testing.B) { benchMixedRead(b, false) }

// BenchmarkReadMismatchMixedKept is BenchmarkReadMismatchMixed for a
// caller that keeps its results.
func BenchmarkReadMismatchMixedKept(b *testing.B) { benchMixedRead(b, true) }

func benchMixedRead(b *testing.B, kept bool) {
	c := staleCoordinatorOf(b, true, mixedRows)
	keys := []string{"s", "l", "m", "s", "m", "l"}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keys[i%len(keys)]
		i++
		res, err := c.Read(ctx, coordinator.Request{Table: "t", Key: k, Level: consistency.Quorum})
		if err != nil || len(res.Partition.Rows) != mixedRows[k] || !res.Trace.DigestMismatch {
			b.Fatalf("%s: %d rows, mismatch %v, %v", k, len(res.Partition.Rows), res.Trace.DigestMismatch, err)
		}
		if !kept {
			res.Release()
		}
	}
}

// BenchmarkReadMatch100 is the reference for BenchmarkReadMismatch100: the
// same read over replicas that agree, holding the same data as the merge.
func BenchmarkReadMatch100(b *testing.B) { benchStaleRead(b, false, false) }

// ---- repair: merging and diffing in one pass ----

// BenchmarkResolve2x100 merges the two versions of a mismatch read
// (replicaVersion 0 and 1, 100 rows of which each lacks a cell of the
// other's in every row) and diffs both, in one pass with a reused
// Resolver. Its reference is BenchmarkMergeDiff2x100.
func BenchmarkResolve2x100(b *testing.B) {
	clearSinkAtEnd(b)
	vs := []replica.Partition{replicaVersion(0, mismatchRows), replicaVersion(1, mismatchRows)}
	var r repair.Resolver
	b.ReportAllocs()
	for b.Loop() {
		m, diffs, err := r.Resolve(vs...)
		if err != nil || diffs[0].IsEmpty() || diffs[1].IsEmpty() {
			b.Fatal(err, diffs)
		}
		sinkPartition = m
	}
}

// BenchmarkMergeDiff2x100 is the reference for BenchmarkResolve2x100: Merge,
// then a Diff of each version, as the coordinator did before.
func BenchmarkMergeDiff2x100(b *testing.B) {
	clearSinkAtEnd(b)
	vs := []replica.Partition{replicaVersion(0, mismatchRows), replicaVersion(1, mismatchRows)}
	b.ReportAllocs()
	for b.Loop() {
		m, err := repair.Merge(vs...)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range vs {
			if _, stale := repair.Diff(m, v); !stale {
				b.Fatal("up to date")
			}
		}
		sinkPartition = m
	}
}

// ---- replica: checking and digesting a data answer in one walk ----

var sinkErr error

// benchValidateDigest checks and digests a data answer of rows rows of ten
// cells (queryPartition's), in one walk with ValidateDigest, or, if
// twoWalks, with Validate and then DigestAt, as the coordinator did.
func benchValidateDigest(b *testing.B, rows int, twoWalks bool) {
	p := queryPartition(rows)
	b.ReportAllocs()
	for b.Loop() {
		if twoWalks {
			if sinkErr = p.Validate(); sinkErr == nil {
				sinkDigest, sinkErr = p.DigestAt(0)
			}
			continue
		}
		sinkDigest, sinkErr = p.ValidateDigest(0)
	}
}

// BenchmarkValidateDigest1000 and BenchmarkValidateDigest50000 check and
// digest a data answer in one walk; BenchmarkValidateThenDigest1000 and
// BenchmarkValidateThenDigest50000, in two, are their references. An
// answer that stays in cache between two walks (1000 rows, about 1 MiB)
// costs the same either way; one larger than the last-level cache (50,000
// rows, about 50 MiB) costs a second trip to memory in two.
func BenchmarkValidateDigest1000(b *testing.B)      { benchValidateDigest(b, 1000, false) }
func BenchmarkValidateThenDigest1000(b *testing.B)  { benchValidateDigest(b, 1000, true) }
func BenchmarkValidateDigest50000(b *testing.B)     { benchValidateDigest(b, 50000, false) }
func BenchmarkValidateThenDigest50000(b *testing.B) { benchValidateDigest(b, 50000, true) }
