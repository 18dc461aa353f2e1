package readpath_test

// Benchmarks of every hot path, each beside a reference it is judged against.
// Run them with:
//
//	go test -run '^$' -bench . -count 10 . > new.txt && benchstat new.txt

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/zeebo/xxh3"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- consistency ----
var sinkInt int

// BenchmarkBlockFor is on every read's path; it must not allocate.
func BenchmarkBlockFor(b *testing.B) {
	r := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3, "dc3": 2})
	levels := consistency.Levels()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sinkInt += levels[i%len(levels)].BlockFor(r, "dc2")
		i++
	}
}

// ---- latency: tracker records against a mutex-guarded HdrHistogram, threshold loads ----
var sinkDuration time.Duration

// latencySamples are the values every record benchmark feeds in: log-normal
// around 2 ms with a GC-pause tail, like the reads of one table. Their number
// is a power of two so that picking one is a mask, not a division that would
// cost as much as the Record it feeds.
const numLatencySamples = 4096

var latencySamples = func() *[numLatencySamples]time.Duration {
	r := rand.New(rand.NewPCG(1, 2))
	s := new([numLatencySamples]time.Duration)
	for i := range s {
		ms := math.Exp(math.Log(2) + 0.5*r.NormFloat64())
		if r.IntN(100) == 0 {
			ms += 50 + 50*r.Float64()
		}
		s[i] = time.Duration(ms * float64(time.Millisecond))
	}
	return s
}()

// parallelOffset gives each RunParallel goroutine its own place in
// latencySamples, so goroutines do not record the same value in lock-step.
var parallelOffset atomic.Uint32

// BenchmarkTrackerRecord is on every read's path: one atomic add and, on
// one sample in 128, a clock read; no allocation.
func BenchmarkTrackerRecord(b *testing.B) {
	t := latency.NewTracker()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t.Record(latencySamples[i%numLatencySamples])
		i++
	}
}

// BenchmarkTrackerRecordParallel must take at most half the time per op of
// BenchmarkHdrMutexRecordParallel.
func BenchmarkTrackerRecordParallel(b *testing.B) {
	t := latency.NewTracker()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(parallelOffset.Add(997))
		for pb.Next() {
			t.Record(latencySamples[i%numLatencySamples])
			i++
		}
	})
}

// BenchmarkHdrMutexRecordParallel is the reference for
// BenchmarkTrackerRecordParallel: an HdrHistogram of the same precision
// (two significant digits) behind a mutex, fed the same values.
func BenchmarkHdrMutexRecordParallel(b *testing.B) {
	record := hdrMutexRecorder()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(parallelOffset.Add(997))
		for pb.Next() {
			record(i)
			i++
		}
	})
}

// hdrMutexRecorder returns a function that records latencySamples[i] into
// an HdrHistogram of two significant digits behind a mutex.
func hdrMutexRecorder() func(i int) {
	h := hdrhistogram.New(1, int64(latency.MaxLatency), 2)
	var mu sync.Mutex
	return func(i int) {
		mu.Lock()
		_ = h.RecordValue(int64(latencySamples[i%numLatencySamples]))
		mu.Unlock()
	}
}

// trackerRecorder returns a function that records latencySamples[i] into a
// new tracker.
func trackerRecorder() func(i int) {
	t := latency.NewTracker()
	return func(i int) { t.Record(latencySamples[i%numLatencySamples]) }
}

// BenchmarkTrackerRecordWorkers records from a pool of long-lived workers,
// eight per core, as a server's request goroutines or the coordinator's
// kept workers do: which of them run at once changes all the time, so the
// tracker's stripes cannot rely on RunParallel's goroutines being laid out
// side by side. Target: at most half BenchmarkHdrMutexRecordWorkers.
func BenchmarkTrackerRecordWorkers(b *testing.B) {
	onWorkers(b, 8*runtime.GOMAXPROCS(0), 0, trackerRecorder())
}

// BenchmarkHdrMutexRecordWorkers is the reference for
// BenchmarkTrackerRecordWorkers.
func BenchmarkHdrMutexRecordWorkers(b *testing.B) {
	onWorkers(b, 8*runtime.GOMAXPROCS(0), 0, hdrMutexRecorder())
}

// BenchmarkTrackerRecordDeepStacks records from workers that each run 64
// KiB down their stacks, as a handler deep in a server framework does; their
// stacks are large and far apart. Target: at most half
// BenchmarkHdrMutexRecordDeepStacks.
func BenchmarkTrackerRecordDeepStacks(b *testing.B) {
	onWorkers(b, 2*runtime.GOMAXPROCS(0), 64<<10, trackerRecorder())
}

// BenchmarkHdrMutexRecordDeepStacks is the reference for
// BenchmarkTrackerRecordDeepStacks.
func BenchmarkHdrMutexRecordDeepStacks(b *testing.B) {
	onWorkers(b, 2*runtime.GOMAXPROCS(0), 64<<10, hdrMutexRecorder())
}

// onWorkers calls record b.N times in all from workers long-lived
// goroutines, each depth bytes down its stack. A worker takes batches of
// calls and yields after each, as one that waits for its next request does.
func onWorkers(b *testing.B, workers, depth int, record func(i int)) {
	const batch = 256
	var next atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Go(func() {
			atDepth(depth, func() {
				<-start
				for i := next.Add(batch) - batch; i < int64(b.N); i = next.Add(batch) - batch {
					for j := i; j < min(i+batch, int64(b.N)); j++ {
						record(int(j)*997 + w)
					}
					runtime.Gosched()
				}
			})
		})
	}
	b.ReportAllocs()
	b.ResetTimer()
	close(start)
	wg.Wait()
}

// atDepth calls f about depth bytes down the stack.
//
//go:noinline
func atDepth(depth int, f func()) {
	var frame [512]byte
	if depth <= len(frame) {
		f()
		return
	}
	atDepth(depth-len(frame), f)
	sinkInt += int(frame[depth%len(frame)])
}

// BenchmarkTrackerQuantile is what a threshold refresh costs, once per
// refresh interval per table. Target: at most 3x
// BenchmarkHdrValueAtQuantile on the same samples.
func BenchmarkTrackerQuantile(b *testing.B) {
	t := latency.NewTracker()
	for _, d := range latencySamples {
		t.Record(d)
	}
	b.ReportAllocs()
	for b.Loop() {
		sinkDuration += t.Quantile(0.99)
	}
}

// BenchmarkHdrValueAtQuantile is the reference for BenchmarkTrackerQuantile
// and BenchmarkTrackerQuantileFullWindow: the 99th percentile of the same
// samples in an HdrHistogram of two significant digits.
func BenchmarkHdrValueAtQuantile(b *testing.B) {
	h := hdrhistogram.New(1, int64(latency.MaxLatency), 2)
	for _, d := range latencySamples {
		_ = h.RecordValue(int64(d))
	}
	b.ReportAllocs()
	for b.Loop() {
		sinkDuration += time.Duration(h.ValueAtQuantile(99))
	}
}

// BenchmarkTrackerQuantileFullWindow is Quantile over a full window: the
// samples spread over its three thirds, two of them finished and packed.
// Target: at most 3x BenchmarkHdrValueAtQuantile.
func BenchmarkTrackerQuantileFullWindow(b *testing.B) {
	clock := &fakeClock{at: time.Unix(1_700_000_000, 0)}
	t := servedTracker(clock)
	b.ReportAllocs()
	for b.Loop() {
		sinkDuration += t.Quantile(0.99)
	}
}

// BenchmarkTrackerSummarize is what a metrics scrape costs per table: the
// count, mean, maximum and three quantiles of a full window, in one read.
// Its reference is BenchmarkTrackerSnapshot, the same figures through a
// Snapshot.
func BenchmarkTrackerSummarize(b *testing.B) {
	t := servedTracker(&fakeClock{at: time.Unix(1_700_000_000, 0)})
	qs := []float64{0.5, 0.99, 0.999}
	var q [3]time.Duration
	b.ReportAllocs()
	for b.Loop() {
		s := t.Summarize(qs, q[:])
		sinkDuration += q[0] + q[1] + q[2] + s.Mean + s.Max
	}
}

// BenchmarkTrackerSnapshot is the reference for BenchmarkTrackerSummarize.
func BenchmarkTrackerSnapshot(b *testing.B) {
	t := servedTracker(&fakeClock{at: time.Unix(1_700_000_000, 0)})
	b.ReportAllocs()
	for b.Loop() {
		s := t.Snapshot()
		sinkDuration += s.Quantile(0.5) + s.Quantile(0.99) + s.Quantile(0.999) + s.Mean + s.Max
	}
}

// fakeClock is a clock the benchmark moves by hand.
type fakeClock struct{ at time.Time }

func (c *fakeClock) now() time.Time { return c.at }

// servedTracker returns a tracker on clock that has served a window of
// reads: latencySamples spread over its three thirds, and a quantile every
// 256 samples, as a threshold refreshes. It leaves the clock at the end of
// the window, which the tracker's last third is still in.
func servedTracker(clock *fakeClock) *latency.Tracker {
	t := latency.NewTracker(latency.WithClock(clock.now))
	start := clock.at
	for i, d := range latencySamples {
		clock.at = start.Add(time.Duration(i) * latency.DefaultWindow / numLatencySamples)
		t.Record(d)
		if i%256 == 0 {
			sinkDuration += t.Quantile(0.99)
		}
	}
	clock.at = start.Add(latency.DefaultWindow - 1)
	return t
}

// BenchmarkTrackerBytes reports the heap a tracker takes once it has served
// a window of reads (see servedTracker), measured over 4,000 trackers, as
// one per table of a 4,000-table cluster. The target is 8 KiB; each tracker
// here is recorded from one goroutine, so it has one stripe, as a table
// whose Records do not contend has (the latency package's own benchmark
// measures one with every stripe). Its reference is BenchmarkHdrBytes.
func BenchmarkTrackerBytes(b *testing.B) {
	heapPerItem(b, func(clock *fakeClock) any { return servedTracker(clock) })
}

// BenchmarkHdrBytes is the reference for BenchmarkTrackerBytes: an
// HdrHistogram of two significant digits over the same range, which one
// tracker's window would need three of.
func BenchmarkHdrBytes(b *testing.B) {
	heapPerItem(b, func(*fakeClock) any {
		h := hdrhistogram.New(1, int64(latency.MaxLatency), 2)
		for _, d := range latencySamples {
			_ = h.RecordValue(int64(d))
		}
		return h
	})
}

// heapPerItem reports the heap that each of 4,000 items built by build
// keeps alive, in B/item.
func heapPerItem(b *testing.B, build func(*fakeClock) any) {
	const n = 4000
	var perItem float64
	for b.Loop() {
		items := make([]any, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		clock := &fakeClock{at: time.Unix(1_700_000_000, 0)}
		for i := range items {
			items[i] = build(clock)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perItem = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(items)
	}
	b.ReportMetric(perItem, "B/item")
}

// BenchmarkThresholdLoad is on every read's path: one atomic load while the
// cached threshold is fresh, a recomputation once per refresh interval.
func BenchmarkThresholdLoad(b *testing.B) {
	t := latency.NewTracker()
	for _, d := range latencySamples {
		t.Record(d)
	}
	th := latency.NewThreshold(latency.SpeculativeRetry{}, t, 5*time.Second)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		// A read a microsecond: one recomputation per million loads, as at a
		// million reads a second. The caller has the time already.
		now = now.Add(time.Microsecond)
		d, _ := th.Load(now)
		sinkDuration += d
	}
}

// ---- digest: a 4 KiB partition against the raw hash of its bytes ----
var sinkDigest digest.Digest

// BenchmarkDigest4K digests a partition of one row holding one 4 KiB value.
// Target: at least half the throughput of BenchmarkDigestRawHash4K.
func BenchmarkDigest4K(b *testing.B) {
	p := replica.NewPartition("partition-key",
		replica.NewRow("clustering", replica.Cell{Column: "value", Value: benchValue(4 << 10), Timestamp: 1700000000000000}))
	b.SetBytes(4 << 10)
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = p.Digest()
	}
}

// BenchmarkDigestRawHash4K is the reference for BenchmarkDigest4K: the same
// hash over the 4 KiB value alone, in one call.
func BenchmarkDigestRawHash4K(b *testing.B) {
	value := benchValue(4 << 10)
	b.SetBytes(4 << 10)
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = xxh3.Hash128(value).Bytes()
	}
}

// BenchmarkDigestPartition100x10 digests 100 rows of 10 small cells, where
// the per-field cost of the encoding shows. SetBytes is the size of the
// canonical encoding.
func BenchmarkDigestPartition100x10(b *testing.B) {
	p := benchPartition(100, 10)
	b.SetBytes(int64(len(p.AppendCanonical(nil))))
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = p.Digest()
	}
}

// BenchmarkRespondDigest100x10 is a replica's answer to a digest-only read
// of the partition of BenchmarkDigestPartition100x10 at a read time that
// purges nothing: the scan for what to purge, then the digest. Its
// reference is BenchmarkDigestPartition100x10, the digest alone.
func BenchmarkRespondDigest100x10(b *testing.B) {
	p := benchPartition(100, 10)
	cmd := replica.Command{Key: p.Key, DigestOnly: true, NowInSec: 1700000000, GCBefore: 1700000000 - 864000}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := cmd.Respond(p)
		if err != nil {
			b.Fatal(err)
		}
		sinkDigest = resp.Digest
	}
}

func benchValue(n int) []byte {
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(i * 7)
	}
	return v
}

func benchPartition(rows, cells int) replica.Partition {
	rs := make([]replica.Row, rows)
	for r := range rs {
		cs := make([]replica.Cell, cells)
		for c := range cs {
			cs[c] = replica.Live(string(rune('a'+c))+"-column", "value-of-16bytes", 1700000000000000+int64(r*cells+c))
		}
		rs[r] = replica.NewRow(string(rune('a'+r/26))+string(rune('a'+r%26)), cs...)
	}
	return replica.NewPartition("partition-key", rs...)
}

// ---- repair: merge linearity and diffs ----
var sinkPartition replica.Partition

// clearSinkAtEnd empties sinkPartition when b ends: a large partition left
// there would be live heap that the collections of every later benchmark
// in the run mark, and not in a run of that benchmark alone.
func clearSinkAtEnd(b *testing.B) { b.Cleanup(func() { sinkPartition = replica.Partition{} }) }

// divergentVersions returns three versions of a partition of n rows of ten
// cells, as replicas hold it after missed writes: replica 1 lacks every 7th
// row and holds an older value for column 4 of every 3rd row; replica 2 lacks
// every 11th row, deleted column 2 of every 13th row later, and deleted
// every 17th row (before its cells were last written). As in a decoded
// response, column names come from the schema and values slice one buffer.
func divergentVersions(n int) []replica.Partition {
	vs := make([]replica.Partition, 3)
	for v := range vs {
		vs[v].Key = "partition"
		var buf []byte
		for i := range n {
			if (v == 1 && i%7 == 0) || (v == 2 && i%11 == 0) {
				continue
			}
			var r replica.Row
			r, buf = benchRow(v, i, buf)
			vs[v].Rows = append(vs[v].Rows, r)
		}
	}
	return vs
}

var benchColumns = [10]string{"col00", "col01", "col02", "col03", "col04", "col05", "col06", "col07", "col08", "col09"}

// benchRow returns row i of version v, its values appended to buf.
func benchRow(v, i int, buf []byte) (replica.Row, []byte) {
	cells := make([]replica.Cell, len(benchColumns))
	for c, column := range benchColumns {
		ts := int64(1000 + i)
		if v == 1 && i%3 == 0 && c == 4 {
			ts-- // an older write
		}
		if v == 2 && i%13 == 0 && c == 2 {
			cells[c] = replica.Tombstone(column, ts+1, 1700000000)
			continue
		}
		start := len(buf)
		buf = fmt.Appendf(buf, "value-%06d-%02d", ts, c)
		cells[c] = replica.Cell{Column: column, Value: buf[start:len(buf):len(buf)], Timestamp: ts}
	}
	r := replica.Row{Clustering: fmt.Sprintf("row%06d", i), Cells: cells}
	if v == 2 && i%17 == 0 {
		r.Deletion = replica.DeletedAt(999, 1700000000)
	}
	return r, buf
}

// mergeHeapRows is how many rows the versions that every merge benchmark
// keeps alive have: all sizes run against the same live heap, so that the
// garbage collector runs as often per byte allocated in each, and their
// ratio measures the merge, not the collector's pacing of a small heap.
const mergeHeapRows = 10000

// benchMerge merges three versions of rows rows, with the versions of
// mergeHeapRows rows alive.
func benchMerge(b *testing.B, rows int) {
	if rows == mergeHeapRows {
		benchMergeOf(b, nil)
		return
	}
	benchMergeOf(b, divergentVersions(rows))
}

// benchMergeOf merges vs, or the live heap's versions if vs is nil, with
// the versions of mergeHeapRows rows alive.
func benchMergeOf(b *testing.B, vs []replica.Partition) {
	clearSinkAtEnd(b)
	heap := divergentVersions(mergeHeapRows)
	if vs == nil {
		vs = heap
	}
	b.ReportAllocs()
	for b.Loop() {
		m, err := repair.Merge(vs...)
		if err != nil {
			b.Fatal(err)
		}
		sinkPartition = m
	}
	runtime.KeepAlive(heap)
}

// BenchmarkMerge3x100, BenchmarkMerge3x1000 and BenchmarkMerge3x10000 show
// that Merge is linear: ten times the rows must take at most 12 times as
// long from 100 to 1000 rows, and at most 11 times from 1000 to 10,000.
func BenchmarkMerge3x100(b *testing.B)   { benchMerge(b, 100) }
func BenchmarkMerge3x1000(b *testing.B)  { benchMerge(b, 1000) }
func BenchmarkMerge3x10000(b *testing.B) { benchMerge(b, 10000) }

// BenchmarkCloneReference3x1000 is the reference for BenchmarkMerge3x1000:
// one output's worth of data produced at the least cost, the largest of
// its versions copied into memory allocated at once (a block of rows, one
// of cells, one of value bytes, each of the exact size, counted before
// the loop), with the same live heap. A merge's result shares no memory
// with its inputs, so it must do as much as this, and compare versions
// besides.
func BenchmarkCloneReference3x1000(b *testing.B) {
	clearSinkAtEnd(b)
	heap := divergentVersions(mergeHeapRows)
	largest := slices.MaxFunc(divergentVersions(1000), func(a, b replica.Partition) int { return len(a.Rows) - len(b.Rows) })
	cells, bytes := contentSize(largest)
	b.ReportAllocs()
	for b.Loop() {
		sinkPartition = arenaClone(largest, cells, bytes)
	}
	runtime.KeepAlive(heap)
}

// contentSize returns how many cells and value bytes p's rows hold.
func contentSize(p replica.Partition) (cells, bytes int) {
	for _, r := range p.Rows {
		cells += len(r.Cells)
		for _, c := range r.Cells {
			bytes += len(c.Value)
		}
	}
	return cells, bytes
}

// arenaClone copies p, whose rows hold cells cells and bytes value bytes,
// into three blocks: its rows, their cells, their values.
func arenaClone(p replica.Partition, cells, bytes int) replica.Partition {
	rows := make([]replica.Row, len(p.Rows))
	cs, vals := make([]replica.Cell, 0, cells), make([]byte, 0, bytes)
	for i, r := range p.Rows {
		start := len(cs)
		for _, c := range r.Cells {
			if c.Value != nil {
				v := len(vals)
				vals = append(vals, c.Value...)
				c.Value = vals[v:len(vals):len(vals)]
			}
			cs = append(cs, c)
		}
		r.Cells = cs[start:len(cs):len(cs)]
		rows[i] = r
	}
	p.Rows = rows
	return p
}

// rangedVersions returns the versions of divergentVersions with range
// deletions, as replicas hold them after missed range DELETEs: replica 0
// deleted rows 10j+2 to 10j+4 after they were written, replica 1 deleted rows
// 10j+3 up to 10j+7 (excluded) before they were last written, so that the
// two overlap and the merge splits them, and replica 2 missed both.
func rangedVersions(n int) []replica.Partition {
	vs := divergentVersions(n)
	row := func(i int) string { return fmt.Sprintf("row%06d", i) }
	for j := 0; 10*j < n; j++ {
		vs[0].RangeTombstones = append(vs[0].RangeTombstones, replica.NewRangeTombstone(
			replica.StartAt(row(10*j+2)), replica.EndAt(row(10*j+4)), replica.DeletedAt(int64(1000+10*j+5), 1700000000)))
		vs[1].RangeTombstones = append(vs[1].RangeTombstones, replica.NewRangeTombstone(
			replica.StartAt(row(10*j+3)), replica.EndBefore(row(10*j+7)), replica.DeletedAt(int64(1000+10*j), 1700000000)))
	}
	return vs
}

// benchMergeRanges is benchMerge over rangedVersions, against the same live
// heap.
func benchMergeRanges(b *testing.B, rows int) { benchMergeOf(b, rangedVersions(rows)) }

// BenchmarkMergeRanges3x100 and BenchmarkMergeRanges3x1000 show that Merge
// stays linear with range tombstones (a tenth of the rows under one in each
// of two versions): ten times the rows must take at most 12 times as long.
// Their reference is BenchmarkMerge3x100 and BenchmarkMerge3x1000, the same
// rows without range tombstones.
func BenchmarkMergeRanges3x100(b *testing.B)  { benchMergeRanges(b, 100) }
func BenchmarkMergeRanges3x1000(b *testing.B) { benchMergeRanges(b, 1000) }

// BenchmarkDiff3x100 computes the repair of each of three versions.
func BenchmarkDiff3x100(b *testing.B) {
	vs := divergentVersions(100)
	merged, err := repair.Merge(vs...)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range vs {
			sinkPartition, _ = repair.Diff(merged, v)
		}
	}
}

// ---- coordinator: reads over replicas that answer at once, against a bare fan-out ----
// benchCluster is three in-memory replicas that answer at once, all
// holding the same small partition of key "k".
func benchCluster(b *testing.B) *replicatest.Cluster { return rfCluster(b, 3) }

func benchCoordinator(b testing.TB, cl *replicatest.Cluster) *coordinator.Coordinator {
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

func benchCoordinatorRead(b *testing.B, level consistency.Level) { benchRFRead(b, 3, level) }

// BenchmarkReadOne is a read at ONE: one data request.
func BenchmarkReadOne(b *testing.B) { benchCoordinatorRead(b, consistency.One) }

// BenchmarkReadQuorum must take at most 1.5x BenchmarkBareFanout's time.
func BenchmarkReadQuorum(b *testing.B) { benchCoordinatorRead(b, consistency.Quorum) }

// BenchmarkReadQuorumParallel runs QUORUM reads from every core; its
// reference is BenchmarkBareFanoutParallel.
func BenchmarkReadQuorumParallel(b *testing.B) { benchReadQuorumParallel(b, 1) }

// BenchmarkReadQuorumManyReaders is BenchmarkReadQuorumParallel from 32
// goroutines a core, as a server's handlers read: more readers than
// stripes, taking turns on each. Its reference is
// BenchmarkReadQuorumParallel.
func BenchmarkReadQuorumManyReaders(b *testing.B) { benchReadQuorumParallel(b, 32) }

// benchReadQuorumParallel reads at QUORUM from perCore goroutines a core.
func benchReadQuorumParallel(b *testing.B, perCore int) {
	c := benchCoordinator(b, benchCluster(b))
	req := coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum}
	b.ReportAllocs()
	b.SetParallelism(perCore)
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if _, err := c.Read(ctx, req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkBareFanout is the reference for BenchmarkReadQuorum: the same two
// replica reads (data from one, a digest from another) by hand, with no
// coordinator: start two goroutines, wait for two answers, cancel.
func BenchmarkBareFanout(b *testing.B) {
	reps := benchReplicas(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := bareFanout(reps); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBareFanoutParallel is the reference for
// BenchmarkReadQuorumParallel.
func BenchmarkBareFanoutParallel(b *testing.B) {
	reps := benchReplicas(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := bareFanout(reps); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func benchReplicas(b *testing.B) []replica.Replica {
	reps, _, err := benchCluster(b).Locate("t", "k")
	if err != nil {
		b.Fatal(err)
	}
	return reps
}

// bareFanout reads data from the first replica and a digest from the
// second, each in its own goroutine, waits for both and cancels.
func bareFanout(reps []replica.Replica) error {
	type answer struct {
		resp replica.Response
		err  error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := make(chan answer, 2)
	for i, r := range reps[:2] {
		cmd := replica.Command{Table: "t", Key: "k", DigestOnly: i > 0}
		go func() {
			resp, err := r.Read(ctx, cmd)
			ch <- answer{resp, err}
		}()
	}
	var err error
	for range 2 {
		if a := <-ch; a.err != nil {
			err = a.err
		}
	}
	return err
}

// ---- coordinator/retry: the budget and the executor ----
func newBenchBudget(b *testing.B) *retry.Budget {
	budget, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.1, MinPerSecond: 1})
	if err != nil {
		b.Fatal(err)
	}
	return budget
}

// BenchmarkBudgetDeposit is on every read's path (one request counted): it
// must take a few ns and not allocate.
func BenchmarkBudgetDeposit(b *testing.B) {
	budget := newBenchBudget(b)
	now := time.Unix(1_700_000_000, 0)
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Microsecond)
		budget.Deposit(now)
	}
}

// BenchmarkBudgetDepositParallel is Deposit from every core at once: all
// goroutines hit the same slot, as concurrent reads do.
func BenchmarkBudgetDepositParallel(b *testing.B) {
	depositParallel(b, newBenchBudget(b).Deposit)
}

// depositParallel calls deposit from every core, each with its own clock.
func depositParallel(b *testing.B, deposit func(time.Time)) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		now := time.Unix(1_700_000_000, 0)
		for pb.Next() {
			now = now.Add(time.Microsecond)
			deposit(now)
		}
	})
}

// mutexBudget is the reference for Deposit: the obvious sliding window of
// counters behind a mutex.
type mutexBudget struct {
	mu     sync.Mutex
	epochs [10]int64
	counts [10]int64
}

func (m *mutexBudget) deposit(now time.Time) {
	e := now.UnixNano() / int64(time.Second)
	m.mu.Lock()
	i := e % 10
	if m.epochs[i] != e {
		m.epochs[i], m.counts[i] = e, 0
	}
	m.counts[i]++
	m.mu.Unlock()
}

// BenchmarkBudgetDepositMutexReference is the reference for
// BenchmarkBudgetDepositParallel.
func BenchmarkBudgetDepositMutexReference(b *testing.B) {
	var ref mutexBudget
	depositParallel(b, ref.deposit)
}

var sinkString string

func benchRead(_ context.Context, target string, _ consistency.Level) (string, error) {
	return target, nil
}

// BenchmarkExecuteNoFailure is the executor's overhead on an attempt that
// succeeds at once, beside BenchmarkDirectCall: bare, and with a budget (one
// clock read and one Deposit per statement).
func BenchmarkExecuteNoFailure(b *testing.B) {
	plan := []string{"node1", "node2", "node3"}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		cfg  retry.Config
	}{{"bare", retry.Config{}}, {"budget", retry.Config{Budget: newBenchBudget(b)}}} {
		b.Run(bc.name, func(b *testing.B) {
			ex, err := retry.NewExecutor(bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := retry.Execute(ctx, ex, s, plan, benchRead)
				if err != nil {
					b.Fatal(err)
				}
				sinkString = res.Value
			}
		})
	}
}

// BenchmarkDirectCall is the reference for BenchmarkExecuteNoFailure: the
// attempt function called directly.
func BenchmarkDirectCall(b *testing.B) {
	plan := []string{"node1", "node2", "node3"}
	ctx := context.Background()
	attempt := benchRead
	b.ReportAllocs()
	for b.Loop() {
		v, err := attempt(ctx, plan[0], consistency.Quorum)
		if err != nil {
			b.Fatal(err)
		}
		sinkString = v
	}
}
