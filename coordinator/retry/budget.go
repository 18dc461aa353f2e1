package retry

import (
	"fmt"
	"math"
	"time"

	"github.com/readpath/readpath/internal/monoclock"
)

// BudgetConfig configures a Budget. NewBudget copies it. It is a plain
// value, safe for concurrent reads.
type BudgetConfig struct {
	// Percent is the fraction of requests, in [0, 1], that may be followed
	// by an extra attempt; 0.1 allows one per ten requests. Its resolution is
	// one in a million.
	Percent float64
	// Window is the sliding window requests and extra attempts are counted
	// over, in 10 slots. Default 10 s when zero; otherwise from 10 ms to an
	// hour (a slot counts up to 2^31-1 events: 6 million a second at most,
	// over a tenth of an hour).
	Window time.Duration
	// MinPerSecond is a floor of extra attempts per second, >= 0, allowed
	// whatever the traffic, so that a quiet client can still retry: the
	// budget always holds MinPerSecond × Window (in seconds) attempts. A
	// floor that holds less than one attempt a window (to a millionth of
	// an attempt, as the budget counts) allows none, and is refused: raise
	// MinPerSecond or Window, or set 0 for no floor. One of more than 2^30
	// attempts a window (about 300,000 a second over an hour) is refused
	// too, as more than the budget counts.
	MinPerSecond float64
}

const (
	defaultBudgetWindow = 10 * time.Second
	minBudgetWindow     = ringSlots * time.Millisecond
	maxBudgetWindow     = time.Hour
	micro               = 1_000_000 // budget arithmetic is in millionths of an attempt
	// maxBudgetFloor is the most attempts a floor may hold a window: half
	// of what a slot counts, as every withdrawal may fall in one slot and
	// is counted there while it is judged. A larger floor wrapped the
	// slot's count, and the budget granted past it.
	maxBudgetFloor = 1 << 30
)

// Budget caps extra attempts (retries, speculative attempts, hedges) to
// Percent of requests over a sliding Window, plus a floor of MinPerSecond
// extra attempts per second so that low traffic can still retry, in the
// style of Finagle's RetryBudget. A retry storm against a failing cluster is
// thus held to a fixed fraction of the traffic.
//
// Time is an argument: the Budget reads the clock only when made and
// starts no goroutine; its window moves lazily, by compare-and-swap, as
// calls arrive. Events more than a window older than the newest seen are
// not counted. Times that carry a monotonic clock reading, as time.Now's
// do, are placed by it, so that a step of the wall clock moves no window;
// pass such times, or none that carries one. A Budget is safe
// for concurrent use and is meant to be shared, for example by an Executor's
// retries and a coordinator's hedges. The zero Budget is not usable: make
// one with NewBudget.
type Budget struct {
	clock         monoclock.Origin // when made: monotonic readings are measured from it
	slotNanos     uint64
	percentMicros uint64 // Percent, in millionths
	floorMicros   uint64 // MinPerSecond × Window, in millionths of an attempt
	deposits      ring
	_             [64]byte // keep the hot deposit counters off the withdrawals' cache line
	withdrawals   ring
}

// NewBudget returns a budget, or a *ConfigError if cfg is invalid.
func NewBudget(cfg BudgetConfig) (*Budget, error) {
	if cfg.Window == 0 {
		cfg.Window = defaultBudgetWindow
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Budget{
		clock:         monoclock.New(),
		slotNanos:     uint64(cfg.Window / ringSlots),
		percentMicros: uint64(math.Round(cfg.Percent * micro)),
		floorMicros:   uint64(cfg.floorMicros()),
	}, nil
}

// floorMicros is the floor a window holds, in millionths of an attempt:
// judged so, 1/Window.Seconds() a second is one attempt, though for one
// window in seven (90 ms, 180 ms, …) its float64 product comes out a unit
// in the last place under 1, and it was refused as allowing none.
func (cfg BudgetConfig) floorMicros() float64 {
	return math.Round(cfg.MinPerSecond * cfg.Window.Seconds() * micro)
}

func (cfg BudgetConfig) validate() error {
	switch {
	case !(cfg.Percent >= 0 && cfg.Percent <= 1):
		return &ConfigError{"BudgetConfig.Percent", cfg.Percent, "must be within [0, 1]"}
	case cfg.Window < minBudgetWindow:
		return &ConfigError{"BudgetConfig.Window", cfg.Window, "must be at least 10ms"}
	case cfg.Window > maxBudgetWindow:
		return &ConfigError{"BudgetConfig.Window", cfg.Window, "must be at most 1h"}
	case !(cfg.MinPerSecond >= 0):
		return &ConfigError{"BudgetConfig.MinPerSecond", cfg.MinPerSecond, "must be >= 0"}
	case !(cfg.MinPerSecond*cfg.Window.Seconds() <= maxBudgetFloor):
		return &ConfigError{"BudgetConfig.MinPerSecond", cfg.MinPerSecond,
			fmt.Sprintf("allows more than 2^30 attempts in a window of %v, more than the budget counts", cfg.Window)}
	case cfg.MinPerSecond > 0 && cfg.floorMicros() < micro:
		return &ConfigError{"BudgetConfig.MinPerSecond", cfg.MinPerSecond,
			fmt.Sprintf("allows less than one attempt in a window of %v, so none: raise it or the window, or set 0 for no floor", cfg.Window)}
	}
	return nil
}

// Validate returns nil for a Budget made by NewBudget, and a *ConfigError
// for a nil or zero Budget, which is not usable: NewExecutor and
// coordinator.New refuse such a Budget with it, rather than the first
// statement or read that withdraws from it crashing.
func (b *Budget) Validate() error {
	switch {
	case b == nil:
		return &ConfigError{"Budget", "nil", "not made by NewBudget"}
	case b.slotNanos == 0:
		return &ConfigError{"Budget", "the zero Budget", "not made by NewBudget"}
	}
	return nil
}

// epoch returns the number of the slot now falls in. A time with a
// monotonic reading is placed by it: by UnixNano, the wall clock stepping
// back an hour (NTP, a resumed VM) left every slot holding the later
// time's counts, refusing every extra attempt, the floor's too, for the
// hour, and a step forward emptied the window. Times before 1970 (the
// zero time.Time, say) keep their order: the signed count of slots,
// floored, with its sign bit flipped orders as an unsigned number. Taken
// as unsigned, such a time became the newest epoch by far, and every
// later event was late: one zero time.Time refused every withdrawal for
// good, the floor's too. Those before 1678 all fall in the first slot
// (Nanos saturates them: UnixNano wraps, and placed 1600 in 2184).
func (b *Budget) epoch(now time.Time) uint64 {
	n := b.clock.Nanos(now)
	if n >= 0 { // every time since 1970: one unsigned division
		return uint64(n)/b.slotNanos | 1<<63
	}
	q := n / int64(b.slotNanos)
	if q*int64(b.slotNanos) != n {
		q-- // floored
	}
	return uint64(q) ^ 1<<63
}

// Deposit counts one request at now. It is lock-free and does not allocate.
func (b *Budget) Deposit(now time.Time) { b.deposits.add(b.epoch(now)) }

// TryWithdraw spends one extra attempt at now, and reports whether the
// budget allowed it: withdrawals over the window ending at now, this one
// included, may not exceed Percent × the requests deposited over that
// window plus the floor. Under contention it may refuse an attempt a
// sequential caller would have got, never the other way round but in one
// case: a Deposit whose caller paused a whole window between reading the
// time and depositing, while another goroutine deposited in its slot's
// next lap, counts in that window for a moment before it is taken back,
// and a TryWithdraw in that moment may get one attempt more. Each call is
// judged on the window ending at its own now, so callers whose times
// straddle a slot boundary out of order (by a few microseconds, with
// time.Now) may between them get a few more than a window allows. Times
// from time.Now are placed by their monotonic reading, so a step of the
// wall clock changes nothing. Times without one follow their wall clock: a
// jump forward costs nothing (the slots of the earlier times are
// recycled), but one back by more than a window refuses every extra
// attempt, the floor's too, until it is again within a window of the
// latest time it had reached, since the slots still hold that time's
// counts. It does not allocate.
func (b *Budget) TryWithdraw(now time.Time) bool {
	e := b.epoch(now)
	if b.deposits.late(e) || !b.withdrawals.add(e) {
		return false
	}
	if b.allows(e) {
		return true
	}
	b.withdrawals.remove(e)
	return false
}

// late reports whether epoch e is a window or more before the newest event
// counted, deposit or withdrawal, by the slots (tenths of a window) the two
// fall in. A withdrawal is refused then: judged against the newest
// withdrawal alone, one an hour old was granted, up to the floor, whenever
// no newer withdrawal had been made, however many requests had been
// deposited since (found by a check of the README).
func (b *Budget) late(e uint64) bool { return b.deposits.late(e) || b.withdrawals.late(e) }

// allows judges a withdrawal that add counted at e. An event a lap later
// may have taken e's slot between the add and the sum, which then counts
// neither e's withdrawal nor its slot's others, and granted it past a
// spent floor, as no order of the two calls would have (found by review):
// e is late by then, and refused.
func (b *Budget) allows(e uint64) bool {
	return b.withdrawals.sum(e)*micro <= b.allowance(e) && !b.withdrawals.late(e)
}

// Available returns how many extra attempts TryWithdraw would allow at now,
// fractions included, for metrics. It is never negative.
func (b *Budget) Available(now time.Time) float64 {
	e := b.epoch(now)
	if b.late(e) {
		return 0 // TryWithdraw refuses it
	}
	allowed, spent := b.allowance(e), b.withdrawals.sum(e)*micro
	if spent >= allowed {
		return 0
	}
	return float64(allowed-spent) / micro
}

// allowance is how many attempts, in millionths, the window ending at epoch
// e allows in all.
func (b *Budget) allowance(e uint64) uint64 {
	return b.percentMicros*b.deposits.sum(e) + b.floorMicros
}

// Refund returns an extra attempt that TryWithdraw granted at now but that
// was not made (another budget refused it, say). Call it with the same now,
// and only after a TryWithdraw that returned true.
func (b *Budget) Refund(now time.Time) { b.withdrawals.remove(b.epoch(now)) }
