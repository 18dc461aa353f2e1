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
// nanoseconds on any number of cores: one atomic add into a log-linear
// bucket (64 per power of two, so quantiles are within 0.8 % from 1 µs to
// MaxLatency), into one of eight stripes so that cores do not fight over a
// cache line. It never locks, never allocates and starts no goroutine. A
// tracker takes about 99 KiB: eight stripes and six sub-window marks of 1794
// four-byte counters.
//
// # Recency
//
// The threshold must follow a table whose latency drifts, so only recent
// samples count: a Tracker looks back one window (DefaultWindow, a minute),
// which slides in sixths. Queries always include the current, partial
// sixth, so a sample counts from the moment it is recorded, and it stops
// counting at most one window later: a table whose latency jumps shows the
// new latency within one window. The window slides lazily, when a query or
// Record notices that the clock has moved on (Record looks at the clock on
// about one sample in 128 per bucket, as a clock read costs more than the
// add). A sample added before anyone noticed the end of a sub-window counts
// with that sub-window, and so leaves the window early; a Threshold queries
// its tracker at every refresh, which keeps that slack within the refresh
// interval. Take the clock from WithClock, or from a testing/synctest bubble.
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
// per table, because a percentile costs a scan of the buckets while the
// threshold is read by every read: Threshold.Load is one atomic load while
// the cached value is fresh, and the first Load after the refresh interval
// (DefaultRefresh, a second) recomputes it. Before the table's first sample
// the threshold is half the read timeout; a window with no samples keeps the
// previous threshold, since an idle table is no evidence that reads got
// faster or slower. The caller compares the threshold with the read timeout
// and its deadline: a threshold past either cannot help.
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
