package ring_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// FuzzDetectorConfig checks NewDetector against DetectorConfig's godoc:
// zero fields take their defaults, and a configuration is refused, with a
// *ConfigError, exactly when a field is out of its documented range
// (including the NewArrivalWindow limits its window settings inherit). An
// accepted configuration makes a detector whose Phi after heartbeats is a
// finite non-negative number, and which closes.
func FuzzDetectorConfig(f *testing.F) {
	f.Add(0.0, 0, int64(0), int64(0), int64(0), int64(0), 0, int64(0), int64(0), int64(0), int64(0), 0.0)
	f.Add(8.0, 1000, int64(2e9), int64(2e9), int64(1e9), int64(-1), 1, int64(1e9), int64(6e10), int64(1e9), int64(5e9), 0.2)
	f.Add(math.Inf(1), -1, int64(-1), int64(0), int64(0), int64(1), int(min(int64(math.MaxInt), math.MaxInt32+1)), int64(2), int64(1), int64(0), int64(0), 1.0)
	f.Add(1.0, 1, int64(math.MaxInt64), int64(0), int64(math.MaxInt64/4), int64(0), 0, int64(0), int64(0), int64(0), int64(0), math.NaN())
	f.Fuzz(func(t *testing.T, phi float64, window int, initial, maxI, check, pause int64, failures int,
		pInitial, pMax, probeTimeout, readmit int64, jitter float64) {
		cfg := ring.DetectorConfig{
			PhiConvictThreshold: phi, WindowSize: window, InitialInterval: time.Duration(initial),
			MaxInterval: time.Duration(maxI), CheckInterval: time.Duration(check), MaxLocalPause: time.Duration(pause),
			ConnectionFailures: failures, ProbeTimeout: time.Duration(probeTimeout), ReadmitAfter: time.Duration(readmit),
			Probe: ring.Backoff{Initial: time.Duration(pInitial), Max: time.Duration(pMax), Jitter: jitter},
			Seed:  1,
		}
		// The oracle: defaults, then the documented ranges.
		def := func(v, d int64) int64 {
			if v == 0 {
				return d
			}
			return v
		}
		if phi == 0 {
			phi = 8
		}
		if window == 0 {
			window = 1000
		}
		initial = def(initial, 2e9)
		maxI = def(maxI, initial)
		check = def(check, 1e9)
		five := int64(math.MaxInt64)
		if check > 0 && check <= math.MaxInt64/5 {
			five = 5 * check
		}
		pause = def(pause, max(5e9, five))
		pInitial = def(pInitial, 1e9)
		pMax = def(pMax, max(int64(time.Minute), pInitial))
		probeTimeout = def(probeTimeout, 1e9)
		readmit = def(readmit, 5e9)
		twice := int64(math.MaxInt64)
		if check <= math.MaxInt64/2 {
			twice = 2 * check
		}
		invalid := !(phi > 0) || math.IsInf(phi, 1) ||
			window < 0 || failures < 0 || failures > math.MaxInt32 ||
			initial < 0 || maxI < 0 || check < 0 || probeTimeout < 0 || readmit < 0 ||
			initial > math.MaxInt64/int64(window) || maxI > math.MaxInt64/int64(window) ||
			pause >= 0 && check >= 0 && pause < twice ||
			pInitial < 0 || pMax < 0 || pMax < pInitial || !(jitter < 1)
		d, err := ring.NewDetector(cfg)
		if err != nil {
			var ce *ring.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("NewDetector(%+v): %v is no *ConfigError", cfg, err)
			}
			if !invalid {
				t.Fatalf("NewDetector(%+v) refused a valid configuration: %v", cfg, err)
			}
			return
		}
		defer d.Close()
		if invalid {
			t.Fatalf("NewDetector(%+v) accepted an invalid configuration", cfg)
		}
		at := time.Unix(1_000_000, 0)
		for i := range 3 {
			d.Heartbeat("n1", at.Add(time.Duration(i)*time.Duration(initial/3+1)))
		}
		if p := d.Phi("n1", at.Add(time.Hour)); math.IsNaN(p) || p < 0 {
			t.Fatalf("Phi = %v under %+v", p, cfg)
		}
	})
}
