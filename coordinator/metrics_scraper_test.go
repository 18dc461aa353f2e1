package coordinator_test

import (
	"fmt"
	"sync"
	"time"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
)

// scraper is an exporter's view of Metrics: what it saw last of each
// table's counters, and since when they count, to find one that went
// backwards without a reset.
type scraper struct {
	mu       sync.Mutex
	prev     map[string]map[string]int64 // table ("" the total) -> counter -> value
	since    map[string]time.Time
	failures []string
}

func (s *scraper) failf(format string, args ...any) {
	if len(s.failures) < 20 {
		s.failures = append(s.failures, fmt.Sprintf(format, args...))
	}
}

// identities checks what a dashboard may rely on within one scrape.
func (s *scraper) identities(where string, tm coordinator.TableMetrics) {
	var byLevel int64
	for _, n := range tm.ReadsByLevel {
		byLevel += n
	}
	if byLevel != tm.Reads {
		s.failf("%s %q: reads %d, by level %d", where, tm.Table, tm.Reads, byLevel)
	}
	if errs := tm.Unavailable + tm.Timeouts + tm.Failures + tm.Cancelled + tm.OtherErrors; errs > tm.Reads {
		s.failf("%s %q: %d errors of %d reads", where, tm.Table, errs, tm.Reads)
	}
	if ended := tm.HedgeWins + tm.FailedSpeculations; ended > tm.SpeculativeRetries {
		s.failf("%s %q: hedge wins %d + failed %d > speculative retries %d", where, tm.Table,
			tm.HedgeWins, tm.FailedSpeculations, tm.SpeculativeRetries)
	}
	if ended := tm.RepairsAcked + tm.RepairsFailed + tm.RepairsDropped + tm.RepairsAbandoned; ended > tm.RepairsSent {
		s.failf("%s %q: repairs acked %d + failed %d + dropped %d + abandoned %d > sent %d", where, tm.Table,
			tm.RepairsAcked, tm.RepairsFailed, tm.RepairsDropped, tm.RepairsAbandoned, tm.RepairsSent)
	}
	if tm.RepairsTimedOut > tm.RepairsSent {
		s.failf("%s %q: repairs timed out %d > sent %d", where, tm.Table, tm.RepairsTimedOut, tm.RepairsSent)
	}
	l := tm.Latency
	if l.Count < 0 || l.P50 > l.P99 || l.P99 > l.P999 || l.P999 > l.Max || l.Mean > l.Max || l.Count == 0 && l.Max != 0 ||
		l.Count > 0 && (l.P50 <= 0 || l.Mean <= 0) {
		s.failf("%s %q: latency %+v", where, tm.Table, l)
	}
	if l.Max > latency.MaxLatency {
		s.failf("%s %q: latency max %v", where, tm.Table, l.Max)
	}
}

// monotonic checks tm's counters against the last scrape of its table,
// unless its Since says they were reset since, as an exporter would.
func (s *scraper) monotonic(where string, tm coordinator.TableMetrics) {
	cur := map[string]int64{}
	for n, v := range tm.Counters() {
		cur[n] = v
	}
	for l, v := range tm.ReadsByLevel {
		cur["reads_at_"+l.String()] = v
	}
	switch since, ok := s.since[tm.Table]; {
	case ok && tm.Since.Before(since):
		s.failf("%s %q: Since went back from %v to %v", where, tm.Table, since, tm.Since)
	case ok && tm.Since.Equal(since):
		for n, v := range s.prev[tm.Table] {
			if cur[n] < v {
				s.failf("%s %q: %s went from %d to %d, Since %v", where, tm.Table, n, v, cur[n], since)
			}
		}
	}
	s.prev[tm.Table], s.since[tm.Table] = cur, tm.Since
}

// scrape takes Metrics and each table's TableMetrics, as an exporter
// would, and checks them.
func (s *scraper) scrape(c *coordinator.Coordinator, tables []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := c.Metrics()
	s.identities("Metrics", m.Total)
	s.monotonic("Metrics", m.Total)
	for _, tm := range m.Tables {
		s.identities("Metrics", tm)
		s.monotonic("Metrics", tm)
		for n, v := range tm.Counters() {
			for tn, tv := range m.Total.Counters() {
				if tn == n && tv < v {
					s.failf("Metrics: total %s %d < table %q's %d", n, tv, tm.Table, v)
				}
			}
		}
	}
	var repairs int64
	for _, rm := range m.Replicas {
		repairs += rm.Repairs
		if rm.Misses > rm.Requests || rm.Timeouts+rm.Failures > rm.Misses || rm.Outstanding < 0 || rm.Outstanding > rm.Requests || rm.Abandoned < 0 ||
			rm.Latency < 0 {
			s.failf("Metrics: replica %+v", rm)
		}
	}
	if repairs < m.Total.RepairsSent { // the replicas' rows are taken after the tables'
		s.failf("Metrics: replicas' repairs %d < repairs sent %d", repairs, m.Total.RepairsSent)
	}
	for _, name := range tables {
		if tm, ok := c.TableMetrics(name); ok {
			s.identities("TableMetrics", tm)
			s.monotonic("TableMetrics", tm)
		}
	}
}
