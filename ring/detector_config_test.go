package ring_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// Every *ConfigError of NewDetector names the one setting at fault and the
// value it was given, so that a caller can tell which field to fix.
func TestDetectorConfigErrorsNameSettingAndValue(t *testing.T) {
	type errorCase struct {
		cfg            ring.DetectorConfig
		setting, value string
	}
	cases := []errorCase{
		{ring.DetectorConfig{PhiConvictThreshold: math.NaN()}, "PhiConvictThreshold", "NaN"},
		{ring.DetectorConfig{PhiConvictThreshold: -3}, "PhiConvictThreshold", "-3"},
		{ring.DetectorConfig{PhiConvictThreshold: math.Inf(1)}, "PhiConvictThreshold", "+Inf"},
		{ring.DetectorConfig{WindowSize: -7}, "WindowSize", "-7"},
		{ring.DetectorConfig{ConnectionFailures: -2}, "ConnectionFailures", "-2"},
		// A negative InitialInterval is the default MaxInterval too: the
		// setting named must not depend on the order they are checked in.
		{ring.DetectorConfig{InitialInterval: -time.Second}, "InitialInterval", "-1s"},
		{ring.DetectorConfig{MaxInterval: -time.Second}, "MaxInterval", "-1s"},
		{ring.DetectorConfig{ProbeTimeout: -time.Second}, "ProbeTimeout", "-1s"},
		{ring.DetectorConfig{Probe: ring.Backoff{Initial: -time.Second}}, "Probe.Initial", "-1s"},
		{ring.DetectorConfig{Probe: ring.Backoff{Max: -time.Second}}, "Probe.Max", "-1s"},
		{ring.DetectorConfig{Probe: ring.Backoff{Jitter: 1.5}}, "Probe.Jitter", "1.5"},
		// A window whose sum would overflow names the interval over the
		// limit and the WindowSize it is over for (found by review).
		{ring.DetectorConfig{InitialInterval: 4800 * time.Hour}, "InitialInterval", "4800h0m0s"},
		{ring.DetectorConfig{MaxInterval: 4800 * time.Hour}, "MaxInterval", "4800h0m0s"},
		{ring.DetectorConfig{MaxLocalPause: 1999 * time.Millisecond}, "MaxLocalPause", "1.999s"},
	}
	if strconv.IntSize == 64 { // settings an int of 32 bits cannot hold
		over32, window := int64(math.MaxInt32)+1, int64(1)<<40
		cases = append(cases,
			// The count of failures in a row is an int32: a larger setting
			// would never convict.
			errorCase{ring.DetectorConfig{ConnectionFailures: int(over32)}, "ConnectionFailures", "2147483648"},
			errorCase{ring.DetectorConfig{WindowSize: int(window)}, "InitialInterval", "WindowSize 1099511627776"})
	}
	for _, c := range cases {
		d, err := ring.NewDetector(c.cfg)
		if d != nil {
			d.Close()
		}
		var ce *ring.ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%+v: %v, want a *ConfigError", c.cfg, err)
			continue
		}
		if ce.Setting != c.setting || !strings.Contains(err.Error(), c.value) {
			t.Errorf("%+v: %q (Setting %q), want Setting %q and the value %s", c.cfg, err, ce.Setting, c.setting, c.value)
		}
	}
}

// The limits of DetectorConfig's documented ranges are inside them:
// ConnectionFailures "at most 2^31-1", and a MaxLocalPause of "at least two
// CheckIntervals", exactly two, also when those two are a nanosecond short
// of the longest Duration (not taken for an overflow).
func TestDetectorConfigAtTheLimitsIsAccepted(t *testing.T) {
	half := time.Duration(math.MaxInt64 / 2)
	for _, cfg := range []ring.DetectorConfig{
		{ConnectionFailures: math.MaxInt32},
		{CheckInterval: time.Second, MaxLocalPause: 2 * time.Second},
		{CheckInterval: half, MaxLocalPause: 2 * half},
	} {
		d, err := ring.NewDetector(cfg)
		if err != nil {
			t.Errorf("%+v: %v", cfg, err)
			continue
		}
		d.Close()
	}
}

// A CheckInterval so long that five of them overflow is accepted with the
// MaxLocalPause default saturated, not refused for a setting not given.
func TestHugeCheckIntervalIsAccepted(t *testing.T) {
	d, err := ring.NewDetector(ring.DetectorConfig{CheckInterval: 1 << 61})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}
