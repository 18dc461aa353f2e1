package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// applyLog records every Apply to a wrapped replica.
type applyCall struct {
	async      bool // an ASYNC queue's write (its deadline a read timeout on)
	start, end time.Time
	ended      bool
	timedOut   bool // returned with its context past its deadline
}

type applyLog struct {
	mu    sync.Mutex
	calls []*applyCall
	rnd   *rand.Rand
	kinds []string
	// release ends the hangs.
	release chan struct{}
}

// mixedApply never applies (so keys stay stale), and per call: answers
// at once, stalls heeding its context, fails at once, answers after d
// ignoring its context, or hangs until release.
type mixedApply struct {
	replica.Replica
	log *applyLog
}

func (m mixedApply) Apply(ctx context.Context, _ replica.Mutation) error {
	l := m.log
	l.mu.Lock()
	c := &applyCall{start: time.Now()}
	dl, _ := ctx.Deadline()
	c.async = dl.Equal(c.start.Add(100 * time.Millisecond))
	l.calls = append(l.calls, c)
	kind := l.kinds[l.rnd.IntN(len(l.kinds))]
	l.mu.Unlock()
	var err error
	switch kind {
	case "fast":
	case "slowok": // in time
		t := time.NewTimer(ms(37))
		select {
		case <-t.C:
		case <-ctx.Done():
			err = ctx.Err()
		}
	case "stall":
		<-ctx.Done()
		err = ctx.Err()
	case "fail":
		err = errors.New("overloaded")
	case "late": // ignores its context, answers within the grace
		time.Sleep(ms(153))
	case "hang":
		<-l.release
	}
	l.mu.Lock()
	c.end, c.ended = time.Now(), true
	c.timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	l.mu.Unlock()
	return err
}

// A randomized check of the ASYNC queue's timing-out state against an
// oracle computed from B's calls: no write to B starts within a read
// timeout of the last one's timing out, or while one runs after it, and
// no repair is dropped as timing out otherwise; the counters add up and
// every repair not abandoned has one event.
func TestAsyncRepairTimingOutMatchesAnOracle(t *testing.T) {
	const rt = 100 * time.Millisecond
	for seed := range uint64(600) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rnd := rand.New(rand.NewPCG(seed, 7))
				kindsets := [][]string{
					{"fast", "stall"},
					{"fast", "stall", "fail"},
					{"slowok", "stall", "late"},
					{"fast", "stall", "late", "fail", "slowok"},
					{"fast", "stall", "hang"},
				}
				log := &applyLog{rnd: rand.New(rand.NewPCG(seed, 9)), kinds: kindsets[rnd.IntN(len(kindsets))], release: make(chan struct{})}
				e := newEnv(t, coordinator.Config{})
				keys := []string{}
				for i := range 12 {
					k := fmt.Sprint("x", i)
					keys = append(keys, k)
					require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
					require.NoError(t, e.cluster.Seed(tbl, row(k, "v1", 10)))
					require.NoError(t, e.cluster.SeedOn(tbl, row(k, "v2", 20), A, C))
				}
				var (
					evMu   sync.Mutex
					events []coordinator.RepairEvent
					evAt   []time.Time
				)
				workers := 1 + rnd.IntN(4)
				cfg := coordinator.Config{
					Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return mixedApply{r, log} }),
					Liveness: e.cluster, ReadTimeout: rt, RepairWorkers: workers,
					RepairQueue:  1 + rnd.IntN(40),
					DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
					Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
						evMu.Lock()
						events = append(events, ev)
						evAt = append(evAt, time.Now())
						evMu.Unlock()
					}},
				}
				level := consistency.All
				if rnd.IntN(2) == 0 {
					cfg.DefaultTable.ReadRepair = repair.Blocking
					level = consistency.Quorum
				}
				cfg.MaxAbandonedPerReplica = []int{0, 1, 2, -1}[rnd.IntN(4)]
				c, err := coordinator.New(cfg)
				require.NoError(t, err)
				var forgets []time.Time
				steps := 40 + rnd.IntN(80)
				var wg sync.WaitGroup
				for range steps {
					k := keys[rnd.IntN(len(keys))]
					wg.Go(func() {
						c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: level})
					})
					if rnd.IntN(30) == 0 {
						c.ForgetReplica(B)
						forgets = append(forgets, time.Now())
					}
					time.Sleep(time.Duration(rnd.IntN(60)) * time.Millisecond)
				}
				time.Sleep(time.Duration(rnd.IntN(300)) * time.Millisecond)
				c.Close()
				wg.Wait()
				close(log.release)
				synctest.Wait()
				time.Sleep(time.Second)
				synctest.Wait()

				m := c.Metrics().Total
				t.Logf("kinds %v workers %d calls %d metrics sent %d acked %d failed %d dropped %d abandoned %d", log.kinds, workers, len(log.calls), m.RepairsSent, m.RepairsAcked, m.RepairsFailed, m.RepairsDropped, m.RepairsAbandoned)
				require.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%+v", m)

				// The oracle.
				log.mu.Lock()
				defer log.mu.Unlock()
				var calls []*applyCall
				for _, c := range log.calls {
					if c.async {
						calls = append(calls, c)
					}
				}
				if len(calls) == 0 {
					return
				}
				// state at instant s, from the calls to B: returns
				// (timingOut, ambiguous).
				state := func(s time.Time) (bool, bool) {
					var last, forgot time.Time
					for _, f := range forgets {
						if f.Equal(s) {
							return false, true
						}
						if f.Before(s) {
							forgot = f
						}
					}
					lastTO, lastOK, running := false, false, false
					for _, c := range calls {
						if !c.start.After(forgot) {
							if !forgot.IsZero() && c.start.Equal(forgot) {
								return false, true
							}
							continue
						}
						if c.start.Add(2 * rt).Equal(s) {
							return false, true // its abandonment, at the same instant
						}
						if !c.ended {
							if c.start.Before(s) && s.Sub(c.start) < 2*rt {
								running = true
							}
							continue
						}
						if c.end.Sub(c.start) >= 2*rt { // abandoned: the hung set's
							if c.start.Before(s) && s.Sub(c.start) < 2*rt {
								running = true
							}
							continue
						}
						if c.end.Equal(s) || c.start.Equal(s) {
							return false, true
						}
						if c.start.Before(s) && c.end.After(s) {
							running = true
						}
						if c.end.Before(s) {
							switch {
							case c.end.After(last):
								last, lastTO, lastOK = c.end, c.timedOut, !c.timedOut
							case c.end.Equal(last):
								if c.timedOut {
									lastTO = true
								} else {
									lastOK = true
								}
							}
						}
					}
					if lastTO && lastOK {
						return false, true
					}
					return lastTO && (running || s.Sub(last) < rt), false
				}
				for i, c := range calls {
					if on, amb := state(c.start); on && !amb {
						t.Errorf("seed %d kinds %v workers %d: call %d to B started at %v while B timing out", seed, log.kinds, workers, i, c.start)
					}
				}
				evMu.Lock()
				defer evMu.Unlock()
				if testing.Verbose() {
					for i, c := range calls {
						t.Logf("call %d: %v..%v ended %v timedOut %v", i, c.start.Sub(calls[0].start.Truncate(time.Second)), c.end.Sub(calls[0].start.Truncate(time.Second)), c.ended, c.timedOut)
					}
					for i, ev := range events {
						if ev.To.ID == B {
							t.Logf("event %d at %v: dropped %v err %v", i, evAt[i].Sub(calls[0].start.Truncate(time.Second)), ev.Dropped, ev.Err)
						}
					}
				}
				var te *coordinator.RepairTimingOutError
				for i, ev := range events {
					if ev.To.ID != B || !errors.As(ev.Err, &te) {
						continue
					}
					if on, amb := state(evAt[i]); !on && !amb {
						t.Errorf("seed %d kinds %v workers %d: repair %d dropped as timing out at %v, B not timing out: %v", seed, log.kinds, workers, i, evAt[i], ev.Err)
					}
				}
				require.Equal(t, int(m.RepairsAcked+m.RepairsFailed+m.RepairsDropped), len(events), "%+v", m)
			})
		})
	}
}
