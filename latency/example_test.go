package latency_test

import (
	"fmt"
	"time"

	"github.com/readpath/readpath/latency"
)

func ExampleParseSpeculativeRetry() {
	for _, s := range []string{"99PERCENTILE", "99.950p", "50.7ms", "min(50ms, 99p)", "none", "100p"} {
		p, err := latency.ParseSpeculativeRetry(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-16q %-14v %v\n", s, p, p.Kind())
	}
	// Output:
	// "99PERCENTILE"   99p            PERCENTILE
	// "99.950p"        99.95p         PERCENTILE
	// "50.7ms"         50ms           FIXED
	// "min(50ms, 99p)" MIN(99p,50ms)  MIN
	// "none"           NEVER          NEVER
	// latency: invalid speculative retry policy "100p": the percentile is not above 0 and below 100
}

func ExampleTracker() {
	tr := latency.NewTracker() // looks back one minute
	for ms := range 10_000 {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	fmt.Println("p50:", tr.Quantile(0.5).Round(100*time.Millisecond))
	fmt.Println("p99:", tr.Quantile(0.99).Round(100*time.Millisecond))
	s := tr.Snapshot()
	fmt.Println("count:", s.Count, "max:", s.Max.Round(100*time.Millisecond))
	// Output:
	// p50: 5s
	// p99: 9.9s
	// count: 10000 max: 10s
}

func ExampleThreshold() {
	users := latency.NewRegistry().Tracker("ks.users")
	th := latency.NewThreshold(latency.SpeculativeRetry{}, users, 5*time.Second) // 99p, refreshed every second

	now := time.Now()
	d, _ := th.Load(now)
	fmt.Println("before any read:", d)

	for range 199 {
		users.Record(12 * time.Millisecond)
	}
	d, _ = th.Load(now)
	fmt.Println("after 199 reads:", d)
	users.Record(12 * time.Millisecond) // enough for a 99th percentile
	d, _ = th.Load(now)
	fmt.Println("after 200 reads:", d.Round(100*time.Microsecond))

	for range 1000 {
		users.Record(30 * time.Millisecond)
	}
	d, _ = th.Load(now)
	fmt.Println("slower reads, cached:", d.Round(100*time.Microsecond))
	d, _ = th.Load(now.Add(time.Second))
	fmt.Println("a second later:", d.Round(100*time.Microsecond))
	// Output:
	// before any read: 2.5s
	// after 199 reads: 2.5s
	// after 200 reads: 12ms
	// slower reads, cached: 12ms
	// a second later: 30ms
}

func ExampleSpeculativeRetry_Compute() {
	tr := latency.NewTracker()
	for ms := 1; ms <= 100; ms++ {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	snap := tr.Snapshot()
	for _, s := range []string{"99p", "MIN(99p,20ms)", "ALWAYS", "NEVER"} {
		p, _ := latency.ParseSpeculativeRetry(s)
		d, speculate := p.Compute(snap, time.Second)
		fmt.Println(p, d.Round(time.Millisecond), speculate)
	}
	// Output:
	// 99p 99ms true
	// MIN(99p,20ms) 20ms true
	// ALWAYS 0s true
	// NEVER 0s false
}
