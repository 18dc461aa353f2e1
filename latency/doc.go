// Package latency measures how long each table's reads take, and turns that
// into the moment a read should hedge: send one extra, speculative request
// to another replica because the first ones are slow.
//
// # Why per table
//
// A point-lookup table answering in 0.5 ms and an analytical table taking
// 40 ms cannot share a threshold: one shared number would either hedge every
// analytical read or never rescue a point lookup. So every table has its own
// Tracker, and the threshold is a percentile of that table's own latency: a
// read hedges when it is slow for its table. A Registry hands out the
// trackers by table name; resolve a table's tracker once and keep it.
//
// # Recording
//
// Every read records its latency, so Tracker.Record is built to cost a few
// nanoseconds on any number of cores: one atomic add to a log-linear bucket
// (64 per power of two, so quantiles are within 0.8 % from 1 µs to
// MaxLatency). It never waits for a lock, never allocates once warmed up and
// starts no goroutine.
//
// # Memory
//
// A cluster has thousands of tables, so a tracker costs what its table
// uses. Counters are allocated per octave (256 bytes for 64 buckets) on the
// first sample in it: a table's reads span a few octaves of the 28. A
// tracker starts with one stripe of counters; Records that run at once on
// different cores and add to the same cache line make it travel between
// them, which costs more than the add, so a tracker whose Records contend
// (found by checking, on every 64th add to a counter, whether the stripe's
// previous such check came from another goroutine) grows more stripes, up
// to twice GOMAXPROCS rounded up to a power of two, and at most 64 (one on
// one core). A tracker that has served a minute of reads spanning eight
// octaves takes 4 to 5 KiB with one stripe and 6 to 7 KiB with two (more
// for counts that need two bytes); each further stripe adds 256 bytes per
// octave.
//
// # Recency
//
// The threshold must follow a table whose latency drifts, so only recent
// samples count: a Tracker looks back one window (DefaultWindow, a minute),
// which slides in thirds. The current third is counted in the stripes; when
// it ends, its counts are packed away, at one, two or four bytes a count, and
// the third that leaves the window is dropped. Queries include the current,
// partial third, so a sample counts from the moment it is recorded, for at
// least two thirds of a window, and stops counting at most one window later:
// a table whose latency jumps shows the new latency within one window. The
// window slides lazily, when a query or Record notices that the clock has
// moved on (Record looks at the clock on about one sample in 128 per
// bucket, as a clock read costs more than the add, and on every sample of a
// third until a bucket has 128, so that a quiet table's samples are placed
// exactly). A sample added before anyone noticed the end of a third counts
// with that third, and so leaves the window early; a Threshold queries its
// tracker at every refresh, which keeps that slack within the refresh
// interval. Take the clock from WithClock, or from a testing/synctest
// bubble.
//
// # Reading
//
// Quantile finds the octave that holds the quantile from per-octave sums,
// then reads that octave's buckets: a few hundred nanoseconds, no
// allocation. Summarize gives what metrics report (count, minimum, maximum,
// mean and any quantiles) in one read of the window, so that one tracker can
// serve a table's threshold and its metrics; Snapshot copies the window's
// non-empty buckets.
//
// # The threshold
//
// A table's SpeculativeRetry policy, in Cassandra's grammar
// (ParseSpeculativeRetry), says how the threshold follows the tracker:
//
//   - 99p (the default) or any <x>p: the x-th percentile of recent latency;
//   - 50ms: a fixed delay, whatever the latency;
//   - MIN(99p,50ms), MAX(99p,50ms): the smaller or larger of the two;
//   - ALWAYS: a threshold of 0, that is send the extra request up front;
//   - NEVER (or NONE): never speculate.
//
// SpeculativeRetry.Compute is the pure rule. A Threshold caches its result
// per table, because a percentile costs a scan of the octave sums while the
// threshold is read by every read: Threshold.Load is one atomic load while
// the cached value is fresh, and the first Load after the refresh interval
// (DefaultRefresh, a second) recomputes it. An empty window keeps the
// previous threshold, since an idle table is no evidence that reads got
// faster or slower. The caller compares the threshold with the read timeout
// and its deadline: a threshold past either cannot help.
//
// A percentile of a handful of samples is their maximum (the 99th
// percentile of 20 reads is the slowest of them), so a table's first
// percentile threshold waits for ⌈2/(1-p)⌉ samples, enough for at least two
// of them to lie above it: 200 for 99p, 2000 for 99.9p. The first Load that
// finds them computes it at once, whatever the refresh interval; until
// then, and before the first refresh finds any sample, the threshold is half
// the read timeout. Cassandra instead waits for its first refresh.
//
//	reg := latency.NewRegistry()
//	users := reg.Tracker("ks.users")
//	th := latency.NewThreshold(policy, users, 5*time.Second)
//
//	start := time.Now()
//	if d, ok := th.Load(start); ok {
//		// hedge if no answer by start+d
//	}
//	users.Record(time.Since(start)) // what the replica took, hedged or not
//
// Record what the replicas actually took, including slow responses that
// lost to a hedge: a threshold that only ever saw the winners would fall
// with every hedge and hedge ever more.
package latency
