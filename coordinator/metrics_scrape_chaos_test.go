package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// An exporter scraping Metrics and TableMetrics while reads run into
// pauses, failures, stale replicas, hedges and repairs, and tables are
// dropped and altered, sees counters that never go backwards but where
// Since tells of a reset (a table dropped and made again since its last
// scrape), and the identities a dashboard relies on at every scrape; and
// once the reads are done, the counts add up.
func TestScrapesDuringChaos(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { scrapeChaos(t, seed) })
		})
	}
}

func scrapeChaos(t *testing.T, seed uint64) {
	tables := []string{"t_blocking", "t_async", "t_none"}
	keys := []string{"k1", "k2", "k3"}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
		Replication: consistency.Simple(5), Seed: seed,
		Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{
			Latency: replicatest.LogNormal(ms(2), 0.5), PauseChance: 0.02, PauseLength: replicatest.Uniform(ms(20), ms(80)),
		})},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		for _, k := range keys {
			if err := cl.Pin(table, k, A, B, C, D, E); err != nil {
				t.Fatal(err)
			}
			if err := cl.Seed(table, row(k, "v0", 1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts := func(i int, spec string) coordinator.TableOptions {
		p, err := latency.ParseSpeculativeRetry(spec)
		if err != nil {
			t.Fatal(err)
		}
		return coordinator.TableOptions{SpeculativeRetry: p, ReadRepair: []repair.Mode{repair.Blocking, repair.Async, repair.None}[i]}
	}
	specs := []string{"3ms", "ALWAYS", "90p", "NEVER", "MIN(90p,5ms)"}
	cfg := coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: ms(100), RepairQueue: 4, RepairWorkers: 2,
		MaxAbandonedPerReplica: 8, Tables: map[string]coordinator.TableOptions{}}
	for i, table := range tables {
		cfg.Tables[table] = opts(i, specs[i])
	}
	c, err := coordinator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &scraper{prev: map[string]map[string]int64{}, since: map[string]time.Time{}}
	dropping := seed%2 == 0 // the other seeds' traces must add up to the totals
	var traced struct {
		sync.Mutex
		want coordinator.TableMetrics
	}
	book := func(level consistency.Level, res coordinator.Result, err error) {
		if res.Trace.Start.IsZero() {
			return // refused: counts nowhere
		}
		traced.Lock()
		defer traced.Unlock()
		expectFromTrace(&traced.want, level, res.Trace, err)
	}
	// A ReadMany key not started counts as a read cancelled, or timed
	// out, before it sent anything.
	bookNotStarted := func(level consistency.Level, err error) {
		traced.Lock()
		defer traced.Unlock()
		if errors.Is(err, context.DeadlineExceeded) {
			err = &consistency.ReadTimeoutError{}
		}
		expectFromTrace(&traced.want, level, coordinator.Trace{}, err)
	}
	var readers, chaos sync.WaitGroup
	done := make(chan struct{})
	for g := range 6 {
		readers.Go(func() {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			levels := []consistency.Level{consistency.One, consistency.Quorum, consistency.All, consistency.Two}
			for range 150 {
				req := coordinator.Request{Table: tables[rng.IntN(len(tables))], Key: keys[rng.IntN(len(keys))],
					Level: levels[rng.IntN(len(levels))]}
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				switch rng.IntN(6) {
				case 0:
					ctx, cancel = context.WithTimeout(ctx, ms(rng.Float64()*30))
				case 1:
					ctx, cancel = context.WithCancel(ctx)
					time.AfterFunc(ms(rng.Float64()*20), cancel)
				}
				if rng.IntN(8) == 0 {
					rs, _ := c.ReadMany(ctx, coordinator.ManyRequest{Table: req.Table, Keys: keys, Level: req.Level})
					for _, r := range rs {
						if r.Err != nil && strings.Contains(r.Err.Error(), "not started") {
							bookNotStarted(req.Level, r.Err)
							continue
						}
						book(req.Level, r.Result, r.Err)
					}
				} else {
					res, err := c.Read(ctx, req)
					book(req.Level, res, err)
				}
				cancel()
				time.Sleep(ms(rng.Float64() * 4))
			}
		})
	}
	chaos.Go(func() { // replicas misbehave, and go stale
		rng := rand.New(rand.NewPCG(seed, 100))
		ids := []string{A, B, C, D, E}
		behaviors := []replicatest.Behavior{
			constant(ms(1)), constant(ms(30)),
			{Latency: replicatest.LogNormal(ms(2), 0.5), PauseChance: 0.2, PauseLength: replicatest.Uniform(ms(20), ms(150))},
			{Fault: replicatest.Down()}, {Fault: replicatest.Unreachable()}, {Fault: replicatest.Panics()},
			{Latency: replicatest.Constant(ms(1)), Fault: replicatest.ErrorAfter(ms(3), nil)},
			{Latency: replicatest.Constant(ms(120)), Fault: replicatest.IgnoresContext()},
			{Latency: replicatest.Constant(ms(400)), Fault: replicatest.IgnoresContext()},
		}
		ts := int64(10)
		for {
			select {
			case <-done:
				return
			case <-time.After(ms(5)):
			}
			id := ids[rng.IntN(len(ids))]
			switch rng.IntN(4) {
			case 0:
				_ = cl.Replica(id).SetBehavior(behaviors[rng.IntN(len(behaviors))])
			case 1:
				_ = cl.SetAlive(id, rng.IntN(4) != 0)
			default:
				ts++
				var on []string
				for _, id := range ids {
					if rng.IntN(2) == 0 {
						on = append(on, id)
					}
				}
				if len(on) > 0 {
					_ = cl.SeedOn(tables[rng.IntN(len(tables))], row(keys[rng.IntN(len(keys))], fmt.Sprint("v", ts), ts), on...)
				}
			}
		}
	})
	chaos.Go(func() { // DROP TABLE and ALTER TABLE
		rng := rand.New(rand.NewPCG(seed, 200))
		for {
			select {
			case <-done:
				return
			case <-time.After(ms(40)):
			}
			i := rng.IntN(len(tables))
			if dropping && rng.IntN(3) == 0 {
				c.DropTable(tables[i])
			} else {
				_ = c.SetTableOptions(tables[i], opts(i, specs[rng.IntN(len(specs))]))
			}
		}
	})
	chaos.Go(func() { // the exporter
		for {
			select {
			case <-done:
				return
			case <-time.After(ms(1)):
			}
			s.scrape(c, tables)
		}
	})
	readers.Wait()
	close(done)
	chaos.Wait()
	time.Sleep(time.Second) // every repair and abandoned request ends
	s.scrape(c, tables)
	m := c.Metrics()
	c.Close()
	s.scrape(c, tables)
	for _, f := range s.failures {
		t.Error(f)
	}
	tot := m.Total
	if tot.RepairsSent != tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned {
		t.Errorf("at rest, repairs sent %d != acked %d + failed %d + dropped %d + abandoned %d", tot.RepairsSent,
			tot.RepairsAcked, tot.RepairsFailed, tot.RepairsDropped, tot.RepairsAbandoned)
	}
	var repairs int64
	for _, rm := range m.Replicas {
		repairs += rm.Repairs
		if rm.Outstanding != 0 || rm.Abandoned != 0 {
			t.Errorf("at rest, replica %s: outstanding %d, abandoned %d", rm.Endpoint.ID, rm.Outstanding, rm.Abandoned)
		}
	}
	if repairs != tot.RepairsSent {
		t.Errorf("at rest, replicas' repairs %d, repairs sent %d", repairs, tot.RepairsSent)
	}
	if errs := tot.Unavailable + tot.Timeouts + tot.Failures + tot.Cancelled + tot.OtherErrors; !dropping &&
		tot.Latency.Count != tot.Reads-errs {
		t.Errorf("at rest, latency count %d, successful reads %d", tot.Latency.Count, tot.Reads-errs)
	}
	for _, tm := range m.Tables {
		errs := tm.Unavailable + tm.Timeouts + tm.Failures + tm.Cancelled + tm.OtherErrors
		if !dropping && tm.Latency.Count != tm.Reads-errs {
			t.Errorf("at rest, %s: latency count %d, successful reads %d", tm.Table, tm.Latency.Count, tm.Reads-errs)
		}
	}
	if !dropping {
		want := map[string]int64{}
		for n, v := range traced.want.Counters() {
			want[n] = v
		}
		for n, v := range tot.Counters() {
			switch n {
			case "repairs_acked", "repairs_failed", "repairs_dropped", "repairs_abandoned", "repairs_timed_out":
				continue // not in the traces
			}
			if want[n] != v {
				t.Errorf("at rest, total %s %d, the reads' traces say %d", n, v, want[n])
			}
		}
	}
	t.Logf("reads %d, hedges %d (won %d), mismatches %d, repairs %d (acked %d, dropped %d, abandoned %d), timeouts %d, failures %d, cancelled %d",
		tot.Reads, tot.SpeculativeRetries, tot.HedgeWins, tot.DigestMismatches, tot.RepairsSent, tot.RepairsAcked,
		tot.RepairsDropped, tot.RepairsAbandoned, tot.Timeouts, tot.Failures, tot.Cancelled)
}
