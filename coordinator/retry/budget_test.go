package retry_test

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/coordinator/retry"
)

var t0 = time.Unix(1_700_000_000, 0)

func newBudget(t testing.TB, cfg retry.BudgetConfig) *retry.Budget {
	t.Helper()
	b, err := retry.NewBudget(cfg)
	require.NoError(t, err)
	return b
}

// withdrawAll withdraws until refused, and returns how many were granted.
func withdrawAll(b *retry.Budget, now time.Time) int {
	n := 0
	for b.TryWithdraw(now) {
		n++
	}
	return n
}

func TestNewBudgetRejects(t *testing.T) {
	tests := []struct {
		field string
		cfg   retry.BudgetConfig
	}{
		{"BudgetConfig.Percent", retry.BudgetConfig{Percent: -0.1}},
		{"BudgetConfig.Percent", retry.BudgetConfig{Percent: 1.5}},
		{"BudgetConfig.Percent", retry.BudgetConfig{Percent: math.NaN()}},
		{"BudgetConfig.Window", retry.BudgetConfig{Percent: 0.1, Window: -time.Second}},
		{"BudgetConfig.Window", retry.BudgetConfig{Percent: 0.1, Window: 9 * time.Millisecond}},
		{"BudgetConfig.Window", retry.BudgetConfig{Percent: 0.1, Window: time.Hour + 1}},
		{"BudgetConfig.MinPerSecond", retry.BudgetConfig{Window: 500 * time.Millisecond, MinPerSecond: 1}},
		{"BudgetConfig.MinPerSecond", retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 0.05}},
		{"BudgetConfig.MinPerSecond", retry.BudgetConfig{Percent: 0.1, MinPerSecond: -1}},
		{"BudgetConfig.MinPerSecond", retry.BudgetConfig{Percent: 0.1, MinPerSecond: math.NaN()}},
		{"BudgetConfig.MinPerSecond", retry.BudgetConfig{Percent: 0.1, MinPerSecond: math.Inf(1)}},
		{"BudgetConfig.MinPerSecond", retry.BudgetConfig{Percent: 0.1, MinPerSecond: 1e9}},
	}
	for _, tt := range tests {
		b, err := retry.NewBudget(tt.cfg)
		assert.Nil(t, b)
		require.ErrorIs(t, err, retry.ErrInvalidConfig, "%+v", tt.cfg)
		var ce *retry.ConfigError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, tt.field, ce.Field, "%+v", tt.cfg)
		assert.Contains(t, err.Error(), tt.field)
	}
	for _, ok := range []retry.BudgetConfig{{}, {Percent: 1, Window: 10 * time.Millisecond}, {Percent: 0.2, MinPerSecond: 3}} {
		_, err := retry.NewBudget(ok)
		assert.NoError(t, err, "%+v", ok)
	}
}

// A ConfigError's message names the sentinel, the field, the value given
// and the reason (config_error.go), so that the one line a log shows says
// what to fix and to what.
func TestConfigErrorMessageNamesFieldValueAndReason(t *testing.T) {
	_, err := retry.NewBudget(retry.BudgetConfig{Percent: 1.5})
	assert.EqualError(t, err, "retry: invalid config: BudgetConfig.Percent = 1.5: must be within [0, 1]")
	_, err = retry.NewBudget(retry.BudgetConfig{Window: 9 * time.Millisecond})
	assert.EqualError(t, err, "retry: invalid config: BudgetConfig.Window = 9ms: must be at least 10ms")
}

// A floor of one attempt a window, written 1/Window.Seconds(), holds one:
// for these windows the float64 product is a unit in the last place under
// 1, and it was refused as allowing none (found by review).
func TestBudgetFloorOfOneAttemptAWindowHoldsOne(t *testing.T) {
	for _, ms := range []int{500, 90, 180, 360, 720, 950} {
		w := time.Duration(ms) * time.Millisecond
		b := newBudget(t, retry.BudgetConfig{Window: w, MinPerSecond: 1 / w.Seconds()})
		at := time.Now()
		assert.True(t, b.TryWithdraw(at), "%v: the floor's one attempt", w)
		assert.False(t, b.TryWithdraw(at), "%v: only one", w)
	}
}

// A storm of withdrawals gets exactly Percent of the requests plus the floor.
func TestBudgetHoldsStormToPercent(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 0.1, Window: 10 * time.Second, MinPerSecond: 1})
	for i := range 1000 {
		b.Deposit(t0.Add(time.Duration(i) * 9 * time.Millisecond))
	}
	now := t0.Add(9 * time.Second)
	assert.InDelta(t, 110, b.Available(now), 1e-9)
	assert.Equal(t, 100+10, withdrawAll(b, now))
	assert.Zero(t, b.Available(now))
	assert.False(t, b.TryWithdraw(now.Add(time.Second/2)))
}

// Under steady traffic and a permanent storm, every window of the budget
// holds withdrawals to Percent of its requests plus the floor.
func TestBudgetStormOverEveryWindow(t *testing.T) {
	const percent, floor = 0.1, 2.0
	window := 10 * time.Second
	b := newBudget(t, retry.BudgetConfig{Percent: percent, Window: window, MinPerSecond: floor})
	slot := window / 10
	var deposits, grants []int // per slot
	for s := range 120 {
		deposits, grants = append(deposits, 0), append(grants, 0)
		for i := range 50 + s%7*20 { // uneven traffic
			now := t0.Add(time.Duration(s)*slot + time.Duration(i)*time.Millisecond)
			b.Deposit(now)
			deposits[s]++
			for range 10 {
				if b.TryWithdraw(now) {
					grants[s]++
				}
			}
		}
	}
	for end := range deposits {
		d, g := 0, 0
		for s := max(0, end-9); s <= end; s++ {
			d, g = d+deposits[s], g+grants[s]
		}
		assert.LessOrEqual(t, float64(g), percent*float64(d)+floor*window.Seconds(), "window ending at slot %d", end)
	}
}

// With no traffic at all, the floor still allows MinPerSecond a second.
func TestBudgetFloorLetsTrickleRetry(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 0.1, Window: 10 * time.Second, MinPerSecond: 1})
	assert.Equal(t, 10, withdrawAll(b, t0))
	assert.Zero(t, withdrawAll(b, t0.Add(5*time.Second)))
	// A window later the early withdrawals have expired.
	assert.Equal(t, 10, withdrawAll(b, t0.Add(10*time.Second)))

	none := newBudget(t, retry.BudgetConfig{Percent: 0.5})
	assert.False(t, none.TryWithdraw(t0))
}

func TestBudgetOldDepositsExpire(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 0.5, Window: time.Second})
	for range 100 {
		b.Deposit(t0)
	}
	assert.InDelta(t, 50, b.Available(t0.Add(900*time.Millisecond)), 1e-9)
	assert.Zero(t, b.Available(t0.Add(time.Second)))
	assert.False(t, b.TryWithdraw(t0.Add(time.Second)))
}

func TestBudgetIgnoresEventsOlderThanItsWindow(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 1, Window: time.Second})
	late := t0.Add(5 * time.Second)
	b.Deposit(late)
	b.Deposit(t0) // falls in the slot late used: too old to count
	assert.InDelta(t, 1, b.Available(late), 1e-9)
	assert.False(t, b.TryWithdraw(t0))
	assert.InDelta(t, 1, b.Available(late), 1e-9)
	// Times before 1970 and the zero time are just times: here steps
	// back of decades, refused, the present unchanged; alone, counted.
	b.Deposit(time.Unix(-100, 0))
	b.Deposit(time.Time{})
	assert.False(t, b.TryWithdraw(time.Unix(-100, 0)))
	assert.InDelta(t, 1, b.Available(late), 1e-9)
	old := newBudget(t, retry.BudgetConfig{Percent: 1, Window: time.Second})
	old.Deposit(time.Unix(-100, 0))
	assert.True(t, old.TryWithdraw(time.Unix(-100, 0)))
	assert.False(t, old.TryWithdraw(time.Unix(-100, 0)), "one deposit, one withdrawal")
}

// A clock that jumps forward, by an hour here, costs nothing: the budget
// grants its whole floor at once, the slots of the earlier times recycled.
func TestBudgetClockJumpingForward(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 0.5, Window: 10 * time.Second, MinPerSecond: 1})
	for s := range 10 {
		now := t0.Add(time.Duration(s) * time.Second)
		for range 10 {
			b.Deposit(now)
		}
		withdrawAll(b, now)
	}
	assert.Equal(t, 10, withdrawAll(b, t0.Add(time.Hour)), "the floor, a window's 10")
}

// Concurrent deposits and withdrawals, phase after phase as the window
// slides: every window holds its grants to Percent of its deposits plus the
// floor.
func TestBudgetConcurrentStorm(t *testing.T) {
	const phases, step = 8, 300 * time.Millisecond // a 1 s window spans 4 phases
	b := newBudget(t, retry.BudgetConfig{Percent: 0.25, Window: time.Second, MinPerSecond: 10})
	var deposits, grants [phases]int64
	for p := range phases {
		now := t0.Add(time.Duration(p) * step)
		var wg sync.WaitGroup
		var granted atomic.Int64
		for g := range 8 {
			wg.Go(func() {
				for range 500 {
					if g%2 == 0 {
						b.Deposit(now)
					} else if b.TryWithdraw(now) {
						granted.Add(1)
					}
				}
			})
		}
		wg.Wait()
		deposits[p], grants[p] = 4*500, granted.Load()
		var d, g int64
		for q := max(0, p-3); q <= p; q++ {
			d, g = d+deposits[q], g+grants[q]
		}
		assert.LessOrEqual(t, g, d/4+10, "window ending at phase %d", p)
	}
	assert.GreaterOrEqual(t, grants[0], int64(10), "the floor, whatever the interleaving")
}

func TestBudgetDoesNotAllocate(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 0.1, MinPerSecond: 1})
	now := t0
	allocs := testing.AllocsPerRun(1000, func() {
		now = now.Add(7 * time.Millisecond)
		b.Deposit(now)
		b.TryWithdraw(now)
	})
	assert.Zero(t, allocs)
}

// refBudget is a deliberately naive model of the budget: it keeps every
// event and counts those whose slot is among the last ten.
type refBudget struct {
	cfg    retry.BudgetConfig
	events []refEvent
}

type refEvent struct {
	at       time.Time
	withdraw bool
}

func (r *refBudget) slot(t time.Time) int64 { return t.UnixNano() / int64(r.cfg.Window/10) }

func (r *refBudget) count(now time.Time) (deposits, withdrawals int) {
	for _, e := range r.events {
		if age := r.slot(now) - r.slot(e.at); age >= 0 && age < 10 {
			if e.withdraw {
				withdrawals++
			} else {
				deposits++
			}
		}
	}
	return deposits, withdrawals
}

func (r *refBudget) allowed(now time.Time) float64 {
	d, w := r.count(now)
	return r.cfg.Percent*float64(d) + r.cfg.MinPerSecond*r.cfg.Window.Seconds() - float64(w)
}

func (r *refBudget) tryWithdraw(now time.Time) bool {
	if r.allowed(now) < 1-1e-9 {
		return false
	}
	r.events = append(r.events, refEvent{now, true})
	return true
}

func TestBudgetMatchesNaiveModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := retry.BudgetConfig{
			Percent:      rapid.SampledFrom([]float64{0, 0.1, 0.25, 0.5, 1}).Draw(t, "percent"),
			Window:       rapid.SampledFrom([]time.Duration{10 * time.Millisecond, time.Second, 10 * time.Second}).Draw(t, "window"),
			MinPerSecond: rapid.SampledFrom([]float64{0, 0.5, 1, 3}).Draw(t, "floor"),
		}
		b, err := retry.NewBudget(cfg)
		if floor := cfg.MinPerSecond * cfg.Window.Seconds(); floor > 0 && floor < 1 {
			if err == nil {
				t.Fatalf("a floor of %v attempts a window, which allows none, was accepted", floor)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		ref := &refBudget{cfg: cfg}
		now := t0.Add(time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, "start")))
		for range rapid.IntRange(1, 300).Draw(t, "steps") {
			now = now.Add(time.Duration(rapid.Int64Range(0, int64(cfg.Window/4)).Draw(t, "advance")))
			if rapid.IntRange(0, 2).Draw(t, "op") > 0 {
				b.Deposit(now)
				ref.events = append(ref.events, refEvent{now, false})
				continue
			}
			if got, want := b.TryWithdraw(now), ref.tryWithdraw(now); got != want {
				t.Fatalf("TryWithdraw at %v = %v, model says %v", now.Sub(t0), got, want)
			}
			if got, want := b.Available(now), max(0, ref.allowed(now)); math.Abs(got-want) > 1e-6 {
				t.Fatalf("Available = %v, model says %v", got, want)
			}
		}
	})
}

// Percent's "resolution is one in a million" (BudgetConfig): it is rounded
// to the nearest millionth, not truncated, so that Percent 2/3 of three
// requests allows two extra attempts, as 2/3 × 3 does.
func TestBudgetPercentRoundsToTheNearestMillionth(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 2.0 / 3})
	for range 3 {
		b.Deposit(t0)
	}
	assert.Equal(t, 2, withdrawAll(b, t0))
}

// A time before 1970 falls in its slot by "the signed count of slots,
// floored" (Budget.epoch): half a slot before 1970 is in the slot before
// 1970's first, so a window that ends in the tenth slot from 1970 counts
// none of its requests.
func TestBudgetRequestJustBefore1970FallsInTheSlotBefore(t *testing.T) {
	b := newBudget(t, retry.BudgetConfig{Percent: 1, Window: 10 * time.Second}) // 1 s slots
	b.Deposit(time.Unix(0, -int64(500*time.Millisecond)))
	assert.False(t, b.TryWithdraw(time.Unix(9, int64(500*time.Millisecond))))
}
