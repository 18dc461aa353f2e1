package coordinator_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Reads, ReadMany pages, Release, DropTable, ForgetReplica,
// SetTableOptions and Metrics all at once under chaos, with Close in the
// middle: nothing panics or wedges, totals never go backwards, and once
// everything has ended the repairs balance.
func TestLifecycleChaos(t *testing.T) {
	for seed := range uint64(4) {
		synctest.Test(t, func(t *testing.T) {
			const timeout = 50 * time.Millisecond
			cl := chaosCluster(t, seed)
			w := &writes{cells: map[string]bool{}}
			keys := []string{key, "k2", "k3"}
			for _, table := range chaosTables {
				for _, k := range keys {
					require.NoError(t, cl.Pin(table, k, twoDCs...))
					require.NoError(t, cl.Seed(table, replica.NewPartition(k,
						replica.NewRow("r1", replica.Live("v", "v1", 10)),
						replica.NewRow("r2", replica.Live("v", "v1", 10)),
						replica.NewRow("r3", replica.Live("v", "v1", 10)))))
				}
			}
			w.add(replica.Live("v", "v1", 10))
			c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: timeout,
				MaxInFlight: 80, LocalDatacenter: "dc1", RepairWorkers: 2, RepairQueue: 8, ReuseRepairWrites: true})
			require.NoError(t, err)

			stop, done := make(chan struct{}), make(chan struct{})
			go func() { defer close(done); chaos(t, cl, w, rand.New(rand.NewPCG(seed, 4)), stop) }()
			levels := []consistency.Level{consistency.One, consistency.Quorum, consistency.All,
				consistency.LocalQuorum, consistency.EachQuorum}
			var wg sync.WaitGroup
			var closed atomic.Bool
			for g := range 40 {
				level, table := levels[g%len(levels)], chaosTables[g%len(chaosTables)]
				pace := ms(float64(3 + g%11))
				wg.Go(func() {
					for i := range 40 {
						time.Sleep(pace)
						if g%3 == 0 {
							res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: table,
								Keys: keys, Level: level, PageSize: 2, Concurrency: 2})
							if err != nil {
								assert.True(t, closed.Load() && err == coordinator.ErrClosed, "%v", err)
								continue
							}
							for i := range res {
								if res[i].Err == nil {
									checkProvenance(t, w, res[i].Result.Partition)
								}
								res[i].Result.Release()
							}
							continue
						}
						q := replica.Query{}
						if i%2 == 0 {
							q.Limit = 2
						}
						res, err := c.Read(context.Background(), coordinator.Request{Table: table, Key: keys[i%3], Level: level, Query: q})
						if err == nil {
							checkProvenance(t, w, res.Partition)
						} else if closed.Load() && err == coordinator.ErrClosed {
							continue
						}
						res.Release()
					}
				})
			}
			rng := rand.New(rand.NewPCG(seed, 9))
			var last map[string]int64
			policies := []string{"NEVER", "ALWAYS", "5ms", "90p"}
			for i := range 150 {
				time.Sleep(ms(2))
				table := chaosTables[rng.IntN(len(chaosTables))]
				switch rng.IntN(6) {
				case 0:
					c.DropTable(table)
				case 1:
					c.ForgetReplica(twoDCs[rng.IntN(len(twoDCs))])
				case 2, 3:
					o := policy(t, policies[rng.IntN(len(policies))])
					o.ReadRepair = repair.Mode(rng.IntN(3))
					o.Strategy = coordinator.Strategy(rng.IntN(2))
					require.NoError(t, c.SetTableOptions(table, o))
				default:
					m := c.Metrics()
					now := counterValues(m.Total)
					for name, n := range last {
						assert.GreaterOrEqual(t, now[name], n, "total %s went backwards", name)
					}
					last = now
					for _, tm := range m.Tables {
						c.TableMetrics(tm.Table)
					}
				}
				if i == 120 {
					closed.Store(true)
					require.NoError(t, c.Close())
				}
			}
			wg.Wait()
			close(stop)
			<-done
			ended, cancel := context.WithCancel(context.Background())
			cancel()
			assert.NoError(t, c.DrainRepairs(ended), "Close left a repair pending")
			time.Sleep(time.Second)
			synctest.Wait()
			tot := c.Metrics().Total
			assert.Equal(t, tot.RepairsSent, tot.RepairsAcked+tot.RepairsFailed+tot.RepairsDropped+tot.RepairsAbandoned,
				"repairs do not balance:\n%v", c.Metrics())
			assert.Positive(t, tot.RepairsSent)
			t.Logf("%v", c.Metrics())
		})
	}
}
