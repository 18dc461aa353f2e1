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
	return &call{c: c, ctx: context.Background(), ch: done, cand: candidate{r: g}, mutation: true}
}

// dispatcher hands jobs to p from one goroutine whose small stack does not
// move, so that they all come from one stripe, as a read's do.
func dispatcher(p *workers) (run func(*call), stop func()) {
	jobs, ran := make(chan *call), make(chan struct{})
	go func() {
		for k := range jobs {
			p.run(k)
			ran <- struct{}{}
		}
	}()
	return func(k *call) { jobs <- k; <-ran }, func() { close(jobs) }
}

// idleList lists the idle workers of every stripe.
func idleList(p *workers) []*worker {
	var ws []*worker
	for i := range p.s {
		ws = append(ws, p.s[i].idle...)
	}
	return ws
}

func TestWorkersAreReusedBoundedAndStoppedByClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Coordinator{workers: new(workers)}
		g := gate{release: make(chan struct{})}
		perStripe := maxIdleWorkers / stripe.N
		done := make(chan int, perStripe+10)
		run, stop := dispatcher(c.workers)
		defer stop()

		run(job(c, g, done))
		g.release <- struct{}{}
		<-done
		synctest.Wait()
		require.Len(t, idleList(c.workers), 1, "the worker waits for the next job")
		first := idleList(c.workers)[0]

		run(job(c, g, done))
		require.Empty(t, idleList(c.workers), "the waiting worker took the job")
		g.release <- struct{}{}
		<-done
		synctest.Wait()
		require.Equal(t, []*worker{first}, idleList(c.workers), "no second goroutine was started")

		// A burst larger than the stripe's bound: the extra workers exit.
		for range perStripe + 10 {
			run(job(c, g, done))
		}
		close(g.release)
		for range perStripe + 10 {
			<-done
		}
		synctest.Wait()
		require.Equal(t, perStripe, len(idleList(c.workers)))

		// Close stops the idle workers (the bubble checks they exit); a job
		// after Close still runs, on a goroutine that then exits.
		c.workers.close()
		require.Empty(t, idleList(c.workers))
		run(job(c, g, done))
		<-done
		synctest.Wait()
		require.Empty(t, idleList(c.workers))
	})
}

func TestAnUnclosedCoordinatorsWorkersExitWhenItIsCollected(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	func() {
		c, err := New(Config{Locator: nowhere{}})
		require.NoError(t, err)
		g := gate{release: make(chan struct{})}
		done := make(chan int, 1)
		c.workers.run(job(c, g, done))
		close(g.release)
		<-done
	}()
	runtime.GC()
	runtime.GC()
}
