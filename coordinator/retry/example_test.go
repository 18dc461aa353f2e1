package retry_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

func ExampleExecute() {
	budget, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.1, MinPerSecond: 1})
	if err != nil {
		panic(err)
	}
	ex, err := retry.NewExecutor(retry.Config{Budget: budget})
	if err != nil {
		panic(err)
	}
	// The first coordinator sees too few replicas alive; DefaultPolicy
	// tries the next one.
	read := func(_ context.Context, coordinator string, l consistency.Level) (string, error) {
		if coordinator == "node1" {
			return "", &consistency.UnavailableError{Level: l, Required: 2, Alive: 1}
		}
		return "alice@" + coordinator, nil
	}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
	plan := []string{"node1", "node2"}
	res, err := retry.Execute(context.Background(), ex, s, plan, read)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Value, "at", res.Level)
	for _, a := range res.Attempts.All() {
		if a.Err != nil {
			fmt.Printf("%s at %s: %s, %s\n", plan[a.Target], a.Level, a.Cause, a.Verdict)
		} else {
			fmt.Printf("%s at %s: ok\n", plan[a.Target], a.Level)
		}
	}
	fmt.Println(ex.Metrics())
	// Output:
	// alice@node2 at QUORUM
	// node1 at QUORUM: UNAVAILABLE, RETRY_NEXT at QUORUM
	// node2 at QUORUM: ok
	// executions=1 retries=1 (UNAVAILABLE=1) retry_successes=1 ignores=0 exhausted=0 speculative=0 budget_refusals=0 downgrades=0
}

// Counter updates must never be retried after a write timeout: the
// increment may already be applied.
func ExampleStatement_counter() {
	var ex retry.Executor
	increment := func(context.Context, string, consistency.Level) (struct{}, error) {
		return struct{}{}, &consistency.WriteTimeoutError{Level: consistency.Quorum,
			WriteType: consistency.WriteCounter, BlockFor: 2, Received: 1}
	}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.NotIdempotent,
		Policy: retry.FallthroughPolicy{}}
	_, err := retry.Execute(context.Background(), &ex, s, []string{"node1", "node2"}, increment)
	fmt.Println(errors.Is(err, retry.ErrNotIdempotent))
	var wt *consistency.WriteTimeoutError
	fmt.Println(errors.As(err, &wt), wt.WriteType)
	// Output:
	// true
	// true COUNTER
}

func ExampleNewLadderPolicy() {
	_, err := retry.NewLadderPolicy(consistency.Quorum, consistency.Three)
	fmt.Println(err)
	ladder, err := retry.NewLadderPolicy(consistency.Quorum, consistency.Two, consistency.One)
	fmt.Println(ladder.Levels, err)
	// Output:
	// retry: invalid ladder: rung 1 (THREE): not strictly weaker than QUORUM
	// [QUORUM TWO ONE] <nil>
}

func ExampleBudget() {
	b, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.1, Window: 10 * time.Second, MinPerSecond: 1})
	if err != nil {
		panic(err)
	}
	now := time.Unix(1_700_000_000, 0)
	for range 500 {
		b.Deposit(now) // one per request
	}
	granted := 0
	for range 1000 { // a retry storm
		if b.TryWithdraw(now) {
			granted++
		}
	}
	fmt.Println(granted) // 10% of 500, plus 1 a second over 10 s
	// Output: 60
}

func ExampleExponentialBackoff_Ceiling() {
	b := retry.ExponentialBackoff{Base: 10 * time.Millisecond, Cap: time.Second}
	var ceilings []string
	for n := range 9 {
		ceilings = append(ceilings, b.Ceiling(n).String())
	}
	// Each wait is drawn from [0, ceiling).
	fmt.Println(strings.Join(ceilings, " "))
	// Output: 10ms 20ms 40ms 80ms 160ms 320ms 640ms 1s 1s
}

// OnRetry hears of each retry before its backoff; a seeded source makes the
// jittered waits repeat.
func ExampleConfig_onRetry() {
	backoff := retry.ExponentialBackoff{Base: 2 * time.Millisecond, Rand: rand.NewPCG(1, 2)}
	ex, err := retry.NewExecutor(retry.Config{
		ExponentialBackoff: backoff,
		OnRetry: func(ev retry.RetryEvent) {
			fmt.Printf("retry %d to target %d at %s after %v (of up to %v): %v\n",
				ev.Retry, ev.Target, ev.Level, ev.Delay, backoff.Ceiling(ev.Retry-1), ev.Err)
		},
	})
	if err != nil {
		panic(err)
	}
	read := func(_ context.Context, coordinator string, _ consistency.Level) (string, error) {
		if coordinator != "node3" {
			return "", retry.ErrOverloaded
		}
		return "alice@" + coordinator, nil
	}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
	res, err := retry.Execute(context.Background(), ex, s, []string{"node1", "node2", "node3"}, read)
	fmt.Println(res.Value, err)
	// Output:
	// retry 1 to target 1 at QUORUM after 1.538746ms (of up to 2ms): retry: coordinator overloaded
	// retry 2 to target 2 at QUORUM after 2.465744ms (of up to 4ms): retry: coordinator overloaded
	// alice@node3 <nil>
}

// Two speculative attempts, 1ms apart, while the first coordinators hang.
func ExampleConfig_speculativeExecutions() {
	ex, err := retry.NewExecutor(retry.Config{Speculation: retry.FixedDelay(time.Millisecond), SpeculativeExecutions: 2})
	if err != nil {
		panic(err)
	}
	read := func(ctx context.Context, coordinator string, _ consistency.Level) (string, error) {
		if coordinator != "node3" {
			<-ctx.Done() // cancelled once node3 has answered
			return "", ctx.Err()
		}
		return "alice@" + coordinator, nil
	}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
	res, err := retry.Execute(context.Background(), ex, s, []string{"node1", "node2", "node3"}, read)
	fmt.Println(res.Value, err, res.Attempts.At(0).Speculative)
	fmt.Println(ex.Metrics().SpeculativeAttempts)
	// Output:
	// alice@node3 <nil> true
	// 2
}

// A failed statement says at which level it last failed.
func ExampleExecutionError() {
	ladder, err := retry.NewLadderPolicy(consistency.One)
	if err != nil {
		panic(err)
	}
	ex, err := retry.NewExecutor(retry.Config{Policy: ladder})
	if err != nil {
		panic(err)
	}
	write := func(_ context.Context, _ string, l consistency.Level) (struct{}, error) {
		return struct{}{}, &consistency.UnavailableError{Level: l, Required: 2, Alive: 1}
	}
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.NotIdempotent}
	_, err = retry.Execute(context.Background(), ex, s, []string{"node1"}, write)
	var ee *retry.ExecutionError
	if errors.As(err, &ee) {
		fmt.Println(ee.Reason)
		fmt.Println("asked for", ee.Requested, "last failed at", ee.Level, "after", ee.Attempts.Len(), "attempts")
	}
	// Output:
	// retry: rethrown by the retry policy
	// asked for QUORUM last failed at ONE after 2 attempts
}
