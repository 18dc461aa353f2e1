package readpath_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

func newBenchBudget(b *testing.B) *retry.Budget {
	budget, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.1, MinPerSecond: 1})
	if err != nil {
		b.Fatal(err)
	}
	return budget
}

// BenchmarkBudgetDeposit is on every read's path (one request counted): it
// must take a few ns and not allocate.
func BenchmarkBudgetDeposit(b *testing.B) {
	budget := newBenchBudget(b)
	now := time.Unix(1_700_000_000, 0)
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Microsecond)
		budget.Deposit(now)
	}
}

// BenchmarkBudgetDepositParallel is Deposit from every core at once: all
// goroutines hit the same slot, as concurrent reads do.
func BenchmarkBudgetDepositParallel(b *testing.B) {
	depositParallel(b, newBenchBudget(b).Deposit)
}

// depositParallel calls deposit from every core, each with its own clock.
func depositParallel(b *testing.B, deposit func(time.Time)) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		now := time.Unix(1_700_000_000, 0)
		for pb.Next() {
			now = now.Add(time.Microsecond)
			deposit(now)
		}
	})
}

// mutexBudget is the reference for Deposit: the obvious sliding window of
// counters behind a mutex.
type mutexBudget struct {
	mu     sync.Mutex
	epochs [10]int64
	counts [10]int64
}

func (m *mutexBudget) deposit(now time.Time) {
	e := now.UnixNano() / int64(time.Second)
	m.mu.Lock()
	i := e % 10
	if m.epochs[i] != e {
		m.epochs[i], m.counts[i] = e, 0
	}
	m.counts[i]++
	m.mu.Unlock()
}

// BenchmarkBudgetDepositMutexReference is the reference for
// BenchmarkBudgetDepositParallel.
func BenchmarkBudgetDepositMutexReference(b *testing.B) {
	var ref mutexBudget
	depositParallel(b, ref.deposit)
}

var sinkString string

func benchRead(_ context.Context, target string, _ consistency.Level) (string, error) {
	return target, nil
}

// BenchmarkExecuteNoFailure is the executor's overhead on an attempt that
// succeeds at once, beside BenchmarkDirectCall: bare, and with a budget (one
// clock read and one Deposit per statement).
func BenchmarkExecuteNoFailure(b *testing.B) {
	plan := []string{"node1", "node2", "node3"}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		cfg  retry.Config
	}{{"bare", retry.Config{}}, {"budget", retry.Config{Budget: newBenchBudget(b)}}} {
		b.Run(bc.name, func(b *testing.B) {
			ex, err := retry.NewExecutor(bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := retry.Execute(ctx, ex, s, plan, benchRead)
				if err != nil {
					b.Fatal(err)
				}
				sinkString = res.Value
			}
		})
	}
}

// BenchmarkDirectCall is the reference for BenchmarkExecuteNoFailure: the
// attempt function called directly.
func BenchmarkDirectCall(b *testing.B) {
	plan := []string{"node1", "node2", "node3"}
	ctx := context.Background()
	attempt := benchRead
	b.ReportAllocs()
	for b.Loop() {
		v, err := attempt(ctx, plan[0], consistency.Quorum)
		if err != nil {
			b.Fatal(err)
		}
		sinkString = v
	}
}
