package coordinator

import (
	"context"
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/stripe"
	"github.com/readpath/readpath/replica"
)

// gate is a replica whose writes wait for release.
type gate struct {
	replica.Replica // only Apply is called
	release         chan struct{}
}

func (g gate) Apply(ctx context.Context, _ replica.Mutation) error {
	<-g.release
	return nil
}

type nowhere struct{}

func (nowhere) Locate(string, string) ([]replica.Replica, consistency.Replication, error) {
	return nil, consistency.Replication{}, nil
}

// job is a repair write to g that reports on done.
func job(c *Coordinator, g gate, done chan int) *call {
	return &call{c: c, ctx: context.Background(), ch: done, w: newWaker(), cand: candidate{r: g}, mutation: true}
}

// The pool's behaviour is that of each stripe's stack; the test drives one
// stack, since a goroutine's stripe moves when its stack does.
func TestWorkersAreReusedBoundedAndStoppedByClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Coordinator{}
		s := new(idleWorkers)
		g := gate{release: make(chan struct{})}
		done := make(chan int, maxIdlePerStripe+10)

		s.run(job(c, g, done))
		g.release <- struct{}{}
		<-done
		synctest.Wait()
		require.Len(t, s.idle, 1, "the worker waits for the next job")
		first := s.idle[0]

		s.run(job(c, g, done))
		require.Empty(t, s.idle, "the waiting worker took the job")
		g.release <- struct{}{}
		<-done
		synctest.Wait()
		require.Equal(t, []*worker{first}, s.idle, "no second goroutine was started")

		// A burst larger than the bound: the extra workers exit.
		for range maxIdlePerStripe + 10 {
			s.run(job(c, g, done))
		}
		close(g.release)
		for range maxIdlePerStripe + 10 {
			<-done
		}
		synctest.Wait()
		require.Len(t, s.idle, maxIdlePerStripe)

		// Close stops the idle workers (the bubble checks they exit); a job
		// after Close still runs, on a goroutine that then exits.
		s.close()
		require.Empty(t, s.idle)
		s.run(job(c, g, done))
		<-done
		synctest.Wait()
		require.Empty(t, s.idle)
	})
}

func TestClosingTheCoordinatorStopsTheIdleWorkersOfEveryStripe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Coordinator{workers: new(workers)}
		g := gate{release: make(chan struct{})}
		close(g.release)
		done := make(chan int, stripe.N)
		for i := range c.workers.s {
			c.workers.s[i].run(job(c, g, done))
			<-done
		}
		synctest.Wait()
		c.workers.close() // the bubble fails if a worker is left waiting
		for i := range c.workers.s {
			require.Empty(t, c.workers.s[i].idle)
		}
	})
}

func TestAnUnclosedCoordinatorsWorkersExitWhenItIsCollected(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	func() {
		c, err := New(Config{Locator: nowhere{}})
		require.NoError(t, err)
		g := gate{release: make(chan struct{})}
		done := make(chan int, 1)
		c.workers.run(job(c, g, done), 0)
		close(g.release)
		<-done
	}()
	runtime.GC()
	runtime.GC()
}
