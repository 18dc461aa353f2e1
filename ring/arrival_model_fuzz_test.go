package ring_test

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// FuzzArrivalWindowModel drives an ArrivalWindow with fuzzed settings and
// heartbeat times and checks it against a plain model of its godoc: the
// first heartbeat records Initial, a heartbeat not after the previous one is
// ignored, an interval above Max is not recorded (but the heartbeat is the
// new latest), only the last Size intervals count. Mean, Last, Phi and
// SilenceBound must agree with the model; NewArrivalWindow must refuse
// exactly the settings its godoc refuses, with a *ConfigError.
func FuzzArrivalWindowModel(f *testing.F) {
	f.Add(uint16(3), int64(2e9), int64(2e9), []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 9, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Add(uint16(1), int64(1), int64(1), []byte{})
	f.Add(uint16(1000), int64(math.MaxInt64/1000), int64(1), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, size uint16, initial, maxI int64, data []byte) {
		n := int(size)
		w, err := ring.NewArrivalWindow(n, time.Duration(initial), time.Duration(maxI))
		invalid := n < 1 || initial < 1 || maxI < 1 || initial > math.MaxInt64/int64(max(n, 1)) || maxI > math.MaxInt64/int64(max(n, 1))
		if invalid {
			var ce *ring.ConfigError
			if err == nil || !errors.As(err, &ce) {
				t.Fatalf("NewArrivalWindow(%d, %d, %d) = %v, want a *ConfigError", n, initial, maxI, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("NewArrivalWindow(%d, %d, %d): %v", n, initial, maxI, err)
		}
		base := time.Unix(1_000_000, 0)
		var (
			rec     []time.Duration
			last    time.Time
			started bool
		)
		check := func(now time.Time) {
			if l, ok := w.Last(); ok != started || !l.Equal(last) {
				t.Fatalf("Last() = %v, %v; model %v, %v", l, ok, last, started)
			}
			var sum time.Duration
			for _, d := range rec {
				sum += d
			}
			var mean time.Duration
			if len(rec) > 0 {
				mean = sum / time.Duration(len(rec))
			}
			if got := w.Mean(); got != mean {
				t.Fatalf("Mean() = %v, model %v (intervals %v)", got, mean, rec)
			}
			phi := w.Phi(now)
			if math.IsNaN(phi) || phi < 0 {
				t.Fatalf("Phi(%v) = %v", now, phi)
			}
			if started {
				want := max(float64(now.Sub(last)), 0) / (float64(sum) / float64(len(rec))) / math.Ln10
				if math.Abs(phi-want) > 1e-9*math.Max(1, want) {
					t.Fatalf("Phi = %v, model %v", phi, want)
				}
			} else if phi != 0 {
				t.Fatalf("Phi before any heartbeat = %v", phi)
			}
			if sb := w.SilenceBound(8); sb < 0 || !started && sb != 0 {
				t.Fatalf("SilenceBound(8) = %v", sb)
			}
		}
		check(base)
		at := base
		for len(data) >= 8 {
			step := int64(binary.LittleEndian.Uint64(data))
			data = data[8:]
			at = at.Add(time.Duration(step))
			w.Add(at)
			switch {
			case !started:
				rec = append(rec, time.Duration(initial))
				started = true
				last = at
			case !at.After(last):
			default:
				if d := at.Sub(last); d <= time.Duration(maxI) {
					rec = append(rec, d)
				}
				last = at
			}
			if len(rec) > n {
				rec = rec[len(rec)-n:]
			}
			check(at.Add(time.Duration(step / 3)))
		}
	})
}

// FuzzBackoffDelay checks Backoff.Delay against its godoc for a valid
// Backoff (one a DetectorConfig accepts): probe n waits Initial*2^n capped at
// Max, less up to Jitter of it, so Delay is in [(1-Jitter)*base, base] and
// never negative; and with the same draw, a later probe never waits less.
func FuzzBackoffDelay(f *testing.F) {
	f.Add(int64(0), int64(0), 0.0, 3, 0.5)
	f.Add(int64(1), int64(math.MaxInt64), 0.99, 70, 0.999)
	f.Add(int64(math.MaxInt64), int64(0), -1.0, 0, 0.0)
	f.Fuzz(func(t *testing.T, initial, maxD int64, jitter float64, n int, r float64) {
		b := ring.Backoff{Initial: time.Duration(initial), Max: time.Duration(maxD), Jitter: jitter}
		d, err := ring.NewDetector(ring.DetectorConfig{Probe: b})
		if err != nil {
			var ce *ring.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("NewDetector with Probe %+v: %v is no *ConfigError", b, err)
			}
			return
		}
		d.Close()
		if n < 0 || n > 200 || !(r >= 0 && r < 1) {
			return
		}
		// Defaults, as documented.
		in, mx, jt := b.Initial, b.Max, b.Jitter
		if in == 0 {
			in = time.Second
		}
		if mx == 0 {
			mx = max(time.Minute, in)
		}
		if jt == 0 {
			jt = 0.2
		}
		base := float64(mx)
		if e := float64(in) * math.Exp2(float64(n)); e < base {
			base = e
		}
		got := b.Delay(n, r)
		lo := base
		if jt > 0 {
			lo = base * (1 - jt)
		}
		if got < 0 || float64(got) > base*(1+1e-12)+1 || float64(got) < lo*(1-1e-12)-1 {
			t.Fatalf("%+v.Delay(%d, %v) = %v, want in [%v, %v]", b, n, r, got, time.Duration(lo), time.Duration(base))
		}
		if n < 200 {
			if next := b.Delay(n+1, r); next < got {
				t.Fatalf("%+v: Delay(%d) = %v < Delay(%d) = %v with the same draw", b, n+1, next, n, got)
			}
		}
	})
}
