package retry_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/coordinator/retry"
)

// FuzzBudgetModel checks a Budget, driven by one goroutine at wall-clock
// times that never go back, against its godoc: NewBudget refuses exactly
// the configurations BudgetConfig's godoc refuses, with a *ConfigError; a
// TryWithdraw is granted exactly when the withdrawals over the window ending
// at now (its ten slots of Window/10), this one included, do not exceed
// Percent (to a millionth) × the requests deposited over that window plus
// the floor MinPerSecond × Window; a refused one counts nothing; a Refund
// takes back one grant; and Available is what is left, never negative.
func FuzzBudgetModel(f *testing.F) {
	f.Add(0.1, int64(0), 0.0, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 1, 3, 40, 1, 1})
	f.Add(0.0, int64(10*time.Millisecond), 100.0, []byte{1, 1, 1, 1, 2, 1, 3, 5, 1})
	f.Add(1.0, int64(time.Hour), 0.001, []byte{0, 1, 3, 200, 1, 1})
	f.Add(0.5, int64(time.Second), -1.0, []byte{})
	f.Fuzz(func(t *testing.T, percent float64, window int64, floor float64, ops []byte) {
		cfg := retry.BudgetConfig{Percent: percent, Window: time.Duration(window), MinPerSecond: floor}
		b, err := retry.NewBudget(cfg)
		w := time.Duration(window)
		if w == 0 {
			w = 10 * time.Second
		}
		perWindow := floor * w.Seconds()
		// A floor is judged in millionths of an attempt, as the budget
		// counts: 0.9999999 attempts a window is one (and 1/Window.Seconds()
		// a second, which float64 may put an ulp under 1, is one).
		invalid := !(percent >= 0 && percent <= 1) || w < 10*time.Millisecond || w > time.Hour ||
			!(floor >= 0) || !(perWindow <= 1<<30) || floor > 0 && math.Round(perWindow*1e6) < 1e6
		if err != nil {
			var ce *retry.ConfigError
			if !errors.As(err, &ce) || !invalid {
				t.Fatalf("NewBudget(%+v) = %v; oracle says invalid=%v", cfg, err, invalid)
			}
			return
		}
		if invalid {
			t.Fatalf("NewBudget(%+v) accepted an invalid configuration", cfg)
		}
		slot := int64(w / 10)
		pm := uint64(math.Round(percent * 1e6))
		fm := uint64(math.Round(perWindow * 1e6))
		deposits, withdrawals := map[int64]uint64{}, map[int64]uint64{}
		sum := func(m map[int64]uint64, e int64) uint64 {
			var n uint64
			for k, v := range m {
				if k > e-10 && k <= e {
					n += v
				}
			}
			return n
		}
		now := time.Unix(1_700_000_000, 0)
		granted := 0 // grants at the current now, that Refund may take back
		for i := 0; i+1 < len(ops) && i < 400; i += 2 {
			op, arg := ops[i]%4, ops[i+1]
			e := now.UnixNano() / slot
			switch op {
			case 0: // arg deposits
				for range int(arg % 8) {
					b.Deposit(now)
					deposits[e]++
				}
			case 1:
				want := (sum(withdrawals, e)+1)*1e6 <= pm*sum(deposits, e)+fm
				if got := b.TryWithdraw(now); got != want {
					t.Fatalf("op %d: TryWithdraw at slot %d = %v, model %v (withdrawals %d, deposits %d, %+v)",
						i/2, e, got, want, sum(withdrawals, e), sum(deposits, e), cfg)
				}
				if want {
					withdrawals[e]++
					granted++
				}
			case 2:
				if granted > 0 {
					b.Refund(now)
					withdrawals[e]--
					granted--
				}
			case 3: // time moves on by arg slots and a bit
				now = now.Add(time.Duration(int64(arg)*slot + int64(arg)%7*slot/5))
				granted = 0
			}
			allowed, spent := pm*sum(deposits, now.UnixNano()/slot)+fm, sum(withdrawals, now.UnixNano()/slot)*1e6
			want := 0.0
			if spent < allowed {
				want = float64(allowed-spent) / 1e6
			}
			if got := b.Available(now); got != want || got < 0 {
				t.Fatalf("op %d: Available = %v, model %v", i/2, got, want)
			}
		}
	})
}
