package ring_test

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/ring"
)

// Cassandra's FailureDetector.ArrivalWindow.add (apache/cassandra
// src/java/org/apache/cassandra/gms/FailureDetector.java) records no
// interval above MAX_INTERVAL_IN_NANO, fd_max_interval_ms, which defaults
// to the initial interval: "in the event of a long partition ... we'd
// rather mark it down quickly instead of adapting". A node beating every
// second (t = 0..9 s), then cut off for 60 s, then beating again (69..73 s)
// is convicted after the partition as quickly as before it: its mean is
// that of the 2 s initial interval and thirteen of 1 s. Were the 60 s gap
// learnt (a MaxInterval above it), the mean would be 5 s and the next
// conviction would take 92 s of silence.
func TestCassandraLongPartitionIsNotLearnt(t *testing.T) {
	for _, tc := range []struct {
		name        string
		max         time.Duration // 0: the default, InitialInterval
		learnt      []time.Duration
		convictions [2]time.Duration
	}{
		// 9 + 8 ln 10 · 1.1 s = 29.3 s; 73 + 8 ln 10 · 15/14 s = 92.7 s.
		{"default", 0, nil, [2]time.Duration{30 * time.Second, 93 * time.Second}},
		// 73 + 8 ln 10 · 5 s = 165.1 s.
		{"gap learnt", 61 * time.Second, []time.Duration{60 * time.Second}, [2]time.Duration{30 * time.Second, 166 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d, rec := newDetector(t, ring.DetectorConfig{MaxInterval: tc.max})
				defer d.Close()
				start := time.Now()
				beat := func(from, to int) {
					for s := from; s <= to; s++ {
						time.Sleep(time.Until(start.Add(time.Duration(s) * time.Second)))
						d.Heartbeat("a", time.Now())
					}
				}
				beat(0, 9)
				beat(69, 73)
				time.Sleep(time.Until(start.Add(200 * time.Second)))
				// The expected conviction, from Cassandra's rule: the mean of
				// the intervals recorded, the 60 s gap only if learnt.
				sum, n := 2*time.Second+13*time.Second, 14
				for _, g := range tc.learnt {
					sum, n = sum+g, n+1
				}
				bound := time.Duration(8 * math.Ln10 * float64(sum) / float64(n))
				if want := (73*time.Second + bound).Truncate(time.Second) + time.Second; want != tc.convictions[1] {
					t.Fatalf("table: second conviction at %v, Cassandra's rule gives %v", tc.convictions[1], want)
				}
				wantChanges(t, rec,
					change("a", false, ring.HeartbeatsStopped, start.Add(tc.convictions[0])),
					change("a", true, ring.HeartbeatsResumed, start.Add(69*time.Second)),
					change("a", false, ring.HeartbeatsStopped, start.Add(tc.convictions[1])))
			})
		})
	}
}
